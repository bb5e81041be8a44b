use ag_ui::outcome::{ResumeEntry, ResumeStatus};
use serde_json::{Value, json};

use palaver_wire::conversation::model::{AskEvent, AskStatus, HistoryRow, RowAsk};

use super::*;
use crate::turn::client_tools::ClientResult;

fn ask(id: &str) -> AskEvent {
    serde_json::from_value(json!({
        "toolCallId": id, "kind": "choice",
        "input": {"prompt": "Which?", "select": "one", "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]},
        "simple": {"toolCallId": id, "kind": "choice", "text": "Which?", "buttons": [], "handoff": false}
    }))
    .unwrap()
}

fn asked(id: &str, status: AskStatus) -> HistoryRow {
    HistoryRow::ToolCall {
        tool_name: "ask_choice".into(),
        tool_call_id: id.into(),
        args: json!({}),
        ask: Some(RowAsk {
            kind: palaver_contract::asks::AskKind::Choice,
            status,
            origin: None,
            expired_at: (status == AskStatus::Expired).then(|| "2026-12-01T10:00:00Z".into()),
        }),
        allowed_by: None,
        model_call_id: None,
        client_tool: false,
    }
}

fn entry(id: &str, status: ResumeStatus, payload: Option<Value>) -> ResumeEntry {
    let mut entry: ResumeEntry = serde_json::from_value(json!({"interruptId": id, "status": "resolved"})).unwrap();
    entry.status = status;
    entry.payload = payload;
    entry
}

fn code(plan: Plan) -> &'static str {
    match plan {
        Plan::Refuse(refusal) => refusal.code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_resume_of_the_open_interrupt_answers_it_and_a_cancel_is_a_skip() {
    let open = ask("c2");
    let rows = [asked("c2", AskStatus::Pending)];
    let accept = json!({"action": "accept", "content": {"picked": ["a"]}});
    assert_eq!(
        plan(Some(&open), &rows, &[entry("c2", ResumeStatus::Resolved, Some(accept.clone()))], vec![], &[]),
        Plan::Answer { tool_call_id: "c2".into(), answer: accept }
    );
    assert_eq!(
        plan(Some(&open), &rows, &[entry("c2", ResumeStatus::Cancelled, None)], vec![], &[]),
        Plan::Answer { tool_call_id: "c2".into(), answer: json!({"action": "decline"}) }
    );
}

#[test]
fn replaying_a_resume_changes_nothing_and_names_what_was_answered() {
    let rows = [asked("c1", AskStatus::Answered)];
    let resume = [entry("c1", ResumeStatus::Resolved, Some(json!({"action": "decline"})))];
    assert_eq!(plan(None, &rows, &resume, vec![], &[]), Plan::Sync { already: vec!["c1".into()] });
    // The answer started a turn that asks again: the replay still changes nothing.
    let rows = [asked("c1", AskStatus::Answered), asked("c2", AskStatus::Pending)];
    assert_eq!(plan(Some(&ask("c2")), &rows, &resume, vec![], &[]), Plan::Sync { already: vec!["c1".into()] });
}

#[test]
fn unknown_and_expired_interrupts_are_errors_but_cancelling_an_expired_one_is_not() {
    let rows = [asked("c1", AskStatus::Expired)];
    assert_eq!(
        code(plan(None, &rows, &[entry("nope", ResumeStatus::Resolved, Some(json!({})))], vec![], &[])),
        "unknown_interrupt"
    );
    assert_eq!(
        code(plan(
            None,
            &rows,
            &[entry("c1", ResumeStatus::Resolved, Some(json!({"action": "decline"})))],
            vec![],
            &[]
        )),
        "interrupt_expired"
    );
    assert_eq!(
        plan(None, &rows, &[entry("c1", ResumeStatus::Cancelled, None)], vec![], &[]),
        Plan::Sync { already: vec!["c1".into()] }
    );
}

#[test]
fn a_message_while_an_interrupt_is_open_is_an_error() {
    let open = ask("c2");
    let rows = [asked("c2", AskStatus::Pending)];
    let new = vec![("u1".to_string(), "Something else".to_string())];
    assert_eq!(code(plan(Some(&open), &rows, &[], new.clone(), &[])), "interrupt_pending");
    let resume = [entry("c2", ResumeStatus::Cancelled, None)];
    assert_eq!(code(plan(Some(&open), &rows, &resume, new.clone(), &[])), "interrupt_pending");
    assert_eq!(
        code(plan(
            Some(&open),
            &rows,
            &[entry("c2", ResumeStatus::Cancelled, None), entry("c2", ResumeStatus::Cancelled, None)],
            vec![],
            &[]
        )),
        "duplicate_resume"
    );
    assert_eq!(
        plan(None, &[], &[], new, &[]),
        Plan::Prompt { text: "Something else".into(), taken: vec!["u1".into()] }
    );
    assert_eq!(plan(Some(&open), &rows, &[], vec![], &[]), Plan::Sync { already: vec![] });
}

#[test]
fn the_apps_results_come_by_resume_or_as_tool_messages_and_answer_every_open_call() {
    let call = |id: &str| HistoryRow::ToolCall {
        tool_name: "pick_colour".into(),
        tool_call_id: id.into(),
        args: json!({}),
        ask: None,
        allowed_by: None,
        model_call_id: None,
        client_tool: true,
    };
    let rows = [call("c1"), call("c2")];
    let blue = |id: &str| ClientResult { call_id: id.into(), result: json!("blue") };
    let both = [("c1".to_string(), json!("blue")), ("c2".to_string(), json!("blue"))];
    assert_eq!(plan(None, &rows, &[], vec![], &both), Plan::ToolResults(vec![blue("c1"), blue("c2")]));
    // An old tool message for a call answered before is no result of an open one.
    let one = [("c1".to_string(), json!("blue")), ("old".to_string(), json!("red"))];
    assert_eq!(code(plan(None, &rows, &[], vec![], &one)), "interrupt_pending");
    let resumed = [
        entry("c1", ResumeStatus::Resolved, Some(json!("blue"))),
        entry("c2", ResumeStatus::Resolved, Some(json!("blue"))),
    ];
    assert_eq!(plan(None, &rows, &resumed, vec![], &[]), Plan::ToolResults(vec![blue("c1"), blue("c2")]));
    assert_eq!(plan(None, &rows, &[], vec![], &[]), Plan::Sync { already: vec![] }, "nothing sent: a sync");
}
