//! MCP 2026-07-28: a tool that needs the person's input answers `input_required`, and Palaver
//! asks it as a durable ask: the turn pauses like any other, and the answer (from any process,
//! after a restart too) sends the call again with the answers and the server's sealed state.
//! The server is ours, on the official Python SDK from PyPI (`scripts/mcp/input_server.py`,
//! installed by `scripts/install-tools.sh --test`); older servers still ask mid-call
//! (`mcp_servers.rs`).

use serde_json::{Value, json};

use crate::common::{asked, run_on, text, tool_result};
use crate::mcp_servers::{ask_event, call, connected_hub, filled, harness_on, served_by, servers_folder, told};
use palaver_core::error::AppError;
use palaver_core::mcp::McpHub;
use palaver_core::turn::TurnInput;
use palaver_core::turn::tools::ToolSource;
use palaver_wire::conversation::model::{AskOrigin, HistoryRow};

/// The input server's `mcpServers` entry: over stdio, its calls approved as `approval` says.
pub(crate) fn desk_entry(approval: &str) -> Value {
    let mcp = servers_folder().join("../..");
    let python = mcp.join(".venv/bin/python").display().to_string();
    let server = mcp.join("input_server.py").display().to_string();
    json!({"command": python, "args": [server], "approval": approval})
}

/// The input server, connected.
async fn desk(approval: &str) -> McpHub {
    connected_hub(json!({"desk": desk_entry(approval)})).await
}

/// The result row stored for the call `id`.
fn stored_result(rows: &[HistoryRow], id: &str) -> Option<Value> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == id => Some(result.clone()),
        _ => None,
    })
}

#[tokio::test]
async fn input_a_server_requires_is_asked_round_by_round_and_the_call_finishes_with_it() {
    let hub = desk("never").await;
    let status = hub.status();
    assert_eq!(status.servers[0].revision.as_deref(), Some("2026-07-28"), "{status:?}");
    // A tool for an app's view alone (`_meta.ui.visibility: ["app"]`) is not offered to the model.
    let offered: Vec<String> = hub.tools().iter().map(|tool| tool.name().to_string()).collect();
    assert!(offered.contains(&"desk__book_table".to_string()), "{offered:?}");
    assert!(!offered.contains(&"desk__refresh_seating".to_string()), "{offered:?}");
    assert!(status.servers[0].tools.iter().any(|tool| tool.name == "refresh_seating"), "the admin sees it");
    let h = harness_on(&hub, json!([call("call_b", "desk__book_table", json!({})), {"text": "Booked."}])).await;

    let (history, events) = h.prompt(None, "A table, please").await;
    let first = ask_event(&events).expect("the server's question is asked");
    assert!(first.tool_call_id.starts_with("question_"), "{}", first.tool_call_id);
    assert_eq!(first.origin, Some(AskOrigin::Elicitation));
    assert_eq!(first.server.as_deref(), Some("desk"));
    assert_eq!(first.tool_name.as_deref(), Some("desk__book_table"));
    assert_eq!(first.input["prompt"], "Who is the table for?");
    assert_eq!(h.pending(&history).await, Some(first.tool_call_id.clone()), "stored like any ask");
    assert!(tool_result(&events, "call_b").is_none(), "the call has no result yet");

    // The second round: the server asks more once it has the name.
    let second = h.answer(&history, &first.tool_call_id, filled(&first.input)).await;
    let seating = ask_event(&second).expect("the second round's question");
    assert_ne!(seating.tool_call_id, first.tool_call_id);
    assert_eq!(seating.input["prompt"], "Where should Ada Lovelace sit, and with how many?");

    // The requested schema bounds the guests; an answer outside them is refused and changes nothing.
    let mut too_many = filled(&seating.input);
    let fields = seating.input["fields"].as_array().unwrap();
    let guests = fields.iter().find(|field| field["label"] == "Guests").unwrap()["id"].as_str().unwrap().to_string();
    too_many["content"]["values"][&guests] = json!(40);
    let refused = h.try_answer(&history, &seating.tool_call_id, too_many).await.expect_err("refused");
    assert!(matches!(refused, AppError::InvalidAnswer { .. }), "{refused:?}");
    assert!(format!("{refused:?}").contains(&format!("values.{guests}")), "{refused:?}");
    assert_eq!(h.pending(&history).await, Some(seating.tool_call_id.clone()));

    let mut three = filled(&seating.input);
    three["content"]["values"][&guests] = json!(3);
    let done = h.answer(&history, &seating.tool_call_id, three).await;
    let result = tool_result(&done, "call_b").expect("the call finished");
    assert_eq!(result["result"], "Booked the garden for Ada Lovelace, 3 guests.", "{result}");
    assert_eq!(text(&done), "Booked.");
    assert_eq!(told(&h, "call_b")["result"]["result"], "Booked the garden for Ada Lovelace, 3 guests.");
    assert_eq!(stored_result(&h.rows(&history).await, "call_b").unwrap(), result, "the result is stored");
    assert_eq!(h.pending(&history).await, None);
    hub.shut_down().await;
}

