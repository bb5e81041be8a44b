//! The ask ledger on the runner alone: asks that expire (a typed, stored ending, once, even
//! with answers racing it; never a default), the sweeper that ends them across restarts, the
//! audit trail's surfaces, approval grants, and approved calls that run at most once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness, harness_using, harness_with};
use palaver_contract::asks::AskSurface;
use palaver_core::error::AppError;
use palaver_core::turn::tools::{HostTool, ToolContext, ToolRun};
use palaver_core::turn::{TurnDependencies, TurnInput, TurnRequest, TurnSettings};
use palaver_wire::conversation::model::{AskStatus, HistoryRow, TurnEvent};
use palaver_wire::grants::{AllowedBy, GrantScope};

fn choice(id: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

fn short_lived(ask_seconds: u64, approval_seconds: u64) -> TurnSettings {
    TurnSettings {
        ask_ttl: Duration::from_secs(ask_seconds),
        approval_ttl: Duration::from_secs(approval_seconds),
        ..TurnSettings::default()
    }
}

fn the_ask(rows: &[HistoryRow], tool_call_id: &str) -> (AskStatus, Option<String>) {
    rows.iter()
        .find_map(|row| match row {
            HistoryRow::ToolCall { tool_call_id: id, ask: Some(ask), .. } if id == tool_call_id => {
                Some((ask.status, ask.expired_at.clone()))
            }
            _ => None,
        })
        .expect("the ask's row")
}

fn results_of<'a>(rows: &'a [HistoryRow], tool_call_id: &str) -> Vec<&'a Value> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::ToolResult { tool_call_id: id, result, .. } if id == tool_call_id => Some(result),
            _ => None,
        })
        .collect()
}

fn expires_at(events: &[TurnEvent]) -> String {
    events
        .iter()
        .find_map(|event| match event {
            TurnEvent::Ask { ask, .. } => ask.expires_at.clone(),
            _ => None,
        })
        .expect("the {ask} event carries expiresAt")
}

#[tokio::test]
async fn an_ask_nobody_answers_expires_once_and_the_model_hears_of_it_next_turn() {
    let h = harness_with(json!([choice("call_plan"), {"text": "Noted."}]), short_lived(1, 1)).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    let deadline = expires_at(&events);
    let pending = palaver_core::turn::store::pending_ask(&h.pool, &history).await.unwrap().expect("pending");
    assert_eq!(pending.ask.expires_at.as_deref(), Some(deadline.as_str()), "stored as sent");
    assert!(deadline > pending.created, "{deadline} after {}", pending.created);
    assert_eq!(h.runner.expire_due().await.unwrap(), 0, "not due yet");

    tokio::time::sleep(Duration::from_millis(1100)).await;
    // No sweep has run: the answer itself finds the ask due, ends it, and is refused.
    let late = h.try_answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["team"]}})).await;
    match late {
        Err(AppError::ExpiredAsk { tool_call_id, expires_at }) => {
            assert_eq!((tool_call_id.as_str(), expires_at.as_str()), (ask_id.as_str(), deadline.as_str()));
        }
        other => panic!("an answer after the deadline is refused as expired, not {other:?}"),
    }
    assert_eq!(h.pending(&history).await, None);
    let rows = h.rows(&history).await;
    let (status, expired_at) = the_ask(&rows, &ask_id);
    assert_eq!(status, AskStatus::Expired);
    assert!(expired_at.is_some_and(|at| at >= deadline));
    assert_eq!(results_of(&rows, &ask_id), [&json!({"action": "cancel", "reason": "expired"})]);
    assert_eq!(h.runner.expire_due().await.unwrap(), 0, "an ask ends once");
    let again = h.try_answer(&history, &ask_id, json!({"action": "decline"})).await;
    assert!(matches!(again, Err(AppError::ExpiredAsk { .. })), "still refused as expired: {again:?}");

    h.prompt(Some(&history), "Are you still there?").await;
    let told = h.model_requests().last().expect("the next turn's request").to_string();
    assert!(told.contains("did not answer in time"), "the model hears of the expiry: {told}");

    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    assert_eq!(trail.len(), 1, "one ending, one entry: {trail:?}");
    assert_eq!((trail[0].decision.as_str(), trail[0].surface.as_str()), ("expired", "palaver"));
    assert_eq!((trail[0].actor.as_deref(), trail[0].owner.as_str()), (None, "ada"));
}

