//! A long conversation read a window at a time (on SQLite and on PostgreSQL alike): 1,000
//! messages written straight into the database come back newest window first, every one
//! exactly once, in order, each window beginning at a message of the person's; a read from a
//! window's last exchange brings what a turn added after it. And the block check kept with a
//! document reply: a read shows the kept check while the block settings are unchanged, and
//! checks the reply again once they change. And every row reads back exactly as written,
//! whatever its text, in the whole read and in a page of documents.

use serde_json::json;

use crate::common::{Harness, harness};
use palaver_core::conversation::{BlocksSettings, Conversations};
use palaver_core::db::Backend;
use palaver_wire::conversation::model::{HistoryRow, HistoryView};
use palaver_wire::conversation::window::{RowWindow, RowsWanted};

const MESSAGES: usize = 1_000;
/// Rows written by one INSERT.
const BATCH: usize = 250;

fn conversations(h: &Harness, blocks: Option<BlocksSettings>) -> Conversations {
    Conversations::new(
        h.pool.clone(),
        blocks,
        h.running.clone(),
        palaver_core::live::LiveHub::new(h.pool.clone(), palaver_core::signals::Signals::local()),
        h.runner.models().clone(),
    )
}

/// Writes rows `first..first + count` of conversation `id`: a message, then its reply, by turns.
async fn seed_rows(h: &Harness, id: &str, rows: std::ops::Range<usize>) {
    let json = Backend::of(&h.pool).json("$X");
    let all: Vec<usize> = rows.collect();
    for chunk in all.chunks(BATCH) {
        let values: Vec<String> = (0..chunk.len())
            .map(|at| {
                let n = 4 * at;
                format!("($1, ${}, ${}, ${}, {})", n + 2, n + 3, n + 4, json.replace("$X", &format!("${}", n + 5)))
            })
            .collect();
        let sql = format!(
            "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload) VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql).bind(id);
        for &seq in chunk {
            let (kind, payload) = if seq.is_multiple_of(2) {
                ("user", json!({"type": "user", "text": format!("Message {seq}")}))
            } else {
                ("assistant", json!({"type": "assistant", "text": format!("Reply {seq}")}))
            };
            insert = insert
                .bind(i64::try_from(seq).unwrap())
                .bind(format!("t{}", seq / 2))
                .bind(kind)
                .bind(payload.to_string());
        }
        insert.execute(&h.pool).await.unwrap();
    }
}

fn texts(view: &HistoryView) -> Vec<String> {
    view.rows
        .iter()
        .map(|row| match row {
            HistoryRow::User { text, .. } | HistoryRow::Assistant { text, .. } => text.clone(),
            other => panic!("only messages were written: {other:?}"),
        })
        .collect()
}

fn expected_text(row: usize) -> String {
    if row.is_multiple_of(2) { format!("Message {row}") } else { format!("Reply {row}") }
}

#[tokio::test]
async fn a_thousand_messages_come_newest_window_first_each_exactly_once_in_order() {
    let h = harness(json!([])).await;
    let id = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
    seed_rows(&h, &id, 0..MESSAGES).await;
    let chat = conversations(&h, None);

    let newest = chat.read_window(&h.caller, &id, RowsWanted::Newest).await.unwrap();
    let window = newest.window.expect("a window's place");
    assert!(newest.rows.len() < 60, "a window, not the whole conversation: {} rows", newest.rows.len());
    assert_eq!(window.first_row + newest.rows.len(), MESSAGES, "the newest window ends with the last row");
    assert_eq!(texts(&newest).last().map(String::as_str), Some("Reply 999"));
    assert_eq!(window.latest, 998, "a turn's read starts at the last message");

    let mut read = newest.clone();
    let mut windows = 1;
    let mut earlier = window.earlier;
    while let Some(before) = earlier {
        let page = chat.read_window(&h.caller, &id, RowsWanted::Before(before)).await.unwrap();
        let place = page.window.expect("a window's place");
        assert!(matches!(page.rows.first(), Some(HistoryRow::User { .. })), "a window begins at a message");
        assert!(matches!(&page.rows[..], [.., HistoryRow::Assistant { .. }]), "it ends where the next began");
        earlier = place.earlier;
        assert!(read.join_earlier(page), "each window ends where the one after it begins");
        windows += 1;
        assert!(windows <= MESSAGES, "the windows come to an end");
    }
    assert!(windows >= 20, "read in many windows: {windows}");
    assert_eq!(read.window.map(|window| window.first_row), Some(0));
    let all = texts(&read);
    assert_eq!(all.len(), MESSAGES, "every message once");
    assert!(all.iter().enumerate().all(|(row, text)| *text == expected_text(row)), "in order");

    // A turn adds an exchange: the read from the window's last exchange brings it, and the
    // window takes it in.
    seed_rows(&h, &id, MESSAGES..MESSAGES + 2).await;
    let later = chat.read_window(&h.caller, &id, RowsWanted::From(window.latest)).await.unwrap();
    assert_eq!(texts(&later), ["Message 998", "Reply 999", "Message 1000", "Reply 1001"]);
    assert_eq!(later.window, Some(RowWindow { first_row: 998, earlier: Some(998), latest: 1000 }));
    let mut shown = newest;
    assert!(shown.join_later(later));
    assert_eq!(shown.window.map(|window| window.first_row + shown.rows.len()), Some(MESSAGES + 2));
    assert_eq!(texts(&shown).last().map(String::as_str), Some("Reply 1001"));

    // A short conversation is one window, from its start.
    let short = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
    seed_rows(&h, &short, 0..6).await;
    let whole = chat.read_window(&h.caller, &short, RowsWanted::Newest).await.unwrap();
    assert_eq!((texts(&whole).len(), whole.window.and_then(|window| window.earlier)), (6, None));

    // Someone else's conversation is not read.
    let bob = h.another_user("bob").await;
    assert!(chat.read_window(&bob, &id, RowsWanted::Newest).await.is_err());
}

/// A document reply whose html block only a server that allows html accepts.
const HTML_DOCUMENT: &str = "v: 1\nblocks:\n  - type: heading\n    text: Invoice\n  - type: html\n    title: Invoice 1042\n    html: \"<p>Total: 10 EUR</p>\"\n";

async fn kept_check(h: &Harness, id: &str) -> (Option<String>, Option<String>) {
    sqlx::query_as("SELECT blocks_check, blocks_checked_with FROM history_rows WHERE history_id = $1 AND seq = 1")
        .bind(id)
        .fetch_one(&h.pool)
        .await
        .unwrap()
}

fn shown_check(view: &HistoryView) -> serde_json::Value {
    match view.rows.get(1) {
        Some(HistoryRow::Assistant { blocks: Some(check), .. }) => serde_json::to_value(check).unwrap(),
        other => panic!("a checked document reply: {other:?}"),
    }
}

#[tokio::test]
async fn a_read_shows_the_kept_check_until_the_block_settings_change() {
    let h = harness(json!([])).await;
    let id = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
    let json = Backend::of(&h.pool).json("$3");
    for (seq, payload) in [
        (0, json!({"type": "user", "text": "invoice preview"})),
        (1, json!({"type": "assistant", "text": HTML_DOCUMENT, "document": true})),
    ] {
        sqlx::query(&format!(
            "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload) VALUES ($1, $2, 't', '{}', {json})",
            if seq == 0 { "user" } else { "assistant" }
        ))
        .bind(&id)
        .bind(seq)
        .bind(payload.to_string())
        .execute(&h.pool)
        .await
        .unwrap();
    }
    let plain = BlocksSettings::default();
    let chat = conversations(&h, Some(plain.clone()));

    let first = chat.read(&h.caller, &id).await.unwrap();
    let checked = shown_check(&first);
    assert_eq!(checked["ok"], json!(false), "html is not allowed here: {checked}");
    let (kept, with) = kept_check(&h, &id).await;
    assert_eq!(with.as_deref(), Some(plain.fingerprint().as_str()), "the first read keeps its check");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&kept.unwrap()).unwrap(), checked);

    // The kept check is what a read shows: a check changed in the database (as no re-check
    // would make it) shows as it is, in the window's read as in the whole one.
    let marked = json!({"ok": false, "errors": [], "warnings": []});
    sqlx::query("UPDATE history_rows SET blocks_check = $2 WHERE history_id = $1 AND seq = 1")
        .bind(&id)
        .bind(marked.to_string())
        .execute(&h.pool)
        .await
        .unwrap();
    assert_eq!(shown_check(&chat.read(&h.caller, &id).await.unwrap()), marked, "not checked again");
    let window = chat.read_window(&h.caller, &id, RowsWanted::Newest).await.unwrap();
    assert_eq!(shown_check(&window), marked, "the window's read shows the kept check too");

    // The settings change (html allowed): the reply is checked again, and that check kept.
    let with_html = BlocksSettings { html: true, ..BlocksSettings::default() };
    let chat = conversations(&h, Some(with_html.clone()));
    let again = shown_check(&chat.read(&h.caller, &id).await.unwrap());
    assert_eq!(again["ok"], json!(true), "checked again with html allowed: {again}");
    let (kept, with) = kept_check(&h, &id).await;
    assert_eq!(with.as_deref(), Some(with_html.fingerprint().as_str()));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&kept.unwrap()).unwrap(), again);
    assert_eq!(shown_check(&chat.read(&h.caller, &id).await.unwrap()), again, "and shown as kept");
}

