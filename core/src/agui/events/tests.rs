use ag_ui::event::Event;
use ag_ui::server::EventVerifier;
use serde_json::{Value, json};

use palaver_wire::conversation::model::TurnEvent;

use super::*;

fn turn(events: Value) -> Vec<TurnEvent> {
    serde_json::from_value(events).unwrap()
}

/// The run's events between `RUN_STARTED` and `RUN_FINISHED`, checked in order by the AG-UI
/// verifier; `answered`: a resume's call, started in the run before (the verifier knows calls of
/// one run only, while AG-UI clients take a resumed call's result in the next).
fn mapped(events: &[TurnEvent], answered: Option<(String, Value)>) -> Vec<Value> {
    let mut run = RunEvents::new("r1", answered.clone());
    let mut verifier = EventVerifier::new();
    verifier.observe(&Event::run_started("t1", "r1")).unwrap();
    if let Some((id, _)) = &answered {
        verifier.observe(&Event::tool_call_start(id.as_str(), "ask_choice")).unwrap();
        verifier.observe(&Event::tool_call_end(id.as_str())).unwrap();
    }
    let mut out = Vec::new();
    for event in events {
        for mapped in run.map(event) {
            verifier.observe(&mapped).unwrap_or_else(|error| panic!("{error}"));
            out.push(serde_json::to_value(&mapped).unwrap());
        }
    }
    verifier.observe(&Event::run_finished("t1", "r1")).unwrap_or_else(|error| panic!("{error}"));
    out
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|event| event["type"].as_str().unwrap()).collect()
}

#[test]
fn a_text_step_is_sent_whole_when_it_ends() {
    let events = mapped(
        &turn(json!([{"delta": "Hel"}, {"delta": "lo"}, {"text": "Hello"}, {"done": true, "historyId": "h1"}])),
        None,
    );
    assert_eq!(
        types(&events),
        ["STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "STEP_FINISHED"]
    );
    assert_eq!(events[2], json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "r1.m1", "delta": "Hello"}));
}

#[test]
fn text_taken_back_before_a_tool_call_is_never_sent_and_each_step_is_named() {
    let events = mapped(
        &turn(json!([
            {"delta": "Let me look"}, {"retract": "step"},
            {"toolCall": {"toolCallId": "c1", "toolName": "list_todos", "args": {"done": false}}},
            {"toolResult": {"toolCallId": "c1", "toolName": "list_todos", "result": {"todos": []}}},
            {"delta": "Nothing to do."}, {"text": "Nothing to do."},
            {"done": true, "historyId": "h1"}
        ])),
        None,
    );
    let sent = serde_json::to_string(&events).unwrap();
    assert!(!sent.contains("Let me look"), "{sent}");
    assert_eq!(
        types(&events),
        [
            "STEP_STARTED",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "TOOL_CALL_RESULT",
            "STEP_FINISHED",
            "STEP_STARTED",
            "TEXT_MESSAGE_START",
            "TEXT_MESSAGE_CONTENT",
            "TEXT_MESSAGE_END",
            "STEP_FINISHED"
        ]
    );
    assert_eq!(events[0]["stepName"], "step-1");
    assert_eq!(events[6]["stepName"], "step-2");
    assert_eq!(events[2]["delta"], "{\"done\":false}");
    assert_eq!(events[4]["content"], "{\"todos\":[]}");
}

#[test]
fn an_ask_is_the_call_the_interrupt_names_and_its_answer_is_that_calls_result() {
    let ask = json!({"ask": {"toolCallId": "c2", "kind": "choice", "input": {"prompt": "Which?"},
        "simple": {"toolCallId": "c2", "kind": "choice", "text": "Which?", "buttons": [], "handoff": false}},
        "historyId": "h1"});
    let events =
        mapped(&turn(json!([ask, {"done": true, "historyId": "h1", "pendingAsk": {"toolCallId": "c2"}}])), None);
    assert_eq!(types(&events), ["STEP_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "STEP_FINISHED"]);
    assert_eq!(events[1]["toolCallName"], "ask_choice");

    let answer = json!({"action": "accept", "content": {"picked": ["a"]}});
    let resumed = mapped(
        &turn(
            json!([{"askResolved": {"toolCallId": "c2", "action": "accept"}}, {"text": "Done."}, {"done": true, "historyId": "h1"}]),
        ),
        Some(("c2".into(), answer.clone())),
    );
    assert_eq!(resumed[0]["type"], "TOOL_CALL_RESULT");
    assert_eq!(resumed[0]["toolCallId"], "c2");
    assert_eq!(resumed[0]["role"], "tool");
    assert_eq!(serde_json::from_str::<Value>(resumed[0]["content"].as_str().unwrap()).unwrap(), answer);
}

#[test]
fn a_block_document_goes_out_checked_as_an_activity() {
    let document = "v: 1\nblocks:\n  - type: metric\n    label: Users\n    value: 3\n";
    let events = mapped(
        &turn(json!([
            {"text": document}, {"replace": "text", "text": "cleaned"},
            {"blocks": {"ok": true, "doc": {"v": 1}, "errors": [], "warnings": []}},
            {"done": true, "historyId": "h1"}
        ])),
        None,
    );
    assert_eq!(types(&events), ["STEP_STARTED", "STEP_FINISHED", "ACTIVITY_SNAPSHOT"]);
    assert_eq!(events[2]["activityType"], BLOCKS_ACTIVITY);
    assert_eq!(events[2]["content"]["text"], "cleaned");
}

#[test]
fn a_turn_that_failed_before_saying_anything_is_a_failure() {
    let mut run = RunEvents::new("r1", None);
    run.map(&TurnEvent::Error { error: "The model is unreachable.".into() });
    assert!(run.failure().unwrap().contains("stopped before it finished"), "no {{done}} yet");
    run.map(&TurnEvent::Done { done: true, history_id: "h1".into(), title: None, pending_ask: None });
    assert_eq!(run.failure().as_deref(), Some("The model is unreachable."));
    let mut said = RunEvents::new("r1", None);
    said.map(&TurnEvent::Text { text: "Partly".into() });
    said.map(&TurnEvent::Error { error: "Cut off.".into() });
    said.map(&TurnEvent::Done { done: true, history_id: "h1".into(), title: None, pending_ask: None });
    assert_eq!(said.failure(), None);
    assert_eq!(said.warnings().unwrap()["errors"], json!(["Cut off."]));
}