#[tokio::test]
async fn each_decision_names_the_surface_it_came_from() {
    let h = harness_with(
        json!([choice("call_web"), {"text": "One."}, choice("call_watch"), {"text": "Two."}]),
        short_lived(60, 60),
    )
    .await;
    let (history, events) = h.prompt(None, "First").await;
    let on_web = asked(&events).expect("an ask");
    h.try_answer(&history, &on_web, json!({"action": "decline"})).await.unwrap();
    let (_, events) = h.prompt(Some(&history), "Second").await;
    let on_watch = asked(&events).expect("an ask");
    let input = TurnInput::Answer { tool_call_id: on_watch.clone(), response: json!({"action": "decline"}) };
    let request = TurnRequest { surface: AskSurface::Compact, ..h.request(Some(&history), input) };
    let mut handle = h.runner.start(request).await.unwrap();
    while handle.events.recv().await.is_some() {}
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    let surfaces: Vec<(&str, &str)> = trail.iter().map(|e| (e.tool_call_id.as_str(), e.surface.as_str())).collect();
    assert_eq!(surfaces, [(on_watch.as_str(), "watch"), (on_web.as_str(), "web")]);
    assert!(trail.iter().all(|entry| entry.actor.as_deref() == Some("ada") && entry.decision == "decline"));
}

#[tokio::test]
async fn an_expired_approval_never_runs_its_tool() {
    let add = json!({"toolCalls": [{"id": "call_add", "name": "deleteCompletedTodos", "input": {}}]});
    let h = harness_with(json!([add, {"text": "Deleted."}]), short_lived(3600, 1)).await;
    h.seed_completed_todo("done already").await;
    let (history, events) = h.prompt(None, "Clean up my todos").await;
    let approval = asked(&events).expect("an approval");
    assert!(approval.starts_with("approval_") && approval != "approval_call_add", "an id of its own: {approval}");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(h.runner.expire_due().await.unwrap(), 1, "the sweep ends it");

    let approve = json!({"action": "accept", "content": {"confirmed": true}});
    let late = h.try_answer(&history, &approval, approve).await;
    assert!(matches!(late, Err(AppError::ExpiredAsk { .. })), "{late:?}");
    let rows = h.rows(&history).await;
    assert_eq!(the_ask(&rows, &approval).0, AskStatus::Expired);
    assert_eq!(results_of(&rows, "call_add"), [&json!({"approved": false, "reason": "expired"})], "never run");
    assert_eq!(h.model_requests().len(), 1, "no continuation ran the tool");
}

#[tokio::test]
async fn answers_racing_the_expiry_resolve_each_ask_exactly_once() {
    let mut outcomes = (0, 0);
    for round in 0..8_u64 {
        let h = harness_with(json!([choice("call_plan"), {"text": "Team it is."}]), short_lived(1, 1)).await;
        let (history, events) = h.prompt(None, "Set up billing").await;
        let ask_id = asked(&events).expect("an ask");
        // Around the deadline, a little earlier or later each round.
        tokio::time::sleep(Duration::from_millis(960 + round * 10)).await;
        let team = json!({"action": "accept", "content": {"selected": ["team"]}});
        let answers: Vec<_> = (0..6).map(|_| h.try_answer(&history, &ask_id, team.clone())).collect();
        let sweeps: Vec<_> = (0..6).map(|_| h.runner.expire_due()).collect();
        let (answers, sweeps) = tokio::join!(futures::future::join_all(answers), futures::future::join_all(sweeps));
        let accepted = answers.iter().filter(|answer| answer.is_ok()).count();
        let expired: usize = sweeps.into_iter().map(|swept| swept.expect("a sweep")).sum();
        let rows = h.rows(&history).await;
        let (status, _) = the_ask(&rows, &ask_id);
        assert_eq!(results_of(&rows, &ask_id).len(), 1, "one ending is stored: {rows:?}");
        match status {
            AskStatus::Answered => {
                assert_eq!((accepted, expired), (1, 0), "one answer won");
                outcomes.0 += 1;
            }
            AskStatus::Expired => {
                assert_eq!(accepted, 0, "no answer after the expiry");
                outcomes.1 += 1;
            }
            other => panic!("the ask ended {other:?}"),
        }
        for refused in answers.iter().filter_map(|answer| answer.as_ref().err()) {
            assert_eq!(refused.status_code(), 409, "{refused:?}");
        }
    }
    println!("answered {} times, expired {} times", outcomes.0, outcomes.1);
}

