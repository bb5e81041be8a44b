//! What a user was told is kept stays kept, whatever races or dies: the per-user cap under
//! concurrent prompts, the order of turns when an earlier one's owner died, and a turn that a
//! sweeper took for dead while it still ran (its database out of reach past its lease).

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{Harness, harness, harness_with};
use palaver_core::conversation::running::RunningTurns;
use palaver_core::db::Backend;
use palaver_core::error::{AppError, Error};
use palaver_core::llm::MockModel;
use palaver_core::turn::{TurnDependencies, TurnHandle, TurnInput, TurnRunner, TurnSettings};
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};
use serde_json::{Value, json};
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

/// A reply in ten slow parts, so a test can act while it streams.
fn slow_reply() -> Value {
    let parts: Vec<String> = (1..=10).map(|n| format!("Part {n}. ")).collect();
    json!({"parts": parts, "chunkDelayMs": 100})
}

/// A second instance on the harness's database, answering with `responses`. Like every
/// instance on SQLite, its sweeper takes any turn it does not run itself for dead.
fn another_instance(harness: &Harness, responses: Value) -> TurnRunner {
    let model = MockModel::from_json(&json!({ "responses": responses }).to_string(), None).unwrap();
    let running = RunningTurns::new(
        harness.pool.clone(),
        palaver_core::signals::Signals::local(),
        palaver_core::conversation::running::DEFAULT_LEASE,
    );
    let models = palaver_core::llm::Models::single(Arc::new(model));
    TurnRunner::new(harness.pool.clone(), models, TurnSettings::default(), TurnDependencies::default(), running)
}

async fn next_event(handle: &mut TurnHandle) -> Option<TurnEvent> {
    handle.events.recv().await
}

async fn until_delta(handle: &mut TurnHandle) {
    while let Some(event) = next_event(handle).await {
        if matches!(event, TurnEvent::Delta { .. }) {
            return;
        }
    }
    panic!("the turn sent no text");
}

async fn rest(handle: &mut TurnHandle) -> Vec<TurnEvent> {
    let mut events = Vec::new();
    while let Some(event) = next_event(handle).await {
        events.push(event);
    }
    events
}

fn errors(events: &[TurnEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::Error { error } => Some(error.clone()),
            _ => None,
        })
        .collect()
}

/// The texts of a conversation's messages and replies, in order, each reply marked when cut off.
fn transcript(rows: &[HistoryRow]) -> Vec<String> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::User { text, .. } => Some(format!("user: {text}")),
            HistoryRow::Assistant { text, interrupted, .. } => {
                Some(format!("reply{}: {text}", if *interrupted { " (cut off)" } else { "" }))
            }
            _ => None,
        })
        .collect()
}

