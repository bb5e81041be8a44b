//! Shutting down as a real process: SIGTERM stops accepting, gives running turns the grace
//! period, then stops them; each saves what it said, marked cut off, whether its client is
//! still there or left; a turn that ends within the grace is saved whole; open event streams
//! do not hold the exit up.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::process::Server;
use serde_json::json;
use tokio::io::AsyncReadExt;

async fn start(grace_seconds: u64) -> Server {
    let parts: Vec<String> = (1..=20).map(|n| format!("Part {n}. ")).collect();
    let script = json!({"responses": [{"parts": parts, "chunkDelayMs": 300}, {"parts": parts, "chunkDelayMs": 300}]});
    crate::process::start(&script, &[("PALAVER_SHUTDOWN_GRACE_SECONDS", grace_seconds.to_string())]).await
}

impl Server {
    fn terminate(&self) {
        assert!(Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap().success());
    }

    /// Waits for the process to exit; how long it took.
    async fn exited(&mut self) -> Duration {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return started.elapsed();
            }
            assert!(started.elapsed() < Duration::from_secs(20), "the server did not exit");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The saved replies: their text, and whether each is marked cut off.
    async fn replies(&self) -> Vec<(String, bool)> {
        let pool = palaver_core::db::connect(&self.database_url).await.unwrap();
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT CAST(payload AS TEXT) FROM history_rows WHERE row_type = 'assistant' ORDER BY seq")
                .fetch_all(&pool)
                .await
                .unwrap();
        rows.into_iter()
            .map(|(json,)| {
                let row: serde_json::Value = serde_json::from_str(&json).unwrap();
                (row["text"].as_str().unwrap().to_string(), row["interrupted"] == true)
            })
            .collect()
    }
}

#[tokio::test]
async fn sigterm_gives_turns_their_grace_then_stops_them_and_each_saves_what_it_said() {
    let mut server = start(1).await;
    let cookie = server.log_in().await;
    // One client stays; another leaves mid-reply; an event stream is open.
    let mut staying = server.start_turn(&cookie).await;
    drop(server.start_turn(&cookie).await);
    let _events = server.request("GET", "/gpt/events", &cookie, &json!({})).await;

    server.terminate();
    let mut rest = String::new();
    staying.read_to_string(&mut rest).await.unwrap();
    assert!(rest.contains("\"done\":true"), "the staying client's stream ends with done: {rest}");
    let took = server.exited().await;
    assert!(took < Duration::from_secs(8), "1 s of grace, then the turns stop and save: took {took:?}");

    let replies = server.replies().await;
    assert_eq!(replies.len(), 2, "both turns saved, the one whose client left too: {replies:?}");
    for (reply, interrupted) in &replies {
        assert!(reply.starts_with("Part 1. ") && !reply.contains("Part 20."), "what was said, cut: {reply}");
        assert!(interrupted, "and marked cut off by the shutdown");
    }
}

#[tokio::test]
async fn a_second_signal_stops_the_turns_at_once_and_they_still_save() {
    let mut server = start(60).await;
    let cookie = server.log_in().await;
    let _turn = server.start_turn(&cookie).await;
    server.terminate();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.terminate();
    let took = server.exited().await;
    assert!(took < Duration::from_secs(5), "not the minute of grace: {took:?}");
    let replies = server.replies().await;
    assert_eq!(replies.len(), 1);
    assert!(replies[0].0.starts_with("Part 1. ") && !replies[0].0.contains("Part 20."), "{replies:?}");
    assert!(replies[0].1, "marked cut off");
}

#[tokio::test]
async fn a_turn_that_finishes_within_the_grace_is_saved_whole_and_not_marked() {
    let parts: Vec<String> = (1..=6).map(|n| format!("Part {n}. ")).collect();
    let script = json!({"responses": [{"parts": parts, "chunkDelayMs": 200}]});
    let mut server = crate::process::start(&script, &[("PALAVER_SHUTDOWN_GRACE_SECONDS", "10".into())]).await;
    let cookie = server.log_in().await;
    // The client leaves: the turn goes on without it, and the signal waits for it.
    drop(server.start_turn(&cookie).await);
    server.terminate();
    let took = server.exited().await;
    assert!(took < Duration::from_secs(8), "it exits once the turn is done, not at the grace's end: {took:?}");
    let replies = server.replies().await;
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(replies[0].0.starts_with("Part 1. Part 2. ") && replies[0].0.contains("Part 6."), "{replies:?}");
    assert!(!replies[0].1, "a whole reply is not marked cut off");
}