#[tokio::test]
async fn the_sweeper_ends_due_asks_across_a_restart_and_dates_old_ones() {
    let h = harness_with(json!([choice("call_a"), choice("call_b")]), short_lived(1, 1)).await;
    let (first, events) = h.prompt(None, "One").await;
    let first_ask = asked(&events).expect("an ask");
    let (second, _) = h.prompt(None, "Two").await;
    // An ask stored before asks expired has no expiresAt.
    let without_expiry = match palaver_core::db::Backend::of(&h.pool) {
        palaver_core::db::Backend::Sqlite => "json_remove(pending_ask, '$.expiresAt')",
        palaver_core::db::Backend::Postgres => "pending_ask - 'expiresAt'",
    };
    sqlx::query(&format!("UPDATE histories SET pending_ask = {without_expiry} WHERE id = $1"))
        .bind(&second)
        .execute(&h.pool)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;

    // "Restarted": another runner on the same database, with a long ask life.
    let model = palaver_core::llm::MockModel::from_json(r#"{"responses": []}"#, None).unwrap();
    let restarted = palaver_core::turn::TurnRunner::new(
        h.pool.clone(),
        palaver_core::llm::Models::single(std::sync::Arc::new(model)),
        short_lived(3600, 3600),
        TurnDependencies::default(),
        palaver_core::conversation::running::RunningTurns::new(
            h.pool.clone(),
            palaver_core::signals::Signals::local(),
            palaver_core::conversation::running::DEFAULT_LEASE,
        ),
    );
    let sweeper = restarted.spawn_sweeper();
    let mut waited = 0;
    while h.pending(&first).await.is_some() && waited < 50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    sweeper.abort();
    assert_eq!(h.pending(&first).await, None, "the due ask ended at start");
    assert_eq!(the_ask(&h.rows(&first).await, &first_ask).0, AskStatus::Expired);
    let dated = palaver_core::turn::store::pending_ask(&h.pool, &second).await.unwrap().expect("still pending");
    let expires_at = dated.ask.expires_at.expect("dated at start");
    assert!(expires_at > dated.created, "an hour after it was asked: {expires_at}");
}

/// A tool whose every call needs approval but which is not destructive (a grant can cover it),
/// counting its runs.
struct Publish {
    runs: Arc<AtomicUsize>,
    every_call: bool,
}

impl HostTool for Publish {
    fn name(&self) -> &str {
        "publishNote"
    }
    fn description(&self) -> &str {
        "Publish a note."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"text": {"type": "string"}}})
    }
    fn approval(&self, input: &Value) -> Option<Value> {
        Some(
            json!({"prompt": format!("Publish \"{}\"?", input["text"].as_str().unwrap_or_default()), "confirmLabel": "Publish"}),
        )
    }
    fn grantable(&self) -> bool {
        !self.every_call
    }
    fn execute(&self, _context: ToolContext, input: Value) -> ToolRun {
        let runs = self.runs.clone();
        Box::pin(async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"published": input["text"]}).into())
        })
    }
}

fn publish(id: &str, text: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "publishNote", "input": {"text": text}}]})
}

async fn with_publish(responses: Value, every_call: bool) -> (Harness, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut dependencies = TurnDependencies::default();
    dependencies.tools.insert(Arc::new(Publish { runs: runs.clone(), every_call })).expect("a free tool name");
    (harness_using(responses, dependencies).await, runs)
}

fn approve(grant: Option<&str>) -> Value {
    let mut answer = json!({"action": "accept", "content": {"confirmed": true}});
    if let Some(grant) = grant {
        answer["grant"] = json!(grant);
    }
    answer
}

fn allowed_by(rows: &[HistoryRow], call: &str) -> Option<GrantScope> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolCall { tool_call_id, allowed_by: Some(AllowedBy::Scope(scope)), .. }
            if tool_call_id == call =>
        {
            Some(*scope)
        }
        _ => None,
    })
}