#[tokio::test]
async fn the_question_outlives_a_restart_of_palaver_and_of_the_server() {
    let hub = desk("never").await;
    let h = harness_on(&hub, json!([call("call_g", "desk__greet", json!({}))])).await;
    let (history, events) = h.prompt(None, "Say hello").await;
    let question = ask_event(&events).expect("asked");
    // Palaver stops: its server process goes with it, and nothing of the call is in memory.
    hub.shut_down().await;

    let hub = desk("never").await;
    let restarted = h.restarted(json!([{"text": "Greeted."}]), served_by(&hub));
    let input = TurnInput::Answer { tool_call_id: question.tool_call_id.clone(), response: filled(&question.input) };
    let events = run_on(&restarted, h.request(Some(&history), input)).await;
    let result = tool_result(&events, "call_g").expect("the call finished after the restart");
    assert_eq!(result["result"], "Hello, Ada Lovelace.", "{result}");
    assert_eq!(text(&events), "Greeted.");
    hub.shut_down().await;
}

#[tokio::test]
async fn skip_reaches_the_server_and_a_new_message_ends_the_call_unfinished() {
    let hub = desk("never").await;
    let greet = |id: &str| call(id, "desk__greet", json!({}));
    let h =
        harness_on(&hub, json!([greet("call_a"), {"text": "Skipped."}, greet("call_b"), {"text": "Moved on."}])).await;
    let (history, events) = h.prompt(None, "Hello?").await;
    let skipped = h.answer(&history, &asked(&events).unwrap(), json!({"action": "decline"})).await;
    assert_eq!(tool_result(&skipped, "call_a").unwrap()["result"], "No one answered (decline).");
    assert_eq!(text(&skipped), "Skipped.");

    let (_, again) = h.prompt(Some(&history), "Hello again?").await;
    assert!(asked(&again).is_some());
    let (_, moved_on) = h.prompt(Some(&history), "Never mind").await;
    assert_eq!(text(&moved_on), "Moved on.");
    let ended = stored_result(&h.rows(&history).await, "call_b").expect("the call's row says how it ended");
    assert_eq!(ended["reason"], "user_sent_message", "{ended}");
    assert!(ended["error"].as_str().unwrap().contains("did not finish"), "{ended}");
    hub.shut_down().await;
}

