//! A live turn whose instance loses its database past the turn's lease: the other instance's
//! sweeper takes the turn for dead and saves its draft; once the database is back, the owner
//! either brings the stored reply up to what it streamed or tells its client the reply was cut
//! off — never a silent `{done}` over a shorter stored reply — and its `/health` said meanwhile
//! that it could not renew its leases. Two real processes on the throw-away PostgreSQL (the
//! SQLite pass skips this: SQLite serves one instance).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::process::proxy::DbProxy;
use crate::process::{Server, create_ada, start_instance};

/// The lease is short so the sweeper acts within the test; the reply streams for longer than
/// the outage.
fn settings() -> Vec<(&'static str, String)> {
    vec![("PALAVER_TURN_LEASE_SECONDS", "2".into()), ("PALAVER_DATABASE_CONNECT_TIMEOUT_SECONDS", "1".into())]
}

fn slow_reply() -> Value {
    let parts: Vec<String> = (1..=60).map(|n| format!("Part {n}. ")).collect();
    json!({"parts": parts, "chunkDelayMs": 150})
}

async fn health(server: &Server) -> Value {
    let url = format!("http://127.0.0.1:{}/health", server.port);
    let http = palaver_core::outbound::client_builder().build().unwrap();
    http.get(url).send().await.unwrap().json().await.unwrap()
}

/// Waits (bounded) until `server`'s `/health` says its leases are `state`.
async fn leases_become(server: &Server, state: &str) -> Value {
    let started = Instant::now();
    loop {
        let health = health(server).await;
        if health["detail"]["turnLeases"] == state || started.elapsed() > Duration::from_secs(30) {
            return health;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The stored rows of the one conversation, as (type, text, interrupted).
async fn stored(database_url: &str) -> Vec<(String, String, bool)> {
    let pool = palaver_core::db::connect(database_url).await.unwrap();
    let rows: Vec<(String,)> =
        sqlx::query_as("SELECT CAST(payload AS TEXT) FROM history_rows ORDER BY seq").fetch_all(&pool).await.unwrap();
    rows.into_iter()
        .map(|(json,)| serde_json::from_str::<Value>(&json).unwrap())
        .map(|row| {
            let text = row["text"].as_str().unwrap_or_default().to_owned();
            (row["type"].as_str().unwrap().to_owned(), text, row["interrupted"] == true)
        })
        .collect()
}

async fn swept(database_url: &str) -> bool {
    let pool = palaver_core::db::connect(database_url).await.unwrap();
    let (swept,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM turn_drafts WHERE swept_first_seq IS NOT NULL")
        .fetch_one(&pool)
        .await
        .unwrap();
    swept > 0
}

#[tokio::test]
async fn a_live_turn_taken_for_dead_during_an_outage_stores_all_it_streamed() {
    if std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default().is_empty() {
        eprintln!("skipped: two instances need PostgreSQL (PALAVER_TEST_POSTGRES_URL)");
        return;
    }
    let data = tempfile::tempdir().unwrap();
    let url = palaver_core::db::scratch_url(data.path()).await.unwrap();
    create_ada(&url);
    let proxy = DbProxy::start(&url).await;
    let a = start_instance(proxy.url(), data.path(), &json!({"responses": [slow_reply()]}), &settings()).await;
    let b = start_instance(&url, data.path(), &json!({"responses": []}), &settings()).await;
    let cookie = a.log_in().await;
    let (mut stream, _) = a.turn_until(&cookie, &json!({"prompt": "Talk"}), |event| event["delta"].is_string()).await;

    proxy.cut();
    let failing = leases_become(&a, "failing").await;
    assert_eq!(failing["detail"]["turnLeases"], "failing", "A says it cannot renew: {failing}");
    let started = Instant::now();
    while !swept(&url).await && started.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(swept(&url).await, "B's sweeper took A's turn for dead");
    proxy.restore();

    let events = crate::process::read_events(&mut stream, crate::process::is_done).await;
    let streamed: String = events.iter().filter_map(|event| event["delta"].as_str()).collect();
    let errors: Vec<&Value> = events.iter().filter(|event| event.get("error").is_some()).collect();
    let rows = stored(&url).await;
    let reply = rows.iter().rfind(|(kind, ..)| kind == "assistant").expect("a stored reply");
    // The reply streamed before the first event read here counts too: the stored text ends with it.
    let whole = reply.1.ends_with(&streamed) && !reply.2;
    assert!(
        whole || errors.iter().any(|error| error["error"].as_str().unwrap_or_default().contains("cut off")),
        "the stored reply is what streamed, or the client was told it was cut off: {rows:?} {events:?}"
    );
    assert!(whole, "nothing came after the turn, so its whole reply is stored: {rows:?}");
    assert_eq!(rows.iter().filter(|(kind, ..)| kind == "user").count(), 1, "{rows:?}");
    assert_eq!(leases_become(&a, "renewed").await["detail"]["turnLeases"], "renewed");
    drop(b);
}
