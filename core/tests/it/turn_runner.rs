//! The turn runner on its own, without HTTP: the scripted mock model, a temporary SQLite
//! database, and the runner's public surface (start, its event stream, the stop switch).
//! Pause and resume, a prompt that cancels the pending ask, the undo of an answer whose
//! continuation failed, approvals both ways, and a stop.

use serde_json::{Value, json};

use crate::common::{asked, harness, harness_of, resolved, text, tool_result};
use palaver_core::error::Error;
use palaver_core::turn::TurnInput;
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};

fn choice(id: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

fn ask_status(rows: &[HistoryRow], tool_call_id: &str) -> Option<String> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolCall { tool_call_id: id, ask: Some(ask), .. } if id == tool_call_id => {
            Some(ask.status.as_str().to_string())
        }
        _ => None,
    })
}

#[tokio::test]
async fn a_turn_pauses_on_an_ask_and_the_answer_resumes_it() {
    let h = harness(json!([choice("call_plan"), {"text": "Team it is."}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    assert!(ask_id.starts_with("ask_") && ask_id.len() > 30, "an id Palaver minted: {ask_id}");
    assert_eq!(h.pending(&history).await, Some(ask_id.clone()));

    let answer = json!({"action": "accept", "content": {"selected": ["team"]}});
    let events = h.answer(&history, &ask_id, answer).await;
    assert_eq!(resolved(&events), [(ask_id.clone(), "accept".to_string())]);
    assert_eq!(text(&events), "Team it is.");
    assert_eq!(h.pending(&history).await, None);
    // The model is told the answer under its own call's id, and never sees Palaver's.
    let resumed = h.model_requests().last().expect("the resumed request").clone();
    let told = resumed["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(told["toolCallId"], "call_plan", "{told}");
    assert!(!resumed.to_string().contains(&ask_id), "{resumed}");
    let rows = h.rows(&history).await;
    assert_eq!(ask_status(&rows, &ask_id).as_deref(), Some("answered"));
    assert!(matches!(rows.last(), Some(HistoryRow::Assistant { text, .. }) if text == "Team it is."), "{rows:?}");
}

#[tokio::test]
async fn a_stale_or_invalid_answer_is_refused_before_the_turn_starts() {
    let h = harness(json!([choice("call_plan")])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    let request = |tool_call_id: &str, response: Value| {
        h.request(Some(&history), TurnInput::Answer { tool_call_id: tool_call_id.into(), response })
    };
    // The model's own id is not the ask's: an answer by it is stale.
    for stale in ["call_other", "call_plan"] {
        let stale = h.runner.start(request(stale, json!({"action": "decline"}))).await.err();
        assert_eq!(stale.map(|err| err.kind().status_code()), Some(409));
    }
    let invalid = json!({"action": "accept", "content": {"selected": ["enterprise"]}});
    let invalid = h.runner.start(request(&ask_id, invalid)).await.err();
    assert_eq!(invalid.map(|err| err.kind().status_code()), Some(400));
    assert_eq!(h.pending(&history).await, Some(ask_id), "nothing changed");
}

#[tokio::test]
async fn a_new_prompt_cancels_the_pending_ask() {
    let h = harness(json!([choice("call_plan"), {"text": "Sure, something else."}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    let (_, events) = h.prompt(Some(&history), "Never mind").await;
    assert_eq!(resolved(&events), [(ask_id.clone(), "cancel".to_string())]);
    assert_eq!(h.pending(&history).await, None);
    let rows = h.rows(&history).await;
    assert_eq!(ask_status(&rows, &ask_id).as_deref(), Some("cancelled"));
    let cancelled = rows.iter().any(|row| {
        matches!(row, HistoryRow::ToolResult { tool_call_id, result, .. }
            if *tool_call_id == ask_id && result == &json!({"action": "cancel", "reason": "user_sent_message"}))
    });
    assert!(cancelled, "{rows:?}");
}

#[tokio::test]
async fn an_answer_whose_continuation_fails_before_any_output_is_undone() {
    let h = harness(json!([choice("call_plan"), {"error": "The model is down."}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    let rows_before = h.rows(&history).await;
    let events = h.answer(&history, &ask_id, json!({"action": "decline"})).await;
    assert!(events.iter().any(|event| matches!(event, TurnEvent::Error { error } if error == "The model is down.")));
    let restored = match events.last() {
        Some(TurnEvent::Done { pending_ask, .. }) => pending_ask.as_ref().map(|pending| pending.tool_call_id.clone()),
        other => panic!("{other:?}"),
    };
    assert_eq!(restored, Some(ask_id.clone()));
    assert_eq!(h.pending(&history).await, Some(ask_id), "the ask is pending again");
    assert_eq!(h.rows(&history).await, rows_before, "the answer's rows are gone");
}

#[tokio::test]
async fn an_approval_runs_the_guarded_tool_only_when_approved() {
    let delete = |id: &str| json!({"toolCalls": [{"id": id, "name": "deleteCompletedTodos", "input": {}}]});
    let h = harness(json!([delete("call_a"), {"text": "Kept them."}, delete("call_b"), {"text": "Deleted."}])).await;
    h.seed_completed_todo("done already").await;
    let (history, events) = h.prompt(None, "Clean up my todos").await;
    let approval = asked(&events).expect("an approval");
    assert!(approval.starts_with("approval_") && !approval.contains("call_a"), "an id of its own: {approval}");

    let denied = h.answer(&history, &approval, json!({"action": "accept", "content": {"confirmed": false}})).await;
    assert_eq!(tool_result(&denied, "call_a"), Some(json!({"approved": false, "reason": "user_denied"})));

    let (_, events) = h.prompt(Some(&history), "Now really clean up").await;
    let approval = asked(&events).expect("an approval");
    let approved = h.answer(&history, &approval, json!({"action": "accept", "content": {"confirmed": true}})).await;
    assert_eq!(tool_result(&approved, "call_b"), Some(json!({"deleted": 1})));
    assert_eq!(text(&approved), "Deleted.");
}

#[tokio::test]
async fn a_stop_ends_the_turn_and_keeps_what_was_said() {
    let long =
        json!({"parts": ["Once upon a time", " there was", " a very long story", " and it did."], "chunkDelayMs": 300});
    let h = harness(json!([long])).await;
    let story = h.request(None, TurnInput::Prompt("Tell me a story".into()));
    let mut handle = h.runner.start(story).await.expect("start");
    let history = handle.history_id.clone();
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::Delta { delta } if delta == "Once upon a time") {
            assert!(h.running.stop(&history).await, "the turn is running");
        }
        events.push(event);
    }
    assert!(!text(&events).contains("and it did."), "{events:?}");
    assert!(!h.running.stop(&history).await, "a finished turn is no longer running");
    let rows = h.rows(&history).await;
    assert!(matches!(rows.last(), Some(HistoryRow::Assistant { text, .. }) if text.starts_with("Once upon a time")));
}

#[tokio::test]
async fn deleting_a_conversation_stops_its_turn_and_nothing_more_is_written_to_it() {
    let long = json!({"parts": ["Once upon a time", " there was", " a very long story"], "chunkDelayMs": 300});
    let h = harness(json!([long])).await;
    let conversations = palaver_core::conversation::Conversations::new(
        h.pool.clone(),
        None,
        h.running.clone(),
        palaver_core::live::LiveHub::new(h.pool.clone(), palaver_core::signals::Signals::local()),
        h.runner.models().clone(),
    );
    let story = h.request(None, TurnInput::Prompt("Tell me a story".into()));
    let mut handle = h.runner.start(story).await.expect("start");
    let history = handle.history_id.clone();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::Delta { delta } if delta == "Once upon a time") {
            conversations.delete(&h.caller, &history).await.expect("the owner deletes it");
        }
    }
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM history_rows WHERE history_id = $1")
        .bind(&history)
        .fetch_one(&h.pool)
        .await
        .expect("count");
    assert_eq!(rows, 0, "the stopped turn saved nothing to the deleted conversation");
    assert!(!h.running.stop(&history).await, "the turn ended");
    let again = h.request(Some(&history), TurnInput::Prompt("Still there?".into()));
    assert_eq!(h.runner.start(again).await.err().map(|err| err.kind().status_code()), Some(404));
}

#[tokio::test]
async fn a_stop_that_names_a_turn_stops_it_and_not_another_tabs_turn_on_the_conversation() {
    let story = |words: [&str; 3]| json!({"parts": words, "chunkDelayMs": 250});
    let h = harness(json!([story(["First", " tab", " story."]), story(["Second", " tab", " story."])])).await;
    let conversations = palaver_core::conversation::Conversations::new(
        h.pool.clone(),
        None,
        h.running.clone(),
        palaver_core::live::LiveHub::new(h.pool.clone(), palaver_core::signals::Signals::local()),
        h.runner.models().clone(),
    );
    let history = palaver_core::conversation::store::create_history(&h.pool, &h.caller.user.id, None).await.unwrap().id;
    let mut first = h.runner.start(h.request(Some(&history), TurnInput::Prompt("One".into()))).await.unwrap();
    let mut second = h.runner.start(h.request(Some(&history), TurnInput::Prompt("Two".into()))).await.unwrap();
    let stopped = conversations.stop(&h.caller, &history, Some(&first.stream_id)).await.unwrap();
    assert!(stopped, "that turn was running");
    let (mut one, mut two) = (Vec::new(), Vec::new());
    while let Some(event) = first.events.recv().await {
        one.push(event);
    }
    while let Some(event) = second.events.recv().await {
        two.push(event);
    }
    assert_ne!(text(&one), "First tab story.", "the named turn stopped: {one:?}");
    assert_eq!(text(&two), "Second tab story.", "the other tab's turn went on");
    assert!(!conversations.stop(&h.caller, &history, Some(&first.stream_id)).await.unwrap(), "it has ended");
}

#[tokio::test]
async fn a_user_with_too_many_replies_running_is_told_to_wait_and_nothing_changes() {
    let slow = json!({"parts": ["A", " slow", " reply."], "chunkDelayMs": 200});
    let settings = palaver_core::turn::TurnSettings { max_turns_per_user: 1, ..Default::default() };
    let h = crate::common::harness_with(json!([slow, {"text": "Now it runs."}]), settings).await;
    let mut running = h.runner.start(h.request(None, TurnInput::Prompt("First".into()))).await.unwrap();
    let refused = h.runner.start(h.request(None, TurnInput::Prompt("Second".into()))).await.err().map(Error::into_kind);
    assert!(
        matches!(&refused, Some(palaver_wire::error::AppError::TooManyRequests { retry_after_secs: 5, .. })),
        "{refused:?}"
    );
    assert_eq!(refused.map(|err| err.status_code()), Some(429));
    let (histories,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM histories").fetch_one(&h.pool).await.unwrap();
    assert_eq!(histories, 1, "the refused turn made no conversation");
    while running.events.recv().await.is_some() {}
    let (_, events) = h.prompt(None, "Second").await;
    assert_eq!(text(&events), "Now it runs.", "once the first is done");
}

/// The ids of the tool calls the model was shown in its last request, in order.
fn told_call_ids(h: &crate::common::Harness) -> Vec<String> {
    let request = h.model_requests().last().expect("a request").clone();
    request["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|message| message["toolCalls"].as_array().cloned().unwrap_or_default())
        .map(|call| call["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn every_ask_gets_an_id_of_its_own_and_the_model_keeps_its_ids_unless_reused_or_empty() {
    let nameless = json!({"toolCalls": [{"id": "", "name": "ask_choice", "input": {
        "prompt": "Which size?", "select": "one",
        "options": [{"id": "s", "label": "Small"}, {"id": "l", "label": "Large"}]}}]});
    let h = harness(json!([choice("call_plan"), {"text": "Team."}, choice("call_plan"), {"text": "Solo."}, nameless, {"text": "Large."}]))
        .await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let first = asked(&events).expect("an ask");
    h.answer(&history, &first, json!({"action": "accept", "content": {"selected": ["team"]}})).await;
    assert_eq!(told_call_ids(&h), ["call_plan"], "the model keeps an id new to the conversation");

    let (_, events) = h.prompt(Some(&history), "And the other workspace").await;
    let second = asked(&events).expect("asked again");
    let events = h.answer(&history, &second, json!({"action": "accept", "content": {"selected": ["solo"]}})).await;
    assert_eq!(text(&events), "Solo.");
    let told = told_call_ids(&h);
    assert_eq!(told[0], "call_plan");
    assert!(told[1].starts_with("call_") && told[1] != "call_plan", "a reused id is replaced for the model: {told:?}");
    let rows = h.rows(&history).await;
    assert_eq!(ask_status(&rows, &first).as_deref(), Some("answered"), "the first ask keeps its ending");
    let answers: Vec<&Value> = rows
        .iter()
        .filter_map(|row| match row {
            HistoryRow::ToolResult { tool_call_id, result, .. } if *tool_call_id == first => Some(result),
            _ => None,
        })
        .collect();
    assert_eq!(answers, [&json!({"action": "accept", "content": {"selected": ["team"]}})], "one answer per ask");

    let (_, events) = h.prompt(Some(&history), "Pick a size").await;
    let third = asked(&events).expect("an ask without an id is still asked");
    let events = h.answer(&history, &third, json!({"action": "accept", "content": {"selected": ["l"]}})).await;
    assert_eq!(text(&events), "Large.", "and answered");
    let told = told_call_ids(&h);
    assert!(told[2].starts_with("call_") && told[2].len() > 10, "a missing id is given one: {told:?}");
    let asks = [first, second, third];
    assert!(asks.iter().all(|id| id.starts_with("ask_") && !told.contains(id)), "{asks:?} {told:?}");
    assert!(asks[0] != asks[1] && asks[1] != asks[2] && asks[0] != asks[2]);
}

#[tokio::test]
async fn an_ask_stored_with_an_earlier_asks_id_ends_alone() {
    // Before asks had ids of their own, two asks of one conversation could share the model's
    // id (the migration keys only the newer by it). Ending the newer must leave the older's
    // ending as it was.
    let h =
        harness(json!([choice("call_plan"), {"text": "Team."}, choice("call_plan"), {"text": "Other things."}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let first = asked(&events).expect("an ask");
    h.answer(&history, &first, json!({"action": "accept", "content": {"selected": ["team"]}})).await;
    let (_, events) = h.prompt(Some(&history), "And the other workspace").await;
    let second = asked(&events).expect("asked again");
    let backend = palaver_core::db::Backend::of(&h.pool);
    for minted in [&first, &second] {
        for (table, column) in [("history_rows", "payload"), ("histories", "pending_ask")] {
            let renamed = backend.json(&format!("REPLACE(CAST({column} AS TEXT), $1, 'call_plan')"));
            let sql = format!("UPDATE {table} SET {column} = {renamed} WHERE {column} IS NOT NULL");
            sqlx::query(&sql).bind(minted).execute(&h.pool).await.unwrap();
        }
    }
    sqlx::query("UPDATE history_rows SET ask_id = NULL WHERE ask_id = $1").bind(&first).execute(&h.pool).await.unwrap();
    sqlx::query("UPDATE history_rows SET ask_id = 'call_plan' WHERE ask_id = $1")
        .bind(&second)
        .execute(&h.pool)
        .await
        .unwrap();
    assert_eq!(h.pending(&history).await.as_deref(), Some("call_plan"));

    let (_, events) = h.prompt(Some(&history), "Never mind").await;
    assert_eq!(resolved(&events), [("call_plan".to_string(), "cancel".to_string())]);
    let endings: Vec<String> = h
        .rows(&history)
        .await
        .iter()
        .filter_map(|row| match row {
            HistoryRow::ToolCall { ask: Some(ask), .. } => Some(ask.status.as_str().to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(endings, ["answered", "cancelled"]);
}

fn reply(text: &str, interrupted: bool) -> HistoryRow {
    HistoryRow::Assistant {
        text: text.into(),
        document: false,
        block_errors: String::new(),
        interrupted,
        blocks: None,
        model: Some("mock".into()),
    }
}

#[tokio::test]
async fn a_running_turn_keeps_a_draft_a_second_behind_which_goes_when_it_saves() {
    let parts: Vec<String> = (1..=12).map(|n| format!("Part {n}. ")).collect();
    let h = harness(json!([{"parts": parts, "chunkDelayMs": 300}])).await;
    let mut handle = h.runner.start(h.request(None, TurnInput::Prompt("Talk".into()))).await.unwrap();
    let mut shown = String::new();
    while !shown.contains("Part 4. ") {
        if let Some(TurnEvent::Delta { delta }) = handle.events.recv().await {
            shown.push_str(&delta);
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let drafts = palaver_core::turn::draft::store::drafts(&h.pool).await.unwrap();
    assert_eq!(drafts.len(), 1);
    let (json,): (String,) = sqlx::query_as("SELECT rows_json FROM turn_drafts").fetch_one(&h.pool).await.unwrap();
    let rows: Vec<HistoryRow> = serde_json::from_str(&json).unwrap();
    assert_eq!(rows[0], HistoryRow::User { text: "Talk".into(), attachments: Vec::new(), from_app: None });
    let HistoryRow::Assistant { text: so_far, interrupted: true, .. } = &rows[1] else { panic!("{rows:?}") };
    assert!(so_far.starts_with(&shown), "{so_far:?} holds what was shown, {shown:?}");
    assert_eq!(h.runner.close_interrupted().await.unwrap(), 0, "a turn that runs keeps its draft");

    while handle.events.recv().await.is_some() {}
    assert!(palaver_core::turn::draft::store::drafts(&h.pool).await.unwrap().is_empty(), "saved, its draft gone");
    let whole: String = (1..=12).map(|n| format!("Part {n}. ")).collect();
    assert_eq!(h.rows(&handle.history_id).await[1], reply(&whole, false));
}

#[tokio::test]
async fn a_draft_no_instance_holds_is_saved_once_as_the_turns_rows() {
    let h = harness(json!([])).await;
    let owner = h.caller.user.id.clone();
    let history = palaver_core::conversation::store::create_history(&h.pool, &owner, None).await.unwrap().id;
    let rows =
        vec![HistoryRow::User { text: "Talk".into(), attachments: Vec::new(), from_app: None }, reply("Half a", true)];
    let draft = palaver_core::turn::draft::store::Draft {
        turn_id: "turn-of-a-dead-process",
        history_id: &history,
        user_id: &owner,
        running_key: "no-longer-running",
        rows: &rows,
        task: None,
    };
    assert!(palaver_core::turn::draft::store::write_draft(&h.pool, &draft, true).await.unwrap());
    assert_eq!(h.runner.close_interrupted().await.unwrap(), 1);
    assert_eq!(h.rows(&history).await, rows);
    assert_eq!(h.runner.close_interrupted().await.unwrap(), 0, "saved once");
    assert_eq!(h.rows(&history).await.len(), 2);
}

/// The turn's events without Palaver's additions (what a reference client reads).
fn reference_events(events: &[TurnEvent]) -> Vec<Value> {
    events
        .iter()
        .filter(|event| !matches!(event, TurnEvent::Delta { .. } | TurnEvent::Retract { .. }))
        .map(|event| serde_json::to_value(event).unwrap())
        .collect()
}

#[tokio::test]
async fn text_comes_per_step_at_its_end_and_only_from_a_step_without_a_tool_call() {
    let list = json!({"text": "Let me look at your todos first.", "toolCalls": [{"id": "call_list", "name": "listTodos", "input": {}}]});
    let blob = json!({"text": "You have nothing to do.\n{\"action\": \"accept\", \"content\": {}}"});
    let h = harness(json!([list, blob])).await;
    let (history, events) = h.prompt(None, "What is on my list?").await;
    let deltas: String = events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::Delta { delta } => Some(delta.as_str()),
            _ => None,
        })
        .collect();
    assert!(deltas.starts_with("Let me look at your todos first.You have"), "live tokens of both steps: {deltas}");
    let retracted = events.iter().position(|event| matches!(event, TurnEvent::Retract { .. }));
    let called = events.iter().position(|event| matches!(event, TurnEvent::ToolCall { .. }));
    assert!(retracted.is_some() && retracted < called, "the tool step's text is taken back before its call");
    let shape: Vec<String> = reference_events(&events)
        .iter()
        .map(|event| event.as_object().unwrap().keys().next().unwrap().clone())
        .collect();
    assert_eq!(shape, ["toolCall", "toolResult", "text", "done"]);
    assert_eq!(text(&events), "You have nothing to do.", "one {{text}}, its action blob gone");
    let rows = h.rows(&history).await;
    assert!(matches!(rows.last(), Some(HistoryRow::Assistant { text, .. }) if text == "You have nothing to do."));
}

#[tokio::test]
async fn a_json_block_document_keeps_its_action_keys() {
    // The action-blob rule is for prose: a JSON document's buttons carry "action" keys.
    let document = r#"{"v": 1, "blocks": [{"type": "text", "text": "Pick one."}, {"type": "actions", "id": "pick",
        "elements": [{"type": "button", "id": "yes", "label": "Yes", "action": {"kind": "reply", "text": "Yes"}}]}]}"#;
    let settings = palaver_core::turn::TurnSettings { blocks: Some(Default::default()), ..Default::default() };
    let h = crate::common::harness_with(json!([{"text": document}]), settings).await;
    let (_, events) = h.prompt(None, "Ask me with a button").await;
    assert_eq!(text(&events), document);
}

#[tokio::test]
async fn a_step_that_fails_mid_stream_says_nothing_and_keeps_only_the_message() {
    let h = harness(json!([{"text": "Half a thou", "error": "The model is overloaded"}])).await;
    let (history, events) = h.prompt(None, "Write a poem").await;
    assert_eq!(text(&events), "", "no {{text}} for a failed step");
    assert!(events.iter().any(|event| matches!(event, TurnEvent::Retract { .. })), "Palaver's view takes it back");
    assert_eq!(
        h.rows(&history).await,
        [HistoryRow::User { text: "Write a poem".into(), attachments: Vec::new(), from_app: None }]
    );
    assert!(matches!(events.last(), Some(TurnEvent::Done { title: None, .. })), "no title after a failure");
}

#[tokio::test]
async fn an_answer_whose_continuation_fails_mid_stream_puts_the_ask_back() {
    let h =
        harness(json!([choice("call_plan"), {"text": "Setting up the Te", "error": "The model is overloaded"}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask_id = asked(&events).expect("an ask");
    let rows_before = h.rows(&history).await;
    let events = h.answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["team"]}})).await;
    assert!(matches!(events.last(), Some(TurnEvent::Done { pending_ask: Some(_), .. })), "{events:?}");
    assert_eq!(h.pending(&history).await, Some(ask_id));
    assert_eq!(h.rows(&history).await, rows_before);
}

#[tokio::test]
async fn the_first_reply_names_the_conversation_with_one_title_call() {
    let script = json!({"title": "\"Workspace setup\"", "responses": [choice("call_plan"), {"text": "Team it is."}, {"text": "More."}]});
    let h = harness_of(script, Default::default(), Default::default()).await;
    let (history, events) = h.prompt(None, "Set up billing for my team").await;
    assert!(matches!(events.last(), Some(TurnEvent::Done { title: None, .. })), "a turn that only asked names nothing");
    let events = h
        .answer(&history, &asked(&events).unwrap(), json!({"action": "accept", "content": {"selected": ["team"]}}))
        .await;
    let title = |events: &[TurnEvent]| match events.last() {
        Some(TurnEvent::Done { title, .. }) => title.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(title(&events).as_deref(), Some("Workspace setup"), "the model's title, its quotes gone");
    let (_, events) = h.prompt(Some(&history), "And then?").await;
    assert_eq!(title(&events), None, "named once");
    assert_eq!(h.model_requests().len(), 3, "the title call is not a step of the turn");
}

#[tokio::test]
async fn without_a_title_from_the_model_the_first_messages_words_name_it() {
    let h = harness(json!([{"text": "Hello."}])).await;
    let (_, events) = h.prompt(None, "  Say\n hello  ").await;
    assert!(matches!(events.last(), Some(TurnEvent::Done { title: Some(title), .. }) if title == "Say hello"));
}

#[tokio::test]
async fn a_reply_past_its_length_cap_is_cut_off_there_and_saved_marked() {
    let part = "x".repeat(palaver_core::turn::REPLY_MAX_LENGTH / 2);
    let h = harness(json!([{"parts": [part, part, "one part too many"]}])).await;
    let (history, events) = h.prompt(None, "Write forever").await;
    let error = events.iter().find_map(|event| match event {
        TurnEvent::Error { error } => Some(error.clone()),
        _ => None,
    });
    assert!(error.is_some_and(|error| error.contains("cut off")), "{events:?}");
    let rows = h.rows(&history).await;
    let Some(HistoryRow::Assistant { text, interrupted: true, .. }) = rows.last() else { panic!("{rows:?}") };
    assert_eq!(text.chars().count(), palaver_core::turn::REPLY_MAX_LENGTH, "kept up to the cap");
}