#[tokio::test]
async fn a_grant_lets_later_calls_run_without_a_card_until_it_is_revoked() {
    let (h, runs) = with_publish(
        json!([
            publish("c1", "one"), {"text": "Published."},
            publish("c2", "two"), {"text": "Published again."},
            publish("c3", "three"),
            publish("c4", "four"), {"text": "Asked again."}
        ]),
        false,
    )
    .await;
    let (history, events) = h.prompt(None, "Publish one").await;
    assert!(events.iter().any(|e| matches!(e, TurnEvent::Ask { ask, .. } if ask.grantable)), "offered");
    h.try_answer(&history, &asked(&events).unwrap(), approve(Some("conversation"))).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    let (_, events) = h.prompt(Some(&history), "Publish two").await;
    assert_eq!(asked(&events), None, "the grant covers it: no card");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(allowed_by(&h.rows(&history).await, "c2"), Some(GrantScope::Conversation));

    // Another conversation: the conversation grant does not reach it.
    let (_, events) = h.prompt(None, "Publish three").await;
    assert!(asked(&events).is_some_and(|id| id.starts_with("approval_")), "asked");
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    let grants = palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap();
    assert_eq!(grants.len(), 1);
    assert_eq!(
        (grants[0].tool_name.as_str(), grants[0].history_id.as_deref()),
        ("publishNote", Some(history.as_str()))
    );
    assert!(palaver_core::grants::store::revoke(&h.pool, &h.caller.user.id, &grants[0].id).await.unwrap());
    assert!(!palaver_core::grants::store::revoke(&h.pool, &h.caller.user.id, &grants[0].id).await.unwrap(), "once");
    let (_, events) = h.prompt(Some(&history), "Publish four").await;
    assert!(asked(&events).is_some(), "revoked: the next call asks again");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    assert_eq!(trail.last().unwrap().scope.as_deref(), Some("conversation"), "the audit names the grant");
    // The call the grant ran without a card is on the record too, once, with its arguments' digest.
    let granted: Vec<_> = trail.iter().filter(|entry| entry.decision == palaver_wire::audit::GRANTED).collect();
    assert_eq!(granted.len(), 1, "{trail:?}");
    assert_eq!(
        (granted[0].tool_name.as_deref(), granted[0].scope.as_deref(), granted[0].actor.as_deref()),
        (Some("publishNote"), Some("conversation"), Some("ada"))
    );
    let approved_first =
        trail.iter().find(|entry| entry.decision == "accept").and_then(|entry| entry.args_digest.clone());
    let digest = granted[0].args_digest.clone().unwrap_or_default();
    assert!(digest.len() == 64 && Some(&digest) != approved_first.as_ref(), "the second call's own arguments");
}

#[tokio::test]
async fn an_always_grant_reaches_every_conversation() {
    let (h, runs) =
        with_publish(json!([publish("c1", "one"), {"text": "Done."}, publish("c2", "two"), {"text": "Done."}]), false)
            .await;
    let (history, events) = h.prompt(None, "Publish one").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve(Some("always"))).await.unwrap();
    let (other, events) = h.prompt(None, "Publish two elsewhere").await;
    assert_eq!(asked(&events), None);
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert_eq!(allowed_by(&h.rows(&other).await, "c2"), Some(GrantScope::Always));
}

#[tokio::test]
async fn a_call_with_a_key_its_schema_does_not_name_is_flagged_offered_no_grant_and_not_run_under_one() {
    // publishNote's schema is open: it takes other keys, so the call is asked, not refused.
    let with_extra = json!({"toolCalls": [{"id": "c2", "name": "publishNote",
        "input": {"audience": "everyone", "text": "two"}}]});
    let (h, runs) =
        with_publish(json!([publish("c1", "one"), {"text": "Done."}, with_extra, {"text": "Asked."}]), false).await;
    let (history, events) = h.prompt(None, "Publish one").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve(Some("always"))).await.unwrap();

    let (_, events) = h.prompt(Some(&history), "Publish two, to everyone").await;
    let ask = events
        .iter()
        .find_map(|event| match event {
            TurnEvent::Ask { ask, .. } => Some(ask.clone()),
            _ => None,
        })
        .expect("the always grant does not cover a call with a key outside the schema");
    assert!(!ask.grantable, "no grant is offered for it");
    let shown: Vec<(String, bool)> =
        ask.arguments.unwrap().into_iter().map(|argument| (argument.key, argument.outside_schema)).collect();
    assert_eq!(shown, [("text".to_string(), false), ("audience".to_string(), true)], "the schema's key first");
    assert_eq!(runs.load(Ordering::SeqCst), 1, "nothing ran under the grant");
    let refused = h.try_answer(&history, &ask.tool_call_id, approve(Some("always"))).await;
    assert!(refused.is_err(), "a grant answer is refused: {refused:?}");
}

