//! Approvals an admin routed to someone other than the person who asked: the requester cannot
//! answer (nor can anyone the rule does not name), the approver can, the call runs once as the
//! requester's; under the two-person rule the same approver does not count twice and the call
//! runs after the second, distinct approval; a denial from either ends it.

use std::sync::atomic::Ordering;

use serde_json::{Value, json};

use crate::common::{Harness, asked};
use crate::grant_patterns::{with_write_file, write};
use palaver_contract::asks::AskSurface;
use palaver_core::accounts::auth::{Caller, CallerVia};
use palaver_core::error::{AppError, Error};
use palaver_core::turn::store::{pending_ask, routed_to};
use palaver_core::turn::{TurnInput, TurnRequest};
use palaver_wire::accounts::Role;
use palaver_wire::approvers::{ApprovalRoute, Approver};
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};

const APPROVE: &str = r#"{"action": "accept", "content": {"confirmed": true}}"#;

async fn admin(h: &Harness, name: &str) -> Caller {
    let user = palaver_core::accounts::service::create_account(&h.pool, name, "correct horse battery", Role::Admin)
        .await
        .unwrap();
    Caller { user, via: CallerVia::Session }
}

async fn route_write_file_to(h: &Harness, approver: Approver, approvals: u8) {
    let route = ApprovalRoute { tool: Some("write_file".into()), server: None, approver, approvals };
    h.runner.preferences().save_approval_routes(&[route]).await.unwrap();
}

/// `caller` answers the ask `ask` of `history` with `response`, and the turn it resumes runs out.
async fn answer_as(h: &Harness, caller: &Caller, history: &str, ask: &str, response: &str) -> Result<(), AppError> {
    let input =
        TurnInput::Answer { tool_call_id: ask.into(), response: serde_json::from_str::<Value>(response).unwrap() };
    let request = TurnRequest::plain(caller.clone(), Some(history.into()), input, AskSurface::Full);
    let mut handle = h.runner.start(request).await.map_err(Error::into_kind)?;
    while handle.events.recv().await.is_some() {}
    Ok(())
}

#[tokio::test]
async fn only_the_named_approver_answers_and_the_call_runs_once_as_the_requesters() {
    let (h, runs) = with_write_file(json!([write("c1", "data/a.txt"), {"text": "Written."}])).await;
    let bob = h.another_user("bob").await;
    let carol = h.another_user("carol").await;
    let bob_approves = Approver::User { id: bob.user.id.clone(), username: "bob".into() };
    route_write_file_to(&h, bob_approves, 1).await;

    let (history, events) = h.prompt(None, "Write a").await;
    let routed = events.iter().find_map(|e| match e {
        TurnEvent::Ask { ask, .. } => Some((ask.grantable, ask.routed.clone())),
        _ => None,
    });
    let (grantable, routed) = routed.expect("an approval");
    assert!(!grantable, "a routed approval offers no grant");
    assert_eq!(routed.unwrap().waiting_words(), "Waiting for bob to approve or deny.");
    let ask = asked(&events).unwrap();

    let requester = answer_as(&h, &h.caller, &history, &ask, APPROVE).await;
    assert_eq!(requester, Err(AppError::ApprovalRoutedElsewhere { approver: "bob".into() }), "not the requester");
    let declined = answer_as(&h, &h.caller, &history, &ask, r#"{"action": "decline"}"#).await;
    assert!(declined.is_err(), "not even to decline");
    let stranger = answer_as(&h, &carol, &history, &ask, APPROVE).await;
    assert_eq!(stranger, Err(AppError::ApprovalRoutedElsewhere { approver: "bob".into() }));
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    let waiting = routed_to(&h.pool, &bob.user.id, false).await.unwrap();
    assert_eq!((waiting.len(), waiting[0].requester.as_deref()), (1, Some("ada")));
    assert!(routed_to(&h.pool, &carol.user.id, true).await.unwrap().is_empty(), "not an admin's");

    answer_as(&h, &bob, &history, &ask, APPROVE).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let rows = h.rows(&history).await;
    assert!(
        matches!(rows.last(), Some(HistoryRow::Assistant { text, .. }) if text == "Written."),
        "the turn ran on in ada's conversation: {rows:?}"
    );
    let again = answer_as(&h, &bob, &history, &ask, APPROVE).await;
    assert!(matches!(again, Err(AppError::StaleAsk { .. })), "{again:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 1, "once");
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    let decided = trail.iter().find(|entry| entry.decision == "accept").unwrap();
    assert_eq!((decided.actor.as_deref(), decided.owner.as_str()), (Some("bob"), "ada"), "bob decided, for ada");
}

#[tokio::test]
async fn two_distinct_admins_approve_before_the_call_runs() {
    let (h, runs) = with_write_file(json!([write("c1", "data/a.txt"), {"text": "Written."}])).await;
    let (first, second) = (admin(&h, "root").await, admin(&h, "sudo").await);
    route_write_file_to(&h, Approver::Admins, 2).await;
    let (history, events) = h.prompt(None, "Write a").await;
    let ask = asked(&events).unwrap();

    assert_eq!(answer_as(&h, &first, &history, &ask, APPROVE).await, Err(AppError::SecondApprovalNeeded));
    assert_eq!(runs.load(Ordering::SeqCst), 0, "one approval is not enough");
    let pending = pending_ask(&h.pool, &history).await.unwrap().unwrap();
    let routed = pending.ask.routed.unwrap();
    assert_eq!(routed.first_approver.as_deref(), Some(first.user.id.as_str()));
    assert_eq!(routed.waiting_words(), "Approved by root; waiting for a second approval from an admin.");
    assert_eq!(answer_as(&h, &first, &history, &ask, APPROVE).await, Err(AppError::AlreadyApproved), "not twice");
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    answer_as(&h, &second, &history, &ask, APPROVE).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1, "after the second, once");
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    let approvals: Vec<_> =
        trail.iter().filter(|entry| entry.decision == "accept").map(|entry| entry.actor.clone().unwrap()).collect();
    assert_eq!(approvals.len(), 2, "{trail:?}");
    assert!(approvals.contains(&"root".to_string()) && approvals.contains(&"sudo".to_string()));
}

#[tokio::test]
async fn a_denial_from_an_approver_ends_it_at_once() {
    let (h, runs) = with_write_file(json!([write("c1", "data/a.txt"), {"text": "Not written."}])).await;
    let root = admin(&h, "root").await;
    route_write_file_to(&h, Approver::Admins, 2).await;
    let (history, events) = h.prompt(None, "Write a").await;
    let ask = asked(&events).unwrap();
    answer_as(&h, &root, &history, &ask, r#"{"action": "accept", "content": {"confirmed": false}}"#).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_eq!(h.pending(&history).await, None, "denied: nothing waits");
}
