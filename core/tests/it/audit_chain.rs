//! The audit trail as a hash chain per owner with signed heads: every ending is chained, and an
//! entry edited, deleted or moved, a chain cut short or rewritten whole, or a signature by a key
//! nobody trusts, is named by the check; erasing a deleted account's id is not tampering.

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness};
use palaver_core::audit::chain::{self, Broken, ChainedEntry, ExportLine, Verified};
use palaver_core::audit::sign_heads;
use palaver_core::audit::signing::AuditKey;
use palaver_core::audit::store::{self as audit_store, Ending};
use palaver_wire::audit::{DecidedVia, Decider};

fn choice(id: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

/// Ada's conversation with three asks declined: three entries in her chain, its head signed.
async fn three_endings_signed() -> (Harness, String, AuditKey) {
    let h = harness(
        json!([choice("c1"), {"text": "One."}, choice("c2"), {"text": "Two."}, choice("c3"), {"text": "Three."}]),
    )
    .await;
    let mut history = None;
    for prompt in ["First", "Second", "Third"] {
        let (id, events) = h.prompt(history.as_deref(), prompt).await;
        h.try_answer(&id, &asked(&events).expect("an ask"), json!({"action": "decline"})).await.unwrap();
        history = Some(id);
    }
    let key = AuditKey::load(None, h.dir.path()).unwrap();
    assert_eq!(sign_heads(&h.pool, &key).await.unwrap(), 1);
    assert_eq!(sign_heads(&h.pool, &key).await.unwrap(), 0, "a head signed where it is is not signed again");
    (h, history.unwrap(), key)
}

async fn check(h: &Harness, trusted: &[String]) -> Result<Verified, Broken> {
    let entries = audit_store::chained_entries(&h.pool, None).await.unwrap();
    let heads = audit_store::heads(&h.pool, None).await.unwrap();
    let signatures = audit_store::signatures(&h.pool, None).await.unwrap();
    chain::verify(entries, Some(&heads), &signatures, trusted)
}

async fn entry_id(h: &Harness, position: i64) -> i64 {
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM ask_audit WHERE chain_seq = $1")
        .bind(position)
        .fetch_one(&h.pool)
        .await
        .unwrap();
    id
}

async fn run(h: &Harness, statement: &str) {
    sqlx::query(statement).execute(&h.pool).await.unwrap();
}

fn broken(found: Result<Verified, Broken>) -> String {
    match found {
        Ok(verified) => panic!("the check should fail, it found {verified:?}"),
        Err(Broken(what)) => what,
    }
}

#[tokio::test]
async fn every_ending_is_chained_its_head_signed_and_an_untouched_export_verifies_offline() {
    let (h, _, key) = three_endings_signed().await;
    let trusted = [key.public_key().to_owned()];
    assert_eq!(check(&h, &trusted).await, Ok(Verified { entries: 3, chains: 1, signatures: 1, unsigned: 0 }));

    let lines: Vec<String> = audit_store::chained_entries(&h.pool, None)
        .await
        .unwrap()
        .into_iter()
        .map(|entry| ExportLine::Entry(Box::new(entry)))
        .chain(audit_store::heads(&h.pool, None).await.unwrap().into_iter().map(ExportLine::Head))
        .chain(audit_store::signatures(&h.pool, None).await.unwrap().into_iter().map(ExportLine::Signature))
        .map(|line| serde_json::to_string(&line).unwrap())
        .collect();
    let (mut entries, mut heads, mut signatures) = (Vec::new(), Vec::new(), Vec::new());
    for line in &lines {
        match serde_json::from_str(line).unwrap() {
            ExportLine::Entry(entry) => entries.push(*entry),
            ExportLine::Head(head) => heads.push(head),
            ExportLine::Signature(signed) => signatures.push(signed),
        }
    }
    let offline = chain::verify(entries, Some(&heads), &signatures, &trusted);
    assert_eq!(offline, Ok(Verified { entries: 3, chains: 1, signatures: 1, unsigned: 0 }));

    let stranger = AuditKey::load(None, tempfile::tempdir().unwrap().path()).unwrap();
    let what = broken(check(&h, &[stranger.public_key().to_owned()]).await);
    assert!(what.contains("does not trust") && what.contains(key.public_key()), "{what}");
}

#[tokio::test]
async fn an_edited_entry_is_named() {
    let (h, _, key) = three_endings_signed().await;
    run(&h, "UPDATE ask_audit SET decision = 'accept' WHERE chain_seq = 2").await;
    let what = broken(check(&h, &[key.public_key().to_owned()]).await);
    assert!(what.starts_with(&format!("Entry {} (position 2 ", entry_id(&h, 2).await)), "{what}");
    assert!(what.contains("was changed after it was written"), "{what}");
}

#[tokio::test]
async fn a_deleted_entry_is_named_by_the_one_after_it() {
    let (h, _, key) = three_endings_signed().await;
    let third = entry_id(&h, 3).await;
    run(&h, "DELETE FROM ask_audit WHERE chain_seq = 2").await;
    let what = broken(check(&h, &[key.public_key().to_owned()]).await);
    assert!(
        what.starts_with(&format!("Entry {third} is at position 3")) && what.contains("deleted or moved"),
        "{what}"
    );
}

#[tokio::test]
async fn entries_moved_out_of_their_order_are_named() {
    let (h, _, key) = three_endings_signed().await;
    let third = entry_id(&h, 3).await;
    run(&h, "UPDATE ask_audit SET chain_seq = 99 WHERE chain_seq = 2").await;
    run(&h, "UPDATE ask_audit SET chain_seq = 2 WHERE chain_seq = 3").await;
    run(&h, "UPDATE ask_audit SET chain_seq = 3 WHERE chain_seq = 99").await;
    let what = broken(check(&h, &[key.public_key().to_owned()]).await);
    assert!(what.starts_with(&format!("Entry {third} (position 2 ")) && what.contains("does not follow"), "{what}");
}

#[tokio::test]
async fn the_newest_entry_deleted_is_found_by_the_head() {
    let (h, _, key) = three_endings_signed().await;
    run(&h, "DELETE FROM ask_audit WHERE chain_seq = 3").await;
    let what = broken(check(&h, &[key.public_key().to_owned()]).await);
    assert!(what.contains("ends at position 2, but it reached position 3"), "{what}");
}

#[tokio::test]
async fn a_chain_rewritten_whole_does_not_fit_its_signature() {
    let (h, _, key) = three_endings_signed().await;
    // Someone with the database edits the second entry and re-hashes everything after it.
    let mut entries = audit_store::chained_entries(&h.pool, None).await.unwrap();
    entries[1].decision = "accept".into();
    for at in 1..entries.len() {
        entries[at].prev_hash = entries[at - 1].entry_hash.clone();
        entries[at].entry_hash = entries[at].computed_hash();
    }
    for entry in &entries[1..] {
        sqlx::query("UPDATE ask_audit SET decision = $2, prev_hash = $3, entry_hash = $4 WHERE id = $1")
            .bind(entry.id)
            .bind(&entry.decision)
            .bind(&entry.prev_hash)
            .bind(&entry.entry_hash)
            .execute(&h.pool)
            .await
            .unwrap();
    }
    let newest: &ChainedEntry = entries.last().unwrap();
    sqlx::query("UPDATE audit_heads SET hash = $1").bind(&newest.entry_hash).execute(&h.pool).await.unwrap();
    let what = broken(check(&h, &[key.public_key().to_owned()]).await);
    assert!(
        what.starts_with(&format!("Entry {} (position 3 ", newest.id)) && what.contains("not the one that was signed"),
        "{what}"
    );
}

#[tokio::test]
async fn erasing_a_deleted_accounts_id_keeps_the_chain_whole_but_naming_another_person_does_not() {
    let (h, _, key) = three_endings_signed().await;
    let trusted = [key.public_key().to_owned()];
    run(&h, "UPDATE ask_audit SET actor_id = NULL WHERE chain_seq = 1").await;
    assert!(check(&h, &trusted).await.is_ok(), "erased, as an account deletion does");
    let bob = h.another_user("bob").await;
    sqlx::query("UPDATE ask_audit SET actor_id = $1 WHERE chain_seq = 2")
        .bind(&bob.user.id)
        .execute(&h.pool)
        .await
        .unwrap();
    let what = broken(check(&h, &trusted).await);
    assert!(what.contains("names another person"), "{what}");
}

#[tokio::test]
async fn entries_written_before_the_chain_are_chained_and_appends_at_once_keep_it_whole() {
    let (h, history, key) = three_endings_signed().await;
    // An entry as the trail wrote them before the chain existed.
    sqlx::query(
        "INSERT INTO ask_audit (owner_id, actor_id, surface, history_id, tool_call_id, kind, decision)
         VALUES ($1, $1, 'web', $2, 'old_call', 'choice', 'decline')",
    )
    .bind(&h.caller.user.id)
    .bind(&history)
    .execute(&h.pool)
    .await
    .unwrap();
    assert_eq!(audit_store::unchained_count(&h.pool).await.unwrap(), 1);
    assert_eq!(audit_store::chain_unchained(&h.pool).await.unwrap(), 1);
    assert_eq!(audit_store::unchained_count(&h.pool).await.unwrap(), 0);

    // Twelve endings appended at once, each in its own transaction, as two instances would.
    let appends = (0..12).map(|n| {
        let (pool, history) = (h.pool.clone(), history.clone());
        tokio::spawn(async move {
            let mut tx = palaver_core::db::begin(&pool).await.unwrap();
            let decider = Decider::person("someone", DecidedVia::Web);
            let call = format!("racing_{n}");
            let ending = Ending {
                history_id: &history,
                tool_call_id: &call,
                kind: "confirm",
                origin: None,
                tool_name: None,
                decision: "accept",
                approved: Some(true),
                reason: None,
                scope: None,
                args_digest: None,
            };
            audit_store::record(&mut tx, &decider, &ending).await.unwrap();
            tx.commit().await.unwrap();
        })
    });
    for append in appends.collect::<Vec<_>>() {
        append.await.unwrap();
    }
    sign_heads(&h.pool, &key).await.unwrap();
    let verified = check(&h, &[key.public_key().to_owned()]).await.unwrap();
    assert_eq!((verified.entries, verified.chains, verified.unsigned), (16, 1, 0));
}
