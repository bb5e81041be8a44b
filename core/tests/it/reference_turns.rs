//! The runner as the reference's behaviour notes say it runs a turn: the request's system prompt
//! and image models (Q.5), approvals with asks off and a step's other approvals (Q.1, Q.3, Q.4, Q.8),
//! and the order of a step's rows when it has two asks (Q.3).

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness_named, harness_with};
use palaver_contract::asks::{ASKS_SYSTEM_PROMPT, AskKind, AskSurface, COMPACT_SURFACE_SYSTEM_PROMPT};
use palaver_core::turn::{BASE_SYSTEM_PROMPT, TurnInput, TurnRequest, TurnSettings, store};
use palaver_wire::conversation::model::{AskStatus, HistoryRow, RowAsk, TurnEvent};

fn with_system_prompt(request: TurnRequest, system_prompt: &str) -> TurnRequest {
    TurnRequest { system_prompt: Some(system_prompt.into()), ..request }
}

#[tokio::test]
async fn the_requests_system_prompt_takes_the_persona_lines_place_before_the_other_sections() {
    let h = harness_with(json!([{"text": "Arr."}, {"text": "Arr."}]), TurnSettings::default()).await;
    let full = with_system_prompt(h.request(None, TurnInput::Prompt("hi".into())), "You are a pirate.");
    h.run(full).await;
    let compact = TurnRequest {
        surface: AskSurface::Compact,
        ..with_system_prompt(h.request(None, TurnInput::Prompt("hi".into())), "Be brief.")
    };
    h.run(compact).await;

    let systems: Vec<String> =
        h.model_requests().iter().map(|request| request["system"].as_str().unwrap().to_string()).collect();
    assert!(systems[0].starts_with("You are a pirate.\n\n"), "{}", systems[0]);
    assert!(systems[0].contains(ASKS_SYSTEM_PROMPT), "the asks section follows: {}", systems[0]);
    assert!(!systems.iter().any(|system| system.contains(BASE_SYSTEM_PROMPT)), "no persona line");
    assert!(systems[1].starts_with("Be brief.\n\n") && systems[1].ends_with(COMPACT_SURFACE_SYSTEM_PROMPT));
}

#[tokio::test]
async fn with_no_other_section_the_requests_system_prompt_is_sent_unchanged() {
    let asks_off = TurnSettings { ask_kinds: Vec::new(), ..TurnSettings::default() };
    let h = harness_with(json!([{"text": "ok"}, {"text": "ok"}, {"text": "ok"}]), asks_off).await;
    h.run(with_system_prompt(h.request(None, TurnInput::Prompt("hi".into())), "  Exactly this.  ")).await;
    h.run(with_system_prompt(h.request(None, TurnInput::Prompt("hi".into())), "")).await;
    h.run(h.request(None, TurnInput::Prompt("hi".into()))).await;
    let systems: Vec<_> = h.model_requests().iter().map(|request| request["system"].clone()).collect();
    assert_eq!(systems, [json!("  Exactly this.  "), json!(""), json!(BASE_SYSTEM_PROMPT)]);
}

#[tokio::test]
async fn a_system_prompt_longer_than_a_message_may_be_is_refused() {
    let h = harness_with(json!([]), TurnSettings::default()).await;
    let long = "x".repeat(palaver_core::turn::PROMPT_MAX_LENGTH + 1);
    let refused = h.runner.start(with_system_prompt(h.request(None, TurnInput::Prompt("hi".into())), &long)).await;
    let message = refused.err().expect("refused").to_string();
    assert!(message.contains("systemPrompt is longer than"), "{message}");
    assert!(h.model_requests().is_empty());
}

#[tokio::test]
async fn a_model_whose_id_says_image_is_offered_no_tools_and_no_asks() {
    let script = json!([{"toolCalls": [{"id": "c1", "name": "listTodos", "input": {}}]}, {"text": "A cat."}]);
    let h = harness_named("openai:gpt-image-1", script).await;
    let (_, events) = h.prompt(None, "Draw a cat").await;
    let request = &h.model_requests()[0];
    assert_eq!(request["tools"], json!([]));
    assert!(!request["system"].as_str().unwrap().contains(ASKS_SYSTEM_PROMPT), "{request}");
    let ran = events.iter().any(
        |event| matches!(event, TurnEvent::ToolResult { tool_result } if tool_result.result.get("todos").is_some()),
    );
    assert!(!ran, "a tool the model calls anyway does not run: {events:?}");

    let h = harness_named("openai:gpt-4o", json!([{"text": "Hello."}])).await;
    h.prompt(None, "hi").await;
    assert_ne!(h.model_requests()[0]["tools"], json!([]), "any other model is offered the tools");
}

