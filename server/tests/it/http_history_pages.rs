//! `GET /gpt/histories` a page at a time: an owner with 5,000 conversations (written straight
//! into the database) reads every one exactly once, in order, as whole documents, following
//! `nextBefore`; a page holds 50 unless `limit` says otherwise; a search pages the same way; a
//! limit out of range or a cursor the server did not give is a 400 that says what to send.

use std::collections::HashSet;

use crate::common::{TestApp, TestUser};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

const CONVERSATIONS: usize = 5_000;
/// Rows written by one INSERT.
const BATCH: usize = 500;

/// Ada's 5,000 conversations, three sharing each moment of last activity (so the order's
/// ties are broken by id), every hundredth titled "Lighthouse n". Returns the ids most recently
/// active first.
async fn seed(app: &TestApp, ada: &TestUser) -> Vec<String> {
    let mut seeded: Vec<(String, String)> = (0..CONVERSATIONS)
        .map(|n| {
            (
                format!("c{:05}", (n * 7919) % 100_000),
                format!("2026-02-01T00:{:02}:{:02}.000Z", n / 3 / 60 % 60, n / 3 % 60),
            )
        })
        .collect();
    for (at, batch) in seeded.chunks(BATCH).enumerate() {
        let values: Vec<String> =
            (0..batch.len()).map(|row| format!("(${}, $1, ${}, ${})", 3 * row + 2, 3 * row + 3, 3 * row + 4)).collect();
        let sql = format!("INSERT INTO histories (id, owner_id, title, updated_at) VALUES {}", values.join(", "));
        let mut insert = sqlx::query(&sql).bind(&ada.id);
        for (row, (id, updated)) in batch.iter().enumerate() {
            let n = at * BATCH + row;
            insert = insert.bind(id).bind(n.is_multiple_of(100).then(|| format!("Lighthouse {n}"))).bind(updated);
        }
        insert.execute(&app.pool).await.unwrap();
    }
    seeded.sort_by(|(a_id, a_at), (b_id, b_at)| b_at.cmp(a_at).then(b_id.cmp(a_id)));
    seeded.into_iter().map(|(id, _)| id).collect()
}