#[tokio::test]
async fn an_approved_call_that_needs_input_asks_after_its_approval_and_runs_once() {
    let hub = desk("always").await;
    let h = harness_on(&hub, json!([call("call_a", "desk__greet", json!({})), {"text": "Done."}])).await;
    let (history, events) = h.prompt(None, "Greet, once approved").await;
    let approval = ask_event(&events).expect("the approval comes first");
    assert!(approval.tool_call_id.starts_with("approval_"), "{}", approval.tool_call_id);
    let approved =
        h.answer(&history, &approval.tool_call_id, json!({"action": "accept", "content": {"confirmed": true}})).await;
    let question = ask_event(&approved).expect("then the server's question");
    assert!(question.tool_call_id.starts_with("question_"), "{}", question.tool_call_id);
    let done = h.answer(&history, &question.tool_call_id, filled(&question.input)).await;
    assert_eq!(tool_result(&done, "call_a").unwrap()["result"], "Hello, Ada Lovelace.");
    assert_eq!(text(&done), "Done.");
    hub.shut_down().await;
}

#[tokio::test]
async fn the_questions_of_one_round_are_one_card() {
    let hub = desk("never").await;
    let h = harness_on(&hub, json!([call("call_v", "desk__plan_visit", json!({})), {"text": "Planned."}])).await;
    let (history, events) = h.prompt(None, "Plan a visit").await;
    let card = ask_event(&events).expect("asked");
    let labels: Vec<&str> =
        card.input["fields"].as_array().unwrap().iter().map(|field| field["label"].as_str().unwrap()).collect();
    // In the order of the requests' keys (`__main__:ask_day`, `__main__:ask_guest`): rmcp keeps
    // the requests in a sorted map, so the order the server wrote them in is not known.
    assert_eq!(labels, ["Day", "Name"], "both questions' fields on one card");
    assert_eq!(card.input["prompt"], "Which day?\n\nWho is the table for?");
    let done = h.answer(&history, &card.tool_call_id, filled(&card.input)).await;
    assert_eq!(tool_result(&done, "call_v").unwrap()["result"], "Ada Lovelace visits on 1990-12-10.");
    assert_eq!(text(&done), "Planned.");
    hub.shut_down().await;
}

#[tokio::test]
async fn the_steps_later_calls_run_once_the_held_call_has_its_result() {
    let hub = desk("never").await;
    let step = json!({"toolCalls": [{"id": "call_g", "name": "desk__greet", "input": {}},
        {"id": "call_h", "name": "desk__opening_hours", "input": {}}]});
    let h = harness_on(&hub, json!([step, {"text": "Done."}])).await;
    let (history, events) = h.prompt(None, "Greet, then the hours").await;
    let question = ask_event(&events).expect("asked");
    assert!(tool_result(&events, "call_h").is_none(), "the later call waits for the held one");

    let done = h.answer(&history, &question.tool_call_id, filled(&question.input)).await;
    assert_eq!(tool_result(&done, "call_g").unwrap()["result"], "Hello, Ada Lovelace.");
    assert_eq!(tool_result(&done, "call_h").unwrap()["result"], "Open from noon to eleven.");
    assert_eq!(text(&done), "Done.");
    assert_eq!(told(&h, "call_g")["result"]["result"], "Hello, Ada Lovelace.", "the model is told both");
    assert_eq!(told(&h, "call_h")["result"]["result"], "Open from noon to eleven.");
    let rows = h.rows(&history).await;
    let at = |wanted: &dyn Fn(&HistoryRow) -> bool| rows.iter().position(wanted).unwrap();
    let greeted = at(&|row| matches!(row, HistoryRow::ToolResult { tool_call_id, .. } if tool_call_id == "call_g"));
    let hours_called = at(&|row| matches!(row, HistoryRow::ToolCall { tool_call_id, .. } if tool_call_id == "call_h"));
    let hours = rows
        .iter()
        .filter(|row| matches!(row, HistoryRow::ToolResult { tool_call_id, .. } if tool_call_id == "call_h"));
    assert!(greeted < hours_called, "in the order they ran: {rows:?}");
    assert_eq!(hours.count(), 1, "the later call ran once: {rows:?}");
    hub.shut_down().await;
}