/// Text that JSON and SQL each write in their own way: quotes, backslashes, breaks, control
/// characters, letters beyond ASCII and beyond the first plane, and text that looks like JSON.
const AWKWARD: [&str; 6] = [
    "a \"quoted\" word and a back\\slash",
    "a line\nbreak, a\ttab and a\r\nreturn",
    "é ß 漢字 and 🎉",
    "controls \u{1} and \u{1f}",
    "{\"looks\": [\"like\", \"json\"]}",
    "",
];

#[tokio::test]
async fn rows_read_back_exactly_as_written_whatever_their_text_whole_and_by_page() {
    let h = harness(json!([])).await;
    let json = Backend::of(&h.pool).json("$4");
    let mut ids = Vec::new();
    for conversation in 0..2 {
        let id = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
        for (seq, text) in AWKWARD.iter().enumerate() {
            let text = format!("{conversation}: {text}");
            // The replies are documents, each with a kept check in awkward text of its own.
            let (kind, payload, check) = match seq % 2 {
                0 => ("user", json!({"type": "user", "text": text}), None),
                _ => (
                    "assistant",
                    json!({"type": "assistant", "text": text, "document": true}),
                    Some(json!({"ok": false, "note": text}).to_string()),
                ),
            };
            sqlx::query(&format!(
                "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload, rating, blocks_check,
                     blocks_checked_with)
                 VALUES ($1, $2, $3, '{kind}', {json}, $5, $6, $7)"
            ))
            .bind(&id)
            .bind(i64::try_from(seq).unwrap())
            .bind(format!("t{}", seq / 2))
            .bind(payload.to_string())
            .bind((seq == 3).then_some("up"))
            .bind(check.clone())
            .bind(check.as_ref().map(|_| "fingerprint \"é\""))
            .execute(&h.pool)
            .await
            .unwrap();
        }
        ids.push(id);
    }
    let written =
        |conversation: usize| -> Vec<String> { AWKWARD.iter().map(|text| format!("{conversation}: {text}")).collect() };
    let texts = |view: &HistoryView| -> Vec<String> {
        view.rows
            .iter()
            .map(|row| match row {
                HistoryRow::User { text, .. } | HistoryRow::Assistant { text, .. } => text.clone(),
                other => panic!("a message: {other:?}"),
            })
            .collect()
    };

    // Each reply's kept check comes with the reply's text exactly as stored, which a new check
    // is kept against (`CAST(payload AS TEXT) = …`), and with its check and fingerprint.
    let stored: Vec<(String, i64, String, Option<String>)> = sqlx::query_as(
        "SELECT history_id, seq, CAST(payload AS TEXT), blocks_check FROM history_rows
         WHERE row_type = 'assistant' ORDER BY history_id, seq",
    )
    .fetch_all(&h.pool)
    .await
    .unwrap();
    let checks_of = |read: &palaver_core::conversation::store::ReadView| -> Vec<(i64, String, Option<String>)> {
        assert!(read.checks.iter().all(|kept| kept.checked_with.as_deref() == Some("fingerprint \"é\"")));
        read.checks.iter().map(|kept| (kept.seq, kept.payload.clone(), kept.check.clone())).collect()
    };
    let stored_checks = |id: &str| -> Vec<(i64, String, Option<String>)> {
        stored.iter().filter(|row| row.0 == id).map(|row| (row.1, row.2.clone(), row.3.clone())).collect()
    };

    for (conversation, id) in ids.iter().enumerate() {
        let read = palaver_core::conversation::store::read_history(&h.pool, id).await.unwrap().unwrap();
        assert_eq!(texts(&read.view), written(conversation), "the whole read");
        assert_eq!(read.view.row_times.len(), AWKWARD.len());
        assert_eq!(read.view.ratings.keys().copied().collect::<Vec<_>>(), vec![3], "the rating stays on its row");
        assert_eq!(checks_of(&read), stored_checks(id), "the whole read's kept checks");
    }
    let page = palaver_core::conversation::pages::store::load_histories(&h.pool, &ids).await.unwrap();
    assert_eq!(page.len(), 2, "both conversations, in the order asked");
    for (conversation, read) in page.iter().enumerate() {
        assert_eq!(read.view.id, ids[conversation]);
        assert_eq!(texts(&read.view), written(conversation), "a page's documents");
        assert_eq!(checks_of(read), stored_checks(&ids[conversation]), "a page's kept checks");
    }

    // A conversation without rows reads as one: no array at all is no rows.
    let empty = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
    let read = palaver_core::conversation::store::read_history(&h.pool, &empty).await.unwrap().unwrap();
    assert!(read.view.rows.is_empty());
}