#[tokio::test]
async fn a_grant_is_refused_where_it_is_not_offered_and_the_answer_changes_nothing() {
    let (h, runs) = with_publish(json!([publish("c1", "one")]), true).await;
    let (history, events) = h.prompt(None, "Publish one").await;
    assert!(events.iter().any(|e| matches!(e, TurnEvent::Ask { ask, .. } if !ask.grantable)), "not offered");
    let approval = asked(&events).unwrap();
    let refused = h.try_answer(&history, &approval, approve(Some("always"))).await;
    let Err(AppError::InvalidAnswer { fields }) = refused else { panic!("refused with a field error: {refused:?}") };
    assert_eq!((fields[0].path.as_str(), fields[0].code.as_str()), ("grant", "GRANT_NOT_OFFERED"));
    assert_eq!(h.pending(&history).await, Some(approval), "still pending");

    // A denial never carries one; nor does a destructive approval (the demo's) offer one.
    let delete = json!({"toolCalls": [{"id": "c3", "name": "deleteCompletedTodos", "input": {}}]});
    let (h, _) = with_publish(json!([publish("c2", "two"), delete]), false).await;
    h.seed_completed_todo("done already").await;
    let (history, events) = h.prompt(None, "Publish two").await;
    let approval = asked(&events).unwrap();
    let deny = json!({"action": "accept", "content": {"confirmed": false}, "grant": "always"});
    let Err(AppError::InvalidAnswer { fields }) = h.try_answer(&history, &approval, deny).await else { panic!() };
    assert_eq!(fields[0].code, "GRANT_NEEDS_APPROVAL");
    let odd = h.try_answer(&history, &approval, approve(Some("forever"))).await;
    assert!(matches!(odd, Err(AppError::InvalidAnswer { ref fields }) if fields[0].code == "GRANT_UNKNOWN"), "{odd:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let (_, events) = h.prompt(Some(&history), "Clean up instead").await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TurnEvent::Ask { ask, .. } if ask.tool_name.as_deref() == Some("deleteCompletedTodos") && !ask.grantable))
    );
}

#[tokio::test]
async fn twelve_approvals_racing_run_the_call_once_and_a_replay_runs_nothing() {
    let (h, runs) = with_publish(json!([publish("c1", "one"), {"text": "Published."}]), false).await;
    let (history, events) = h.prompt(None, "Publish one").await;
    let approval = asked(&events).unwrap();
    let racing: Vec<_> = (0..12).map(|_| h.try_answer(&history, &approval, approve(None))).collect();
    let outcomes = futures::future::join_all(racing).await;
    assert_eq!(outcomes.iter().filter(|outcome| outcome.is_ok()).count(), 1, "{outcomes:?}");
    assert!(outcomes.iter().filter_map(|outcome| outcome.as_ref().err()).all(|err| err.status_code() == 409));
    let replay = h.try_answer(&history, &approval, approve(None)).await;
    assert_eq!(replay.map_err(|err| err.status_code()), Err(409));
    assert_eq!(runs.load(Ordering::SeqCst), 1, "the call ran exactly once");
    let recorded: (i64, String) =
        sqlx::query_as("SELECT COUNT(*), MAX(args_digest) FROM approved_runs").fetch_one(&h.pool).await.unwrap();
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    assert_eq!(recorded.0, 1);
    assert_eq!(trail[0].args_digest.as_deref(), Some(recorded.1.as_str()), "the run is the call approved");
}

