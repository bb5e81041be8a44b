//! Killed mid-reply (SIGKILL: nothing runs on the way out), a real process loses nothing the
//! user saw: started again on the same database, it saves the message and the reply as far
//! as it streamed (at most a second behind), marked interrupted.

mod process;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

async fn stored_rows(database_url: &str) -> Vec<Value> {
    let pool = app::db::connect(database_url).await.unwrap();
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT CAST(payload AS TEXT) FROM history_rows ORDER BY seq").fetch_all(&pool).await.unwrap();
    rows.into_iter().map(|(json,)| serde_json::from_str(&json).unwrap()).collect()
}

async fn drafts_left(database_url: &str) -> i64 {
    let pool = app::db::connect(database_url).await.unwrap();
    sqlx::query_as::<_, (i64,)>("SELECT COUNT(*) FROM turn_drafts").fetch_one(&pool).await.unwrap().0
}

#[tokio::test]
async fn a_reply_cut_by_a_kill_is_saved_as_far_as_it_streamed_once_the_server_is_back() {
    let parts: Vec<String> = (1..=40).map(|n| format!("Part {n}. ")).collect();
    let script = json!({"responses": [{"parts": parts, "chunkDelayMs": 200}]});
    // On PostgreSQL the dead process's turn counts as running until its lease lapses: a short one.
    let lease = [("PALAVER_TURN_LEASE_SECONDS", "2".to_string())];
    let mut server = process::start(&script, &lease).await;
    let cookie = server.log_in().await;
    let mut stream = server.start_turn(&cookie).await;
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains("Part 4. ") {
        line.clear();
        assert!(stream.read_line(&mut line).await.unwrap() > 0, "the stream ended early");
        if let Some(data) = line.strip_prefix("data: ")
            && let Ok(event) = serde_json::from_str::<Value>(data)
            && let Some(text) = event["text"].as_str()
        {
            seen.push_str(text);
        }
    }
    // What was shown is stored at most a second behind.
    tokio::time::sleep(Duration::from_millis(1300)).await;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert!(drafts_left(&server.database_url).await == 1, "the turn's draft outlived the process");
    assert_eq!(stored_rows(&server.database_url).await.len(), 0, "nothing saved as rows yet");

    let data_dir = server.dirs.last().unwrap().path().to_path_buf();
    let _again = process::start_instance(&server.database_url, &data_dir, &script, &lease).await;
    let started = Instant::now();
    let rows = loop {
        let rows = stored_rows(&server.database_url).await;
        if !rows.is_empty() || started.elapsed() > Duration::from_secs(20) {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(rows.len(), 2, "the message and the reply: {rows:?}");
    assert_eq!((rows[0]["type"].as_str(), rows[0]["text"].as_str()), (Some("user"), Some("Talk")));
    assert_eq!(rows[1]["type"], "assistant");
    assert_eq!(rows[1]["interrupted"], true, "{:?}", rows[1]);
    let reply = rows[1]["text"].as_str().unwrap();
    // `start_turn` read the first part; `seen` is every part after it, up to the kill.
    assert!(
        reply.starts_with(&format!("Part 1. {seen}")),
        "every part shown before the kill is kept: {reply:?} after {seen:?}"
    );
    assert!(!reply.contains("Part 40."), "and only what streamed: {reply:?}");
    assert_eq!(drafts_left(&server.database_url).await, 0, "saved once, its draft gone");
}