fn delete_call(id: &str) -> Value {
    json!({"id": id, "name": "deleteCompletedTodos", "input": {}})
}

/// The `{toolResult}` events in order: (call id, result).
fn tool_results(events: &[TurnEvent]) -> Vec<(String, Value)> {
    events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::ToolResult { tool_result } => {
                Some((tool_result.tool_call_id.clone(), tool_result.result.clone()))
            }
            _ => None,
        })
        .collect()
}

async fn completed_todos(h: &Harness) -> i64 {
    let (left,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM todos WHERE completed = 1").fetch_one(&h.pool).await.unwrap();
    left
}

#[tokio::test]
async fn with_asks_off_a_tool_that_needs_approval_does_not_run_and_the_turn_ends_with_its_call() {
    let asks_off = TurnSettings { ask_kinds: Vec::new(), ..TurnSettings::default() };
    let h = harness_with(json!([{"toolCalls": [delete_call("call_a")]}, {"text": "never said"}]), asks_off).await;
    h.seed_completed_todo("done already").await;
    let (history, events) = h.prompt(None, "Clean up my todos").await;
    assert!(
        matches!(events.as_slice(), [TurnEvent::ToolCall { .. }, TurnEvent::Done { .. }]),
        "[toolCall, done] as the reference sends it: {events:?}"
    );
    assert_eq!(h.model_requests().len(), 1, "the model is not called again");
    assert_eq!(completed_todos(&h).await, 1, "the tool did not run");
    let denied = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == "call_a" => Some(result),
        _ => None,
    });
    assert_eq!(denied, Some(json!({"approved": false, "reason": "approvals_unavailable"})), "its row says why");
}

#[tokio::test]
async fn another_approval_in_the_step_is_denied_one_ask_at_a_time_when_the_turn_resumes() {
    for (confirmed, first) in
        [(true, json!({"deleted": 1})), (false, json!({"approved": false, "reason": "user_denied"}))]
    {
        let script = json!([{"toolCalls": [delete_call("call_a"), delete_call("call_b")]}, {"text": "Done."}]);
        let h = harness_with(script, TurnSettings::default()).await;
        h.seed_completed_todo("done already").await;
        let (history, events) = h.prompt(None, "Clean up").await;
        let approval = asked(&events).expect("an approval");
        assert_eq!(tool_results(&events), [], "nothing is denied before the turn resumes");

        let answer = json!({"action": "accept", "content": {"confirmed": confirmed}});
        let resumed = h.answer(&history, &approval, answer).await;
        let denied = json!({"approved": false, "reason": "one_ask_at_a_time"});
        assert_eq!(tool_results(&resumed), [("call_a".to_string(), first), ("call_b".to_string(), denied.clone())]);
        let told = h.model_requests().last().unwrap()["messages"].clone();
        let last_tool =
            told.as_array().unwrap().iter().rev().find(|message| message["toolCallId"] == "call_b").cloned();
        assert_eq!(
            last_tool.map(|message| message["result"].clone()),
            Some(json!({"type": "execution-denied", "reason": "one_ask_at_a_time"}))
        );
        let rows = h.rows(&history).await;
        let b_results: Vec<_> = rows
            .iter()
            .filter(|row| matches!(row, HistoryRow::ToolResult { tool_call_id, .. } if tool_call_id == "call_b"))
            .collect();
        assert_eq!(b_results.len(), 1, "call_b has one result row: {rows:?}");
    }
}

#[tokio::test]
async fn another_approval_waiting_on_an_ask_a_new_prompt_cancels_is_closed_denied() {
    let script = json!([{"toolCalls": [delete_call("call_a"), delete_call("call_b")]}, {"text": "Fine."}]);
    let h = harness_with(script, TurnSettings::default()).await;
    h.seed_completed_todo("done already").await;
    let (history, _) = h.prompt(None, "Clean up").await;
    h.prompt(Some(&history), "never mind").await;
    let b_result = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == "call_b" => Some(result),
        _ => None,
    });
    assert_eq!(b_result, Some(json!({"approved": false, "reason": "one_ask_at_a_time"})));
    assert_eq!(completed_todos(&h).await, 1, "neither ran");
}