/// Follows `nextBefore` from `first` until a page says no more follow; the documents read.
async fn read_all(app: &TestApp, ada: &TestUser, first: &str) -> Vec<Value> {
    let mut read = Vec::new();
    let mut uri = first.to_string();
    loop {
        let (status, page) = app.json(ada, "GET", &uri, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        read.extend(page["data"].as_array().unwrap().iter().cloned());
        if page["more"] != json!(true) {
            assert!(page.get("nextBefore").is_none(), "{page}");
            return read;
        }
        let separator = if first.contains('?') { '&' } else { '?' };
        uri = format!("{first}{separator}before={}", page["nextBefore"].as_str().unwrap());
    }
}

fn ids(documents: &[Value]) -> Vec<String> {
    documents.iter().map(|document| document["id"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn five_thousand_conversations_come_whole_exactly_once_through_the_pages() {
    let app = TestApp::with_mock(&json!({"responses": [{"text": "Noted."}]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    let seeded = seed(&app, &ada).await;
    // And one with a real turn, the most recently active.
    let events = app.prompt(&ada, json!({"prompt": "A real one"})).await;
    let real = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let expected: Vec<String> = std::iter::once(real).chain(seeded).collect();

    let (_, first) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(first["data"].as_array().unwrap().len(), 50, "a page holds 50 by default");
    assert_eq!(first["more"], true);
    let real = &first["data"][0];
    assert_eq!(real["prompts"].as_array().unwrap().len(), 2, "each document whole: {real}");
    assert_eq!(real["prompts"][1]["text"], "Noted.");

    let read = read_all(&app, &ada, "/gpt/histories?limit=200").await;
    assert_eq!(read.len(), CONVERSATIONS + 1);
    assert_eq!(ids(&read).iter().collect::<HashSet<_>>().len(), CONVERSATIONS + 1, "none twice");
    assert_eq!(ids(&read), expected, "most recently active first, ties by id");
    let (_, theirs) = app.json(&bob, "GET", "/gpt/histories", None).await;
    assert_eq!((&theirs["data"], &theirs["more"]), (&json!([]), &json!(false)), "no one else's");

    let found = read_all(&app, &ada, "/gpt/histories?q=lighthouse&limit=7").await;
    let titled: Vec<String> = read
        .iter()
        .filter(|document| document["title"].as_str().is_some_and(|title| title.starts_with("Lighthouse")))
        .map(|document| document["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(titled.len(), 50);
    assert_eq!(ids(&found), titled, "a search pages the same way");

    let chat = app.server_fn(Some(&ada), "/api/list_histories", "limit=3").await.json();
    let entries: Vec<&str> = chat.as_array().unwrap().iter().map(|entry| entry["id"].as_str().unwrap()).collect();
    assert_eq!(entries, expected[..3].iter().map(String::as_str).collect::<Vec<_>>(), "the chat's list pages too");
}

#[tokio::test]
async fn a_limit_out_of_range_or_a_cursor_not_given_is_refused_with_what_to_send() {
    let app = TestApp::with_mock(&json!({"responses": [{"text": "Noted."}]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    for (uri, said) in [
        ("/gpt/histories?limit=201", "send a number from 1 to 200"),
        ("/gpt/histories?limit=0", "send a number from 1 to 200"),
        ("/gpt/histories?before=nonsense", "pass nextBefore as it came"),
        ("/gpt/histories?limit=many", "limit=<1 to 200>"),
    ] {
        let reply = app.call(Some(&ada), "GET", uri, None).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{uri}: {}", reply.text);
        assert!(reply.text.contains(said), "{uri}: {}", reply.text);
    }
    let refused = app.server_fn(Some(&ada), "/api/list_histories", "limit=500").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
}

/// Counts the SQL statements sqlx runs inside a span named `counted` (on PostgreSQL a
/// statement is logged by the task that sends it; SQLite's run on their connection's own thread,
/// out of the span's sight). Background tasks run outside it, so they are not counted.
struct StatementCount(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl<S> tracing_subscriber::Layer<S> for StatementCount
where
    S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
{
    fn on_event(&self, event: &tracing::Event<'_>, context: tracing_subscriber::layer::Context<'_, S>) {
        let counted = context.event_span(event).is_some_and(|span| span.scope().any(|span| span.name() == "counted"));
        if !counted || event.metadata().target() != "sqlx::query" {
            return;
        }
        let mut statement = Summary(String::new());
        event.record(&mut statement);
        // A connection the pool opens meanwhile sets its session up first: not the page's work.
        if !statement.0.trim_start_matches('"').starts_with("SET ") {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A logged statement's summary (its first words).
struct Summary(String);

impl tracing::field::Visit for Summary {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "summary" {
            self.0 = format!("{value:?}");
        }
    }
}

/// How many statements one `GET` of `uri` runs.
async fn statements_of(app: &TestApp, ada: &TestUser, uri: &str) -> usize {
    use tracing::Instrument;
    use tracing_subscriber::layer::SubscriberExt;
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let subscriber = tracing_subscriber::registry().with(StatementCount(count.clone()));
    let guard = tracing::subscriber::set_default(subscriber);
    let (status, page) = app.json(ada, "GET", uri, None).instrument(tracing::info_span!("counted")).await;
    drop(guard);
    assert_eq!(status, StatusCode::OK, "{page}");
    count.load(std::sync::atomic::Ordering::Relaxed)
}

#[tokio::test]
async fn a_page_runs_the_same_few_statements_however_many_conversations_it_holds() {
    if std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default().is_empty() {
        eprintln!("skipped: statements are counted on PostgreSQL (PALAVER_TEST_POSTGRES_URL)");
        return;
    }
    let app = TestApp::with_mock(&json!({"responses": [{"text": "Noted."}]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    seed(&app, &ada).await;
    // Warm: the caller's token is read and its last use written once a minute at most.
    statements_of(&app, &ada, "/gpt/histories?limit=1").await;
    let small = statements_of(&app, &ada, "/gpt/histories?limit=5").await;
    let large = statements_of(&app, &ada, "/gpt/histories?limit=200").await;
    let searched = statements_of(&app, &ada, "/gpt/histories?limit=200&q=lighthouse").await;
    assert!(small > 0, "the counter sees the statements");
    assert_eq!((large, searched), (small, small), "a page of 200 runs what a page of 5 does");
    assert!(small <= 8, "the caller's check and six for the page, not {small}");
}
