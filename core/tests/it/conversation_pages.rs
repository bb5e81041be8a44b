//! The conversation list a page at a time: an owner with 5,000 conversations (written straight
//! into the database, many last active at the same moment) reads every one exactly once, in
//! order, through the pages; a search pages the same way (on SQLite and on PostgreSQL alike).

use std::collections::HashSet;

use serde_json::json;

use crate::common::{Harness, harness};
use palaver_core::conversation::pages::store::page_of_histories;
use palaver_core::db::Backend;
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::conversation::page::{PageCursor, PageRequest};

const CONVERSATIONS: usize = 5_000;
/// Rows written by one INSERT.
const BATCH: usize = 500;

/// The conversation `n` of the seed: its id, and when it was last active (seven share each
/// moment, so the order's ties are broken by id).
fn seeded(n: usize) -> (String, String) {
    let seconds = n / 7;
    (
        format!("seeded{:05}", (n * 7919) % 100_000),
        format!("2026-01-01T{:02}:{:02}:{:02}.000Z", seconds / 3600, seconds / 60 % 60, seconds % 60),
    )
}

/// Writes the owner's 5,000 conversations, and a user message in every tenth ("Harbour
/// cruise n"), a few hundred rows an INSERT; another owner's conversation and a deleted one
/// that no page may show.
async fn seed(h: &Harness) {
    let json = Backend::of(&h.pool).json("$5");
    for first in (0..CONVERSATIONS).step_by(BATCH) {
        let batch = first..(first + BATCH).min(CONVERSATIONS);
        let values: Vec<String> = batch
            .clone()
            .map(|n| {
                format!("(${}, $1, ${}, ${})", 3 * n - 3 * first + 2, 3 * n - 3 * first + 3, 3 * n - 3 * first + 4)
            })
            .collect();
        let sql = format!("INSERT INTO histories (id, owner_id, created_at, updated_at) VALUES {}", values.join(", "));
        let mut insert = sqlx::query(&sql).bind(&h.caller.user.id);
        for n in batch {
            let (id, updated) = seeded(n);
            insert = insert.bind(id).bind(updated.clone()).bind(updated);
        }
        insert.execute(&h.pool).await.unwrap();
    }
    let mentioned: Vec<usize> = (0..CONVERSATIONS).step_by(10).collect();
    for chunk in mentioned.chunks(BATCH) {
        let values: Vec<String> = (0..chunk.len())
            .map(|at| format!("(${}, 0, 't', 'user', {})", 2 * at + 1, json.replace("$5", &format!("${}", 2 * at + 2))))
            .collect();
        let sql = format!(
            "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload) VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for n in chunk {
            insert = insert
                .bind(seeded(*n).0)
                .bind(json!({"type": "user", "text": format!("Harbour cruise {n}")}).to_string());
        }
        insert.execute(&h.pool).await.unwrap();
    }
    let other = palaver_core::accounts::service::create_account(
        &h.pool,
        "bob",
        "correct horse battery",
        palaver_wire::accounts::Role::User,
    )
    .await
    .unwrap();
    sqlx::query("INSERT INTO histories (id, owner_id, updated_at) VALUES ('bobs', $1, '2027-01-01T00:00:00.000Z')")
        .bind(&other.id)
        .execute(&h.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO histories (id, owner_id, updated_at, deleted_at) VALUES ('gone', $1, '2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z')",
    )
    .bind(&h.caller.user.id)
    .execute(&h.pool)
    .await
    .unwrap();
}

/// Reads pages of `limit` until one says no more follow; the ids in the order read.
async fn read_all(h: &Harness, search: Option<&str>, limit: u32) -> Vec<HistorySummary> {
    let mut read: Vec<HistorySummary> = Vec::new();
    loop {
        let before = read.last().map(PageCursor::after);
        let mut page =
            page_of_histories(&h.pool, &h.caller.user.id, false, search, &PageRequest { limit, before }).await.unwrap();
        let more = page.len() > limit as usize;
        page.truncate(limit as usize);
        assert!(!page.is_empty() || read.is_empty() || !more, "an empty page says more follow");
        read.extend(page);
        if !more {
            return read;
        }
    }
}