#[tokio::test]
async fn the_first_asks_row_comes_before_the_dropped_seconds_rows_and_both_calls_replay_as_one_message() {
    let confirm = |id: &str| json!({"id": id, "name": "ask_confirm", "input": {"prompt": "Sure?"}});
    let h = harness_with(
        json!([{"toolCalls": [confirm("call_1"), confirm("call_2")]}, {"text": "Fine."}]),
        TurnSettings::default(),
    )
    .await;
    let (history, events) = h.prompt(None, "two asks").await;
    let ask_id = asked(&events).expect("an ask");
    let rows = h.rows(&history).await;
    let kinds: Vec<(&str, Option<&str>)> = rows
        .iter()
        .map(|row| match row {
            HistoryRow::User { .. } => ("user", None),
            HistoryRow::Assistant { .. } => ("assistant", None),
            HistoryRow::ToolCall { model_call_id, .. } => ("call", model_call_id.as_deref()),
            HistoryRow::ToolResult { model_call_id, .. } => ("result", model_call_id.as_deref()),
        })
        .collect();
    assert_eq!(kinds, [("user", None), ("call", Some("call_1")), ("call", Some("call_2")), ("result", Some("call_2"))]);
    assert!(matches!(&rows[1], HistoryRow::ToolCall { tool_call_id, .. } if *tool_call_id == ask_id));

    // A new prompt cancels the ask: the next model call replays both calls in one message.
    h.prompt(Some(&history), "never mind").await;
    let messages = h.model_requests().last().unwrap()["messages"].as_array().unwrap().clone();
    let with_calls: Vec<_> = messages
        .iter()
        .filter(|message| message["toolCalls"].as_array().is_some_and(|calls| !calls.is_empty()))
        .collect();
    assert_eq!(with_calls.len(), 1, "{messages:?}");
    assert_eq!(with_calls[0]["toolCalls"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_pause_that_finds_the_slot_taken_stores_its_ask_cancelled_with_the_result_after_its_steps_rows() {
    let h = harness_with(
        json!([{"toolCalls": [{"id": "c1", "name": "ask_confirm", "input": {"prompt": "Sure?"}}]}]),
        TurnSettings::default(),
    )
    .await;
    let (history, _) = h.prompt(None, "ask me").await;
    let pending = store::pending_ask(&h.pool, &history).await.unwrap().expect("the slot is held");
    let mut second = pending.clone();
    second.ask.tool_call_id = "ask_second".into();
    let row = |id: &str, model: &str, status| HistoryRow::ToolCall {
        tool_name: "ask_confirm".into(),
        tool_call_id: id.into(),
        args: json!({"prompt": "Sure?"}),
        ask: Some(RowAsk { kind: AskKind::Confirm, status, origin: None, expired_at: None }),
        allowed_by: None,
        model_call_id: Some(model.into()),
        client_tool: false,
    };
    let dropped_result = HistoryRow::ToolResult {
        tool_name: "ask_confirm".into(),
        tool_call_id: "ask_dropped".into(),
        result: store::one_ask_at_a_time(),
        model_call_id: Some("d1".into()),
    };
    let rows = vec![
        row("ask_second", "s1", AskStatus::Pending),
        row("ask_dropped", "d1", AskStatus::Cancelled),
        dropped_result,
    ];
    let before = h.rows(&history).await.len();
    let paused =
        store::pause(&h.pool, &history, "another_turn", rows, &mut second, Duration::from_secs(60), false).await;
    assert_eq!(paused.unwrap(), store::Paused::Taken);

    let added: Vec<(String, Option<String>)> = h.rows(&history).await[before..]
        .iter()
        .map(|row| match row {
            HistoryRow::ToolCall { tool_call_id, ask, .. } => {
                (tool_call_id.clone(), ask.as_ref().map(|ask| ask.status.as_str().to_string()))
            }
            HistoryRow::ToolResult { tool_call_id, .. } => (format!("result of {tool_call_id}"), None),
            other => panic!("not a step's row: {other:?}"),
        })
        .collect();
    let expected = [
        ("ask_second", Some("cancelled")),
        ("ask_dropped", Some("cancelled")),
        ("result of ask_dropped", None),
        ("result of ask_second", None),
    ];
    let expected: Vec<(String, Option<String>)> =
        expected.into_iter().map(|(id, status)| (id.to_string(), status.map(String::from))).collect();
    assert_eq!(added, expected);
    assert_eq!(h.pending(&history).await, Some(pending.ask.tool_call_id), "the first ask keeps the slot");
}