/// Answers the question as the app that drew it (`fromApp`: its server); the error when refused.
async fn answer_from_app(h: &crate::common::Harness, history: &str, ask: &str, result: Value) -> Result<(), AppError> {
    let input = TurnInput::Answer { tool_call_id: ask.into(), response: result };
    let mut request = h.request(Some(history), input);
    request.from_app = Some("desk".into());
    let mut handle = h.runner.start(request).await.map_err(palaver_core::error::Error::into_kind)?;
    while handle.events.recv().await.is_some() {}
    Ok(())
}

#[tokio::test]
async fn a_question_its_servers_app_draws_is_answered_by_the_app_and_checked_against_the_schema() {
    let hub = desk("never").await;
    let pick = |id: &str| call(id, "desk__pick_seat", json!({}));
    let greet = call("call_g", "desk__greet", json!({}));
    let responses = json!([pick("call_s"), {"text": "Seated."}, pick("call_t"), {"text": "Not seated."}, greet]);
    let h = harness_on(&hub, responses).await;
    let (history, events) = h.prompt(None, "A seat, please").await;
    let question = ask_event(&events).expect("asked");
    // Palaver said apps may draw its questions, so the server named its app; the card is there too.
    let app = question.app.clone().expect("the ask names the app that draws it");
    assert_eq!(app.resource_uri, "ui://desk/seat-picker.html");
    assert_eq!(app.params["message"], "Which seat would you like?");
    assert_eq!(app.params["requestedSchema"]["properties"]["seat"]["enum"], json!(["A1", "A2", "B4"]));
    assert_eq!(question.input["prompt"], "Which seat would you like?");

    // What the app sends is checked outside its sandbox: a seat the server never offered, or
    // content that is not an object, is refused, and the question still waits.
    let unoffered = json!({"action": "accept", "content": {"seat": "Z9"}});
    let refused = answer_from_app(&h, &history, &question.tool_call_id, unoffered).await.expect_err("refused");
    let AppError::InvalidAnswer { fields } = &refused else { panic!("{refused:?}") };
    assert_eq!(
        (fields[0].path.as_str(), fields[0].code.as_str()),
        ("content.seat", "OPTION_NOT_OFFERED"),
        "{fields:?}"
    );
    assert!(fields[0].message.contains("The app's answer"), "{fields:?}");
    let broken = json!({"action": "accept", "content": "B4"});
    assert!(answer_from_app(&h, &history, &question.tool_call_id, broken).await.is_err());
    assert_eq!(h.pending(&history).await, Some(question.tool_call_id.clone()));

    let picked = json!({"action": "accept", "content": {"seat": "B4"}});
    answer_from_app(&h, &history, &question.tool_call_id, picked).await.expect("the app's answer is taken");
    let rows = h.rows(&history).await;
    let result = stored_result(&rows, "call_s").unwrap();
    assert_eq!(result["text"], "Seat B4 is yours.", "{result}");
    assert_eq!(told(&h, "call_s")["result"]["text"], "Seat B4 is yours.");
    assert_eq!(h.pending(&history).await, None);

    // The same question answered on Palaver's card (a surface that draws no app) works as any
    // other; an app's answer to a question no app draws is refused.
    let (_, events) = h.prompt(Some(&history), "Another seat").await;
    let again = ask_event(&events).expect("asked again");
    let declined = h.answer(&history, &again.tool_call_id, json!({"action": "decline"})).await;
    assert_eq!(tool_result(&declined, "call_t").unwrap()["text"], "No seat was picked (decline).");
    let (_, events) = h.prompt(Some(&history), "Say hello").await;
    let greeting = ask_event(&events).expect("the greeting's question");
    assert!(greeting.app.is_none(), "no app draws it");
    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    let refused = answer_from_app(&h, &history, &greeting.tool_call_id, answer).await.expect_err("refused");
    assert!(matches!(refused, AppError::BadRequest(_)), "{refused:?}");
    assert_eq!(h.pending(&history).await, Some(greeting.tool_call_id.clone()));
    hub.shut_down().await;
}