/// The seed's conversations (those with `n` kept), most recently active first, ties by id.
fn expected(kept: impl Fn(usize) -> bool) -> Vec<String> {
    let mut all: Vec<(String, String)> = (0..CONVERSATIONS).filter(|n| kept(*n)).map(seeded).collect();
    all.sort_by(|(a_id, a_at), (b_id, b_at)| b_at.cmp(a_at).then(b_id.cmp(a_id)));
    all.into_iter().map(|(id, _)| id).collect()
}

#[tokio::test]
async fn five_thousand_conversations_each_come_exactly_once_through_the_pages_in_order() {
    let h = harness(json!([])).await;
    seed(&h).await;
    let started = std::time::Instant::now();
    let read: Vec<String> = read_all(&h, None, 200).await.into_iter().map(|entry| entry.id).collect();
    assert_eq!(read.len(), CONVERSATIONS, "every conversation, none twice, no one else's");
    assert_eq!(read.iter().collect::<HashSet<_>>().len(), CONVERSATIONS);
    assert_eq!(read, expected(|_| true));
    let by_default: Vec<String> = read_all(&h, None, 50).await.into_iter().map(|entry| entry.id).collect();
    assert_eq!(by_default, read, "pages of 50 read the same list");
    eprintln!("read 5,000 conversations twice through the pages in {:?}", started.elapsed());
}

#[tokio::test]
async fn a_search_pages_the_same_way_and_marks_each_match() {
    let h = harness(json!([])).await;
    seed(&h).await;
    let found = read_all(&h, Some("HARBOUR cruise"), 50).await;
    assert_eq!(found.iter().map(|entry| entry.id.clone()).collect::<Vec<_>>(), expected(|n| n % 10 == 0));
    let snippet = found[0].snippet.as_ref().expect("a snippet");
    assert_eq!(snippet.matched, "Harbour cruise");
    let exact = read_all(&h, Some("cruise 4990"), 50).await;
    assert_eq!(exact.iter().map(|entry| entry.id.clone()).collect::<Vec<_>>(), [seeded(4990).0]);
    let short = read_all(&h, Some("e 499"), 50).await;
    assert_eq!(short.len(), 1, "a substring across words");
    let two_letters = read_all(&h, Some("9 "), 200).await;
    assert!(two_letters.is_empty(), "no message has a 9 before a space");
    let too_short_for_trigrams = read_all(&h, Some("0"), 200).await;
    assert_eq!(too_short_for_trigrams.len(), 500, "a search shorter than three letters still finds its messages");
}

#[tokio::test]
async fn the_search_index_follows_every_write_of_the_rows() {
    let h = harness(json!([{"text": "Boats leave from the north pier."}])).await;
    let (ferry, _) = h.prompt(None, "Ferry timetable please").await;
    assert_eq!(found(&h, "north pier").await, std::slice::from_ref(&ferry));

    let changed = json!({"type": "assistant", "text": "Boats leave from the south quay."}).to_string();
    let json = Backend::of(&h.pool).json("$1");
    sqlx::query(&format!("UPDATE history_rows SET payload = {json} WHERE history_id = $2 AND row_type = 'assistant'"))
        .bind(changed)
        .bind(&ferry)
        .execute(&h.pool)
        .await
        .unwrap();
    assert!(found(&h, "north pier").await.is_empty(), "the old text is out of the index");
    assert_eq!(found(&h, "SOUTH QUAY").await, std::slice::from_ref(&ferry));

    sqlx::query("DELETE FROM history_rows WHERE history_id = $1").bind(&ferry).execute(&h.pool).await.unwrap();
    assert!(found(&h, "south quay").await.is_empty(), "a removed row is out of the index");
}

/// The ids of the first page of the owner's conversations that hold `needle`.
async fn found(h: &Harness, needle: &str) -> Vec<String> {
    let page = page_of_histories(&h.pool, &h.caller.user.id, false, Some(needle), &PageRequest::first()).await.unwrap();
    page.into_iter().map(|entry| entry.id).collect()
}
