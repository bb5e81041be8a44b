//! MCP's tasks extension (2026-07-28): a call the server runs as a task is followed with
//! `tasks/get` until it ends; a task that needs the person's input is a durable ask answered with
//! `tasks/update`; Stop cancels it with `tasks/cancel`. The server is ours, on the official Python
//! SDK from PyPI (`scripts/mcp/task_server.py`), whose tasks move one step on each look, so
//! nothing here waits on the time.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{harness_of, text, tool_result};
use crate::mcp_servers::{ask_event, call, connected_hub, harness_on, served_by, servers_folder};
use palaver_core::mcp::McpHub;
use palaver_core::turn::{TurnInput, TurnSettings};
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};

/// The task server over stdio, and the log of its tasks.
struct TaskServer {
    hub: McpHub,
    log: PathBuf,
    _folder: tempfile::TempDir,
}

impl TaskServer {
    async fn start() -> TaskServer {
        let folder = tempfile::tempdir().unwrap();
        let log = folder.path().join("tasks.log");
        let mcp = servers_folder().join("../..");
        let python = mcp.join(".venv/bin/python").display().to_string();
        let server = mcp.join("task_server.py").display().to_string();
        let env = json!({"TASK_LOG": log.display().to_string()});
        let servers = json!({"tasks": {"command": python, "args": [server], "env": env, "approval": "never"}});
        TaskServer { hub: connected_hub(servers).await, log, _folder: folder }
    }

    /// The log's lines once one starts with `prefix` (or after 20 s).
    async fn logged(&self, prefix: &str) -> Vec<String> {
        logged(&self.log, prefix).await
    }

    /// Asserts that the one task the server made was cancelled on it.
    async fn cancelled_its_task(&self) {
        let lines = self.logged("cancelled").await;
        let created = lines[0].strip_prefix("created ").unwrap();
        assert!(lines.contains(&format!("cancelled {created}")), "the task was cancelled on the server: {lines:?}");
    }
}

async fn logged(log: &Path, prefix: &str) -> Vec<String> {
    let started = Instant::now();
    loop {
        let lines: Vec<String> = std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_string).collect();
        if lines.iter().any(|line| line.starts_with(prefix)) || started.elapsed() > Duration::from_secs(20) {
            return lines;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_task_is_followed_through_its_question_to_its_result() {
    let server = TaskServer::start().await;
    let h =
        harness_on(&server.hub, json!([call("call_c", "tasks__count_guests", json!({})), {"text": "Counted."}])).await;
    let (history, events) = h.prompt(None, "Count the guests").await;
    let said: Vec<&str> = events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::ToolStatus { tool_status } if tool_status.tool_call_id == "call_c" => {
                Some(tool_status.message.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(said, ["Looking at the list", "Waiting for the count"], "each new status once, live");
    let question = ask_event(&events).expect("the task's question is asked");
    assert_eq!(question.input["prompt"], "How many guests are coming?");
    assert_eq!(question.server.as_deref(), Some("tasks"));
    let guests = question.input["fields"][0]["id"].as_str().unwrap().to_string();
    // The task finds 30 too many and asks again under the same key: a new card, not a hang.
    let answer = json!({"action": "accept", "content": {"values": {&guests: 30}}});
    let again = ask_event(&h.answer(&history, &question.tool_call_id, answer).await).expect("asked again");
    assert_ne!(again.tool_call_id, question.tool_call_id);
    let answer = json!({"action": "accept", "content": {"values": {guests: 4}}});
    let done = h.answer(&history, &again.tool_call_id, answer).await;
    assert_eq!(tool_result(&done, "call_c"), Some(json!({"text": "4 guests are coming."})), "{done:?}");
    assert_eq!(text(&done), "Counted.");
    server.hub.shut_down().await;
}

#[tokio::test]
async fn stop_cancels_a_running_task_on_the_server() {
    let server = TaskServer::start().await;
    let h = harness_on(&server.hub, json!([call("call_f", "tasks__count_forever", json!({}))])).await;
    let mut handle = h.runner.start(h.request(None, TurnInput::Prompt("Count for ever".into()))).await.unwrap();
    let history = handle.history_id.clone();
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::ToolCall { .. }) {
            // Stopped once Palaver follows the task (not while the task is on its way to it).
            assert!(server.logged("looked").await.iter().any(|line| line.starts_with("looked")));
            assert!(h.running.stop(&history).await);
        }
        events.push(event);
    }
    let stopped = tool_result(&events, "call_f").expect("a result");
    assert!(stopped["error"].as_str().unwrap().contains("stopped"), "{stopped}");
    server.cancelled_its_task().await;
    server.hub.shut_down().await;
}

#[tokio::test]
async fn a_task_whose_question_is_left_for_a_new_message_is_cancelled_on_the_server() {
    let server = TaskServer::start().await;
    let h =
        harness_on(&server.hub, json!([call("call_c", "tasks__count_guests", json!({})), {"text": "Moved on."}])).await;
    let (history, events) = h.prompt(None, "Count the guests").await;
    assert!(ask_event(&events).is_some(), "the task's question is asked");
    let (_, moved_on) = h.prompt(Some(&history), "Never mind").await;
    assert_eq!(text(&moved_on), "Moved on.");
    server.cancelled_its_task().await;
    server.hub.shut_down().await;
}

#[tokio::test]
async fn a_task_whose_input_cannot_be_asked_is_cancelled_and_the_model_told_why() {
    let server = TaskServer::start().await;
    // The model's own ask comes first in the step: the task's question cannot be asked beside it.
    let pick = json!({"id": "call_pick", "name": "ask_choice", "input": {"prompt": "Which one?", "select": "one",
        "options": [{"id": "a", "label": "Apples"}, {"id": "b", "label": "Pears"}]}});
    let count = json!({"id": "call_c", "name": "tasks__count_guests", "input": {}});
    let h = harness_on(&server.hub, json!([{"toolCalls": [pick, count]}])).await;
    let (_, events) = h.prompt(None, "Choose, and count").await;
    assert!(!ask_event(&events).expect("the model's ask").tool_call_id.starts_with("question_"));
    let refused = tool_result(&events, "call_c").expect("the call ended");
    assert!(refused["error"].as_str().unwrap().contains("waits on another question"), "{refused}");
    server.cancelled_its_task().await;
    server.hub.shut_down().await;
}

#[tokio::test]
async fn a_task_whose_question_expires_ends_unfinished_and_is_cancelled_on_the_server() {
    let server = TaskServer::start().await;
    let settings = TurnSettings { ask_ttl: Duration::from_secs(1), ..TurnSettings::default() };
    let script = json!({"responses": [call("call_c", "tasks__count_guests", json!({}))]});
    let h = harness_of(script, settings, served_by(&server.hub)).await;
    let (history, events) = h.prompt(None, "Count the guests").await;
    assert!(ask_event(&events).is_some(), "the task's question is asked");
    let sweeper = h.runner.spawn_sweeper();
    let started = Instant::now();
    while h.pending(&history).await.is_some() {
        assert!(started.elapsed() < Duration::from_secs(20), "the question expires");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    sweeper.abort();
    let ended = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == "call_c" => Some(result),
        _ => None,
    });
    let ended = ended.expect("the call's row says how it ended");
    assert_eq!(ended["reason"], "expired", "{ended}");
    server.cancelled_its_task().await;
    server.hub.shut_down().await;
}