async fn prompt(harness: &Harness, history_id: Option<&str>, text: &str) -> TurnHandle {
    let request = harness.request(history_id, TurnInput::Prompt(text.into()));
    harness.runner.start(request).await.expect("the turn starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn eight_simultaneous_prompts_admit_exactly_the_cap() {
    let replies: Vec<Value> = (0..8).map(|_| slow_reply()).collect();
    let harness = harness(json!(replies)).await;
    let cap = TurnSettings::default().max_turns_per_user;
    let starts = (0..8).map(|n| {
        let (runner, request) = (harness.runner.clone(), harness.request(None, TurnInput::Prompt(format!("Hi {n}"))));
        tokio::spawn(async move { runner.start(request).await })
    });
    let mut admitted = Vec::new();
    let mut refused = 0;
    for start in starts.collect::<Vec<_>>() {
        match start.await.unwrap().map_err(Error::into_kind) {
            Ok(handle) => admitted.push(handle),
            Err(AppError::TooManyRequests { .. }) => refused += 1,
            Err(other) => panic!("a prompt failed otherwise: {other:?}"),
        }
    }
    assert_eq!((admitted.len(), refused), (cap, 8 - cap), "the cap holds under concurrency");
    for mut handle in admitted {
        rest(&mut handle).await;
    }
    let (_, events) = harness.prompt(None, "Once they are done").await;
    assert!(errors(&events).is_empty(), "a refused prompt left no place taken: {events:?}");
}

#[tokio::test]
async fn a_refused_prompt_changes_nothing_and_holds_no_place() {
    let settings = TurnSettings { max_turns_per_user: 1, ..Default::default() };
    let harness = harness_with(json!([slow_reply(), {"text": "Second."}]), settings).await;
    let mut running = prompt(&harness, None, "First").await;
    let history_id = running.history_id.clone();
    let refused = harness
        .runner
        .start(harness.request(Some(&history_id), TurnInput::Prompt("Second".into())))
        .await
        .map_err(Error::into_kind);
    assert!(matches!(refused, Err(AppError::TooManyRequests { .. })), "{:?}", refused.err());
    rest(&mut running).await;
    let (_, events) = harness.prompt(Some(&history_id), "Second").await;
    assert!(errors(&events).is_empty(), "{events:?}");
    let rows = harness.rows(&history_id).await;
    assert_eq!(transcript(&rows).iter().filter(|line| line.starts_with("user: ")).count(), 2, "{rows:?}");
}

#[tokio::test]
async fn the_message_is_stored_before_the_turn_is_acknowledged() {
    let harness = harness(json!([slow_reply()])).await;
    let mut handle = prompt(&harness, None, "Keep me").await;
    // Read before the turn's task has run at all: the draft was stored by `start`.
    let (drafts,): (String,) = sqlx::query_as("SELECT rows_json FROM turn_drafts WHERE history_id = $1")
        .bind(&handle.history_id)
        .fetch_one(&harness.pool)
        .await
        .expect("a draft is stored when the turn starts");
    assert!(drafts.contains("Keep me"), "{drafts}");
    rest(&mut handle).await;
}

#[tokio::test]
async fn a_turn_after_a_dead_ones_waits_for_its_draft_to_be_saved() {
    let harness = harness(json!([{"text": "Hello."}, {"text": "After it."}])).await;
    let (history_id, _) = harness.prompt(None, "Hi").await;
    // What a process killed mid-turn leaves: its draft, its turn held by no one.
    let dead_rows = json!([{"type": "user", "text": "Sent first"},
        {"type": "assistant", "text": "Half a re", "interrupted": true}]);
    sqlx::query(
        "INSERT INTO turn_drafts (turn_id, history_id, user_id, running_key, rows_json) VALUES ('dead', $1, $2, '0', $3)",
    )
    .bind(&history_id)
    .bind(&harness.caller.user.id)
    .bind(dead_rows.to_string())
    .execute(&harness.pool)
    .await
    .unwrap();
    let mut later = prompt(&harness, Some(&history_id), "Sent second").await;
    let early = tokio::time::timeout(Duration::from_millis(300), next_event(&mut later)).await;
    assert!(early.is_err(), "the later turn waits for the earlier one to be saved: {early:?}");
    assert_eq!(harness.runner.close_interrupted().await.unwrap(), 1, "the sweeper saves the dead turn");
    let events = rest(&mut later).await;
    assert!(errors(&events).is_empty(), "{events:?}");
    let lines = transcript(&harness.rows(&history_id).await);
    assert_eq!(
        lines,
        [
            "user: Hi",
            "reply: Hello.",
            "user: Sent first",
            "reply (cut off): Half a re",
            "user: Sent second",
            "reply: After it."
        ],
        "stored in the order they were sent"
    );
    let seen = harness.model_requests().last().unwrap().to_string();
    assert!(seen.contains("Sent first"), "the later turn's model saw the earlier message: {seen}");
}

#[tokio::test]
async fn a_turn_taken_for_dead_while_it_ran_stores_its_whole_reply() {
    let harness = harness(json!([slow_reply()])).await;
    let mut handle = prompt(&harness, None, "Talk").await;
    until_delta(&mut handle).await;
    let other = another_instance(&harness, json!([]));
    assert_eq!(other.close_interrupted().await.unwrap(), 1, "another instance takes the turn for dead");
    let events = rest(&mut handle).await;
    assert!(errors(&events).is_empty(), "{events:?}");
    let said: String = crate::common::text(&events);
    let lines = transcript(&harness.rows(&handle.history_id).await);
    assert_eq!(lines, ["user: Talk".to_string(), format!("reply: {said}")], "what was swept is replaced");
    let (drafts,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM turn_drafts").fetch_one(&harness.pool).await.unwrap();
    assert_eq!(drafts, 0);
}

#[tokio::test]
async fn a_turn_taken_for_dead_after_which_the_conversation_went_on_says_it_was_cut_off() {
    let harness = harness(json!([slow_reply()])).await;
    let mut handle = prompt(&harness, None, "Talk").await;
    until_delta(&mut handle).await;
    let other = another_instance(&harness, json!([{"text": "Meanwhile."}]));
    assert_eq!(other.close_interrupted().await.unwrap(), 1);
    let request = harness.request(Some(&handle.history_id), TurnInput::Prompt("Next".into()));
    let mut next = other.start(request).await.unwrap();
    rest(&mut next).await;
    let events = rest(&mut handle).await;
    assert!(
        errors(&events).iter().any(|error| error.contains("cut off")),
        "never a silent done over a shorter stored reply: {events:?}"
    );
    let lines = transcript(&harness.rows(&handle.history_id).await);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[1].starts_with("reply (cut off): "), "{lines:?}");
    assert_eq!(lines[2..], ["user: Next", "reply: Meanwhile."]);
}

/// The rating of a reply failed under load with "database is locked": its transaction read
/// before it wrote, and another connection's commit in between made SQLite refuse the write
/// however long it waited. A transaction that writes now holds the write lock from its start,
/// so another writer waits for it instead of invalidating it.
#[tokio::test]
async fn a_transaction_that_reads_then_writes_is_not_undone_by_another_writer() {
    let h = harness(json!([{ "text": "Hello." }])).await;
    if Backend::of(&h.pool) != Backend::Sqlite {
        return; // PostgreSQL's read-committed transactions have no stale snapshot to fail on.
    }
    let (history, _) = h.prompt(None, "Hi").await;
    let url = palaver_core::db::scratch_url(h.dir.path()).await.unwrap();
    let impatient = SqliteConnectOptions::from_str(&url).unwrap().busy_timeout(Duration::ZERO);
    let mut other_writer = SqliteConnection::connect_with(&impatient).await.unwrap();
    let rename = |title: &'static str| {
        sqlx::query("UPDATE histories SET title = ? WHERE id = ?").bind(title).bind(history.clone())
    };

    let mut tx = palaver_core::db::begin(&h.pool).await.unwrap();
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM history_rows WHERE history_id = $1")
        .bind(&history)
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let refused = rename("Other").execute(&mut other_writer).await.unwrap_err();
    assert!(refused.to_string().contains("locked"), "{refused}");
    sqlx::query("UPDATE history_rows SET rating = 'up' WHERE history_id = $1")
        .bind(&history)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    rename("Other").execute(&mut other_writer).await.unwrap();
    let (rated,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM history_rows WHERE history_id = $1 AND rating = 'up'")
        .bind(&history)
        .fetch_one(&h.pool)
        .await
        .unwrap();
    assert_eq!(rated, rows);
}

/// The chat once stopped answering: a pooled connection had come back inside a transaction (its
/// rollback had failed), holding SQLite's write lock, and every writer waited on it. A
/// connection still in a transaction is now closed before it is handed out again.
#[tokio::test]
async fn a_connection_left_inside_a_transaction_is_closed_before_it_is_used_again() {
    let dir = tempfile::tempdir().unwrap();
    let url = palaver_core::db::scratch_url(dir.path()).await.unwrap();
    // One connection: the next statement gets the one the transaction was left open on.
    let settings =
        palaver_core::db::DatabaseSettings { max_connections: 1, ..palaver_core::db::DatabaseSettings::new(&url) };
    let pool = palaver_core::db::connect_with(&settings).await.unwrap();
    let mut connection = pool.acquire().await.unwrap();
    let mut left_open = connection.begin().await.unwrap();
    sqlx::query("INSERT INTO server_settings (key, value) VALUES ('probe', 'left open')")
        .execute(&mut *left_open)
        .await
        .unwrap();
    // Lost without a rollback, as a transaction whose rollback failed is.
    std::mem::forget(left_open);
    drop(connection);

    sqlx::query("INSERT INTO server_settings (key, value) VALUES ('after', 'written')").execute(&pool).await.unwrap();
    let keys: Vec<(String,)> = sqlx::query_as("SELECT key FROM server_settings WHERE key IN ('probe', 'after')")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(keys, [("after".to_string(),)], "the open transaction's write was never committed");
}

/// A request whose client goes away drops what it awaits, a transaction's begin too. Dropped at
/// any point, a begin leaves no transaction open on the pool's connection (sqlx 0.8 would have
/// left one there, holding SQLite's write lock, when dropped just after the database began it).
#[tokio::test]
async fn a_begin_dropped_at_any_point_leaves_no_transaction_open() {
    let dir = tempfile::tempdir().unwrap();
    let url = palaver_core::db::scratch_url(dir.path()).await.unwrap();
    palaver_core::db::connect(&url).await.unwrap().close().await;
    // A pool of one connection with no check of its own: the test sees what each begin left.
    let pool = sqlx::any::AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap();
    for polls in 1..=60 {
        let mut begin = Box::pin(palaver_core::db::begin(&pool));
        for _ in 0..polls {
            if futures::poll!(&mut begin).is_ready() {
                break;
            }
            tokio::task::yield_now().await;
        }
        drop(begin);
        let connection = pool.acquire().await.unwrap();
        assert!(!connection.is_in_transaction(), "left open after {polls} polls");
    }
}