#[tokio::test]
async fn the_check_before_an_approval_completes_an_empty_clean_up_and_stops_a_stale_approval() {
    let delete = |id: &str| json!({"toolCalls": [{"id": id, "name": "deleteCompletedTodos", "input": {}}]});
    let h = harness_with(
        json!([delete("c1"), {"text": "Nothing to delete."}, delete("c2"), {"text": "Stopped."}]),
        short_lived(60, 60),
    )
    .await;
    // No completed todos: the call completes at once, with nothing to approve.
    let (history, events) = h.prompt(None, "Clean up").await;
    assert_eq!(asked(&events), None, "no card");
    assert_eq!(crate::common::tool_result(&events, "c1"), Some(json!({"deleted": 0})));

    // One completed todo: the card asks; another is completed before the approval: stale.
    h.seed_completed_todo("first").await;
    let (_, events) = h.prompt(Some(&history), "Clean up again").await;
    let approval = asked(&events).expect("the card asks");
    h.seed_completed_todo("second").await;
    let input = TurnInput::Answer { tool_call_id: approval, response: approve(None) };
    let events = h.turn(Some(&history), input).await;
    let result = crate::common::tool_result(&events, "c2").expect("the call's result");
    assert_eq!((result["approved"].clone(), result["reason"].clone()), (json!(false), json!("stale_approval")));
    let left: (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM todos WHERE completed = 1").fetch_one(&h.pool).await.unwrap();
    assert_eq!(left.0, 2, "nothing was deleted");
    let told = h.model_requests().last().unwrap().to_string();
    assert!(told.contains("What was approved changed before the call ran"), "{told}");
}

fn previews(events: &[TurnEvent]) -> Vec<palaver_wire::conversation::model::AskPreviewEvent> {
    events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::AskPreview { ask_preview } => Some(ask_preview.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn an_ask_the_model_is_still_writing_is_previewed_then_made_or_withdrawn() {
    let pieces = [
        r#"{"prompt": "Which pl"#,
        r#"an?", "select": "one", "options": [{"id": "solo", "la"#,
        r#"bel": "Solo"}, {"id": "team", "label": "Team"}]}"#,
    ];
    let streamed = json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "inputParts": pieces}]});
    // An invalid ask (one option only) is withdrawn; the model is told and replies.
    let invalid = json!({"toolCalls": [{"id": "call_bad", "name": "ask_choice", "inputParts": [r#"{"prompt": "Pick", "select": "one", "#, r#""options": [{"id": "a", "label": "A"}]}"#]}]});
    let h = harness(json!([streamed, invalid, {"text": "Let me ask differently."}])).await;

    let (history, events) = h.prompt(None, "Set up billing").await;
    let shown = previews(&events);
    let ask_id = asked(&events).expect("the ask is made");
    assert!(shown.iter().all(|preview| preview.tool_call_id == ask_id), "previewed under the ask's own id");
    let prompts: Vec<Value> = shown.iter().map(|preview| preview.input.clone().unwrap()["prompt"].clone()).collect();
    assert_eq!(prompts, [json!("Which pl"), json!("Which plan?"), json!("Which plan?")], "{shown:?}");
    assert_eq!(
        shown[1].input.as_ref().unwrap()["options"],
        json!([{"id": "solo"}]),
        "the label not written yet is left out"
    );
    assert_eq!(shown[2].input.as_ref().unwrap()["options"][1]["label"], "Team");
    let first_preview = events.iter().position(|e| matches!(e, TurnEvent::AskPreview { .. })).unwrap();
    let ask = events.iter().position(|e| matches!(e, TurnEvent::Ask { .. })).unwrap();
    assert!(first_preview < ask, "the preview comes before the real card");
    assert!(shown.iter().all(|preview| !preview.withdrawn), "a made ask is replaced, not withdrawn");
    let stored = serde_json::to_string(&h.rows(&history).await).unwrap();
    assert!(!stored.contains("askPreview") && !stored.contains("Which pl\""), "nothing of a preview is stored");

    let (_, events) = h.prompt(Some(&history), "Something else").await;
    let shown = previews(&events);
    let withdrawn = shown.last().expect("a preview");
    assert!(withdrawn.withdrawn && withdrawn.tool_call_id.starts_with("ask_"), "{withdrawn:?}");
    assert!(shown.iter().all(|preview| preview.tool_call_id == withdrawn.tool_call_id), "{shown:?}");
    assert_eq!(asked(&events), None);
}
