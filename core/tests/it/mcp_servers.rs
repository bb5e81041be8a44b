//! Palaver as an MCP host against real servers from the npm registry, installed by
//! `scripts/install-tools.sh --test` at pinned versions into `scripts/mcp`: the reference
//! server (`server-everything`) over stdio and over streamable HTTP, and `server-filesystem`
//! on a temporary folder. The model is the scripted mock; the tools, their results and
//! their approvals are real.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness_of, harness_using, run_on, text, tool_result};
use palaver_core::error::Error;
use palaver_core::mcp::McpHub;
use palaver_core::mcp::config::McpConfig;
use palaver_core::turn::{TurnDependencies, TurnInput, TurnSettings};
use palaver_wire::body::{McpServerState, McpStatus};
use palaver_wire::conversation::model::TurnEvent;

pub(crate) fn servers_folder() -> PathBuf {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp/node_modules/@modelcontextprotocol");
    assert!(folder.is_dir(), "the test MCP servers are not installed: run scripts/install-tools.sh --test");
    folder
}

fn everything() -> String {
    servers_folder().join("server-everything/dist/index.js").display().to_string()
}

fn filesystem() -> String {
    servers_folder().join("server-filesystem/dist/index.js").display().to_string()
}

/// A hub on this configuration (`mcpServers` entries), once every server has connected.
pub(crate) async fn connected_hub(servers: Value) -> McpHub {
    let config = McpConfig::parse(&json!({ "mcpServers": servers }).to_string()).expect("the configuration");
    assert!(config.problems.is_empty(), "{:?}", config.problems);
    let hub = McpHub::start(config);
    wait_for(&hub, |status| status.servers.iter().all(|server| server.state == McpServerState::Connected)).await;
    hub
}

async fn wait_for(hub: &McpHub, done: impl Fn(&McpStatus) -> bool) -> McpStatus {
    for _ in 0..300 {
        let status = hub.status();
        if done(&status) {
            return status;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the MCP servers did not get there: {:?}", hub.status());
}

/// server-everything over stdio, its tools run without approvals (its questions are the point).
async fn everything_without_approvals() -> McpHub {
    connected_hub(json!({"everything": {"command": "node", "args": [everything(), "stdio"], "approval": "never"}}))
        .await
}

/// A runner's dependencies with the tools of `hub`'s servers.
pub(crate) fn served_by(hub: &McpHub) -> TurnDependencies {
    TurnDependencies { tool_sources: vec![std::sync::Arc::new(hub.clone())], ..TurnDependencies::default() }
}

pub(crate) async fn harness_on(hub: &McpHub, responses: Value) -> Harness {
    harness_using(responses, served_by(hub)).await
}

pub(crate) fn call(id: &str, name: &str, input: Value) -> Value {
    json!({"toolCalls": [{"id": id, "name": name, "input": input}]})
}

/// The tool message the model got back for `id` in its last request.
pub(crate) fn told(h: &Harness, id: &str) -> Value {
    let requests = h.model_requests();
    let messages = requests.last().expect("the model was called")["messages"].as_array().unwrap().clone();
    messages.into_iter().find(|message| message["toolCallId"] == id).unwrap_or_else(|| panic!("no result for {id}"))
}

#[tokio::test]
async fn the_reference_servers_tools_reach_the_model_and_their_results_come_back() {
    let hub = connected_hub(json!({"everything": {"command": "node", "args": [everything(), "stdio"]}})).await;
    let status = hub.status();
    let echo = status.servers[0].tools.iter().find(|tool| tool.name == "echo").expect("echo is listed");
    assert_eq!(echo.model_name, "everything__echo");
    assert!(!echo.needs_approval, "echo is read-only: unless-read-only runs it without asking");

    let h = harness_on(
        &hub,
        json!([
            call("call_echo", "everything__echo", json!({"message": "hello MCP"})),
            call("call_image", "everything__get-tiny-image", json!({})),
            {"text": "Done."}
        ]),
    )
    .await;
    let (_, events) = h.prompt(None, "Echo and show me an image").await;
    assert_eq!(tool_result(&events, "call_echo"), Some(json!({"text": "Echo: hello MCP"})));
    assert_eq!(text(&events), "Done.");
    let offered = h.model_requests()[0]["tools"].as_array().unwrap().clone();
    let echo = offered.iter().find(|tool| tool["name"] == "everything__echo").expect("echo is offered");
    assert!(echo["description"].as_str().unwrap().contains("(MCP server everything)"));
    assert_eq!(echo["inputSchema"]["properties"]["message"]["type"], "string");

    let image = told(&h, "call_image");
    assert!(image["result"]["text"].as_str().unwrap().contains("[image: image/png]"), "{image}");
    assert_eq!(image["parts"][0]["type"], "image-data");
    assert_eq!(image["parts"][0]["mimeType"], "image/png");
    assert!(!image["parts"][0]["data"].as_str().unwrap().is_empty());
    hub.shut_down().await;
}

#[tokio::test]
async fn a_streamable_http_server_is_used_like_a_stdio_one() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut server = tokio::process::Command::new("node")
        .args([everything(), "streamableHttp".into()])
        .env("PORT", port.to_string())
        .kill_on_drop(true)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("server-everything starts");
    let url = format!("http://127.0.0.1:{port}/mcp");
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let hub =
        connected_hub(json!({"remote": {"url": url, "headers": {"X-Palaver-Test": "yes"}, "approval": "never"}})).await;
    let status = hub.status();
    assert!(status.servers[0].transport.starts_with("http: "));
    assert!(status.servers[0].tools.iter().any(|tool| tool.model_name == "remote__echo"), "the tools are listed");
    let h = harness_on(
        &hub,
        json!([
            call("call_echo", "remote__echo", json!({"message": "over HTTP"})),
            call("call_image", "remote__get-tiny-image", json!({})),
            call("call_ask", "remote__trigger-elicitation-request", json!({})),
            {"text": "Done over HTTP."}
        ]),
    )
    .await;
    let (history, events) = h.prompt(None, "Use the remote server").await;
    assert_eq!(tool_result(&events, "call_echo"), Some(json!({"text": "Echo: over HTTP"})));
    assert!(tool_result(&events, "call_image").unwrap()["text"].as_str().unwrap().contains("[image: image/png]"));
    let question = asked(&events).expect("its elicitation is an ask here too");
    assert!(question.starts_with("question_"), "{question}");
    let skipped = h.answer(&history, &question, json!({"action": "decline"})).await;
    assert!(tool_result(&skipped, "call_ask").unwrap()["text"].as_str().unwrap().contains("declined"));
    assert_eq!(told(&h, "call_image")["parts"][0]["mimeType"], "image/png");
    assert_eq!(text(&skipped), "Done over HTTP.");
    hub.shut_down().await;
    let _ = server.kill().await;
}

#[tokio::test]
async fn a_write_with_keys_the_tool_does_not_take_is_refused_before_any_approval_and_writes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let root = folder.path().canonicalize().unwrap();
    let hub =
        connected_hub(json!({"files": {"command": "node", "args": [filesystem(), root.display().to_string()]}})).await;
    let target = root.join("unseen.txt");
    // Six made-up keys that sort before `content` and `path`: they once pushed the real ones
    // out of the approval's view, and server-filesystem ignores them.
    let hidden = ["a_note", "b_mode", "c_backup", "d_reason", "e_encoding", "f_checked"];
    let mut input = json!({"content": "written past the card", "path": target.display().to_string()});
    for key in hidden {
        input[key] = json!("fine");
    }
    let h =
        harness_on(&hub, json!([call("call_hidden", "files__write_file", input), {"text": "Refused, then."}])).await;

    let (_, events) = h.prompt(None, "Write with hidden keys").await;
    assert_eq!(asked(&events), None, "no approval is asked for a call that would not run as shown");
    let refused = tool_result(&events, "call_hidden").expect("the refusal is the call's result");
    assert_eq!(refused["reason"], "unknown_arguments");
    assert_eq!(refused["unknownArguments"], json!(hidden));
    let told = told(&h, "call_hidden");
    let error = told["result"]["error"].as_str().expect("the model is told, as the tool's error");
    assert!(error.contains("\"a_note\"") && error.contains("It takes only \"path\", \"content\""), "{error}");
    assert_eq!(text(&events), "Refused, then.");
    assert!(!target.exists(), "nothing is written");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_write_runs_once_after_an_approval_and_never_after_a_deny() {
    let folder = tempfile::tempdir().unwrap();
    let root = folder.path().canonicalize().unwrap();
    let hub =
        connected_hub(json!({"files": {"command": "node", "args": [filesystem(), root.display().to_string()]}})).await;
    let write = |id: &str, name: &str| {
        let path = root.join(name).display().to_string();
        call(id, "files__write_file", json!({"path": path, "content": "written by Palaver"}))
    };
    let h = harness_on(&hub, json!([write("call_no", "denied.txt"), {"text": "Not written."}, write("call_yes", "approved.txt"), {"text": "Written."}])).await;

    let (history, events) = h.prompt(None, "Write denied.txt").await;
    let approval_id = asked(&events).expect("an approval");
    let ask = events
        .iter()
        .find_map(|event| match event {
            TurnEvent::Ask { ask, .. } => Some(ask.clone()),
            _ => None,
        })
        .unwrap();
    let approval = &ask.input;
    let prompt = approval["prompt"].as_str().unwrap();
    assert!(prompt.contains("Write File") && prompt.contains("\"files\""), "names the tool and the server: {prompt}");
    assert_eq!(ask.server.as_deref(), Some("files"));
    assert_eq!(ask.tool_title.as_deref(), Some("Write File"), "the server's title for its tool");
    let arguments: Vec<(String, Value, bool)> = ask
        .arguments
        .clone()
        .expect("the approval carries the call's arguments")
        .into_iter()
        .map(|argument| (argument.key, argument.value, argument.outside_schema))
        .collect();
    let path = root.join("denied.txt").display().to_string();
    assert_eq!(
        arguments,
        [("path".into(), json!(path), false), ("content".into(), json!("written by Palaver"), false)],
        "every argument, whole, the schema's required ones in its order"
    );
    assert_eq!(approval["destructive"], true, "write_file is marked destructive");
    let denied = h.answer(&history, &approval_id, json!({"action": "accept", "content": {"confirmed": false}})).await;
    assert_eq!(tool_result(&denied, "call_no"), Some(json!({"approved": false, "reason": "user_denied"})));
    assert!(!root.join("denied.txt").exists(), "a denied write never runs");

    let (_, events) = h.prompt(Some(&history), "Write approved.txt").await;
    let approval_id = asked(&events).expect("an approval");
    assert!(!root.join("approved.txt").exists(), "nothing runs before the approval");
    let approved = h.answer(&history, &approval_id, json!({"action": "accept", "content": {"confirmed": true}})).await;
    assert_eq!(text(&approved), "Written.");
    assert_eq!(std::fs::read_to_string(root.join("approved.txt")).unwrap(), "written by Palaver");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_server_that_cannot_start_is_reported_and_the_chat_goes_on() {
    let config = McpConfig::parse(
        &json!({"mcpServers": {
            "ghost": {"command": "/nonexistent/mcp-server"},
            "mute": {"command": "node", "args": ["-e", "setTimeout(() => {}, 60000)"], "timeoutSeconds": 1},
            "noisy": {"command": "node", "args": ["-e", "console.log('not JSON-RPC at all'); setTimeout(() => {}, 60000)"], "timeoutSeconds": 1}
        }})
        .to_string(),
    )
    .unwrap();
    let hub = McpHub::start(config);
    let status = wait_for(&hub, |status| status.servers.iter().all(|server| server.last_error.is_some())).await;
    let error_of = |name: &str| {
        let server = status.servers.iter().find(|server| server.name == name).unwrap();
        assert_ne!(server.state, McpServerState::Connected);
        server.last_error.clone().unwrap()
    };
    assert!(error_of("ghost").contains("\"/nonexistent/mcp-server\" could not be started"));
    assert!(error_of("mute").contains("did not finish starting within 1 s"), "{}", error_of("mute"));
    assert!(!error_of("noisy").is_empty());

    let h = harness_on(&hub, json!([call("call_ghost", "ghost__anything", json!({})), {"text": "Still here."}])).await;
    let (_, events) = h.prompt(None, "Use the ghost").await;
    assert!(tool_result(&events, "call_ghost").is_none(), "an unknown tool is not run");
    assert_eq!(told(&h, "call_ghost")["result"]["error"], "There is no tool named \"ghost__anything\".");
    assert_eq!(text(&events), "Still here.");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_call_past_its_timeout_is_cancelled_and_a_stop_cancels_a_running_call() {
    let hub =
        // 3 s: the timeout bounds the server's start too, which a busy machine can take over 1 s for.
        connected_hub(json!({"slow": {"command": "node", "args": [everything(), "stdio"], "timeoutSeconds": 3}})).await;
    let long = |id: &str| call(id, "slow__trigger-long-running-operation", json!({"duration": 30, "steps": 30}));
    let echo = call("call_echo", "slow__echo", json!({"message": "back"}));
    let h = harness_on(
        &hub,
        json!([long("call_slow"), {"text": "It timed out."}, long("call_stopped"), echo, {"text": "Back again."}]),
    )
    .await;
    let (_, events) = h.prompt(None, "Run the slow thing").await;
    let timed_out = tool_result(&events, "call_slow").expect("a result");
    assert!(timed_out["error"].as_str().unwrap().contains("did not answer within 3 s"), "{timed_out}");
    assert_eq!(text(&events), "It timed out.");

    let mut handle = h.runner.start(h.request(None, TurnInput::Prompt("Run it again".into()))).await.unwrap();
    let history = handle.history_id.clone();
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        if matches!(&event, TurnEvent::ToolCall { .. }) {
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(h.running.stop(&history).await);
        }
        events.push(event);
    }
    let stopped = tool_result(&events, "call_stopped").expect("a result");
    assert!(stopped["error"].as_str().unwrap().contains("stopped"), "{stopped}");

    // An abandoned call may still run on the server (and ask for it): the server is started
    // afresh before the next call, which then goes through.
    let (_, events) = h.prompt(None, "Echo after the stop").await;
    assert_eq!(tool_result(&events, "call_echo"), Some(json!({"text": "Echo: back"})), "{events:?}");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_read_only_tool_from_pypi_runs_without_an_approval() {
    let time = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp/.venv/bin/mcp-server-time");
    assert!(time.exists(), "mcp-server-time is not installed: run scripts/install-tools.sh --test");
    let hub = connected_hub(json!({"time": {"command": time}})).await;
    let h = harness_on(
        &hub,
        json!([call("call_time", "time__get_current_time", json!({"timezone": "Europe/Paris"})), {"text": "It is late."}]),
    )
    .await;
    let (history, events) = h.prompt(None, "What time is it in Paris?").await;
    assert_eq!(asked(&events), None, "a read-only tool asks for no approval");
    let now = tool_result(&events, "call_time").expect("a result");
    assert!(now.to_string().contains("Europe/Paris"), "{now}");
    assert_eq!(h.pending(&history).await, None);
    hub.shut_down().await;
}

#[tokio::test]
async fn a_server_that_dies_mid_call_or_floods_gives_the_model_a_clear_result() {
    let mcp = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    let python = mcp.join(".venv/bin/python");
    let faulty = mcp.join("faulty_server.py").display().to_string();
    let hub = connected_hub(json!({"faulty": {"command": python, "args": [faulty], "approval": "never"}})).await;
    let h = harness_on(
        &hub,
        json!([
            call("call_flood", "faulty__flood", json!({"megabytes": 5})),
            call("call_crash", "faulty__crash", json!({})),
            {"text": "That went badly."}
        ]),
    )
    .await;
    let (_, events) = h.prompt(None, "Break things").await;
    let flood = tool_result(&events, "call_flood").expect("a result");
    let flood_text = flood["text"].as_str().unwrap();
    assert!(flood_text.len() < palaver_core::mcp::OUTPUT_MAX_BYTES + 200);
    assert!(flood_text.ends_with("[Output cut: the tool returned 5120 KB; the first 100 KB are shown.]"));
    let crash = tool_result(&events, "call_crash").expect("a result");
    assert!(crash["error"].as_str().unwrap().contains("The MCP server \"faulty\" failed the call"), "{crash}");
    assert_eq!(text(&events), "That went badly.");

    // The supervisor starts it again.
    let status = wait_for(&hub, |status| {
        status.servers[0].state == McpServerState::Connected && status.servers[0].last_error.is_some()
    })
    .await;
    assert!(!status.servers[0].tools.is_empty());
    hub.shut_down().await;
}

/// The ask event of a turn's events.
pub(crate) fn ask_event(events: &[TurnEvent]) -> Option<palaver_wire::conversation::model::AskEvent> {
    events.iter().find_map(|event| match event {
        TurnEvent::Ask { ask, .. } => Some((**ask).clone()),
        _ => None,
    })
}

/// A valid value for each field of a form ask, by its type.
pub(crate) fn filled(input: &Value) -> Value {
    let values: serde_json::Map<String, Value> = input["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|field| {
            let first = field["options"][0]["id"].clone();
            let value = match field["type"].as_str().unwrap() {
                "email" => json!("ada@example.com"),
                "url" => json!("https://ada.example.com"),
                "date" => json!("1990-12-10"),
                "number" => field.get("default").cloned().unwrap_or(json!(7)),
                "boolean" => json!(true),
                "select" => first,
                "multiselect" => json!([first]),
                _ => json!("Ada Lovelace"),
            };
            (field["id"].as_str().unwrap().to_string(), value)
        })
        .collect();
    json!({"action": "accept", "content": {"values": values}})
}

#[tokio::test]
async fn an_elicitation_is_asked_as_forms_and_the_answers_reach_the_server() {
    let hub = everything_without_approvals().await;
    // The reference server speaks a revision before 2026-07-28: it asks in the middle of the call.
    let revision = hub.status().servers[0].revision.clone().expect("the revision is known once connected");
    assert!(revision.as_str() < "2026-07-28", "{revision}");
    let h = harness_on(
        &hub,
        json!([call("call_e", "everything__trigger-elicitation-request", json!({})), {"text": "Thanks."}]),
    )
    .await;
    let (history, events) = h.prompt(None, "Ask me things").await;
    let first = ask_event(&events).expect("the turn asks the server's question");
    assert!(first.tool_call_id.starts_with("question_"), "{}", first.tool_call_id);
    assert_eq!(first.origin, Some(palaver_wire::conversation::model::AskOrigin::Elicitation));
    assert_eq!(first.server.as_deref(), Some("everything"));
    assert_eq!(first.input["title"], "The MCP server \"everything\" asks (1 of 2)");
    assert_eq!(first.input["fields"].as_array().unwrap().len(), 8);
    assert!(matches!(events.last(), Some(TurnEvent::Done { pending_ask: Some(_), .. })));
    assert_eq!(h.pending(&history).await, Some(first.tool_call_id.clone()), "the ask is stored like any other");

    let second = h.answer(&history, &first.tool_call_id, filled(&first.input)).await;
    let second_ask = ask_event(&second).expect("the second page");
    assert!(second_ask.tool_call_id.starts_with("question_") && second_ask.tool_call_id != first.tool_call_id);

    // The schema wants at least one instrument: the contract's form cannot say so, the check can.
    let mut none_picked = filled(&second_ask.input);
    none_picked["content"]["values"]["untitledmultipleselectenum"] = json!([]);
    let refused = h
        .runner
        .start(h.request(
            Some(&history),
            TurnInput::Answer { tool_call_id: second_ask.tool_call_id.clone(), response: none_picked },
        ))
        .await
        .err()
        .expect("refused");
    assert_eq!(refused.kind().status_code(), 400);
    assert!(format!("{refused:?}").contains("values.untitledmultipleselectenum"), "{refused:?}");
    assert_eq!(h.pending(&history).await, Some(second_ask.tool_call_id.clone()), "a refused answer changes nothing");

    let last = h.answer(&history, &second_ask.tool_call_id, filled(&second_ask.input)).await;
    let result = tool_result(&last, "call_e").expect("the tool finished");
    let result = result["text"].as_str().unwrap();
    assert!(result.contains("User provided the requested information"), "{result}");
    assert!(result.contains("Ada Lovelace") && result.contains("ada@example.com"), "{result}");
    assert_eq!(text(&last), "Thanks.");
    assert_eq!(h.pending(&history).await, None);
    hub.shut_down().await;
}

#[tokio::test]
async fn skip_declines_a_new_message_cancels_and_a_restart_loses_the_question() {
    let hub = everything_without_approvals().await;
    let elicit = |id: &str| call(id, "everything__trigger-elicitation-request", json!({}));
    let h = harness_on(
        &hub,
        json!([elicit("call_a"), {"text": "Skipped."}, elicit("call_b"), {"text": "On to the new message."}, elicit("call_c")]),
    )
    .await;
    let (history, events) = h.prompt(None, "Ask me").await;
    let skipped = h.answer(&history, &asked(&events).unwrap(), json!({"action": "decline"})).await;
    assert!(tool_result(&skipped, "call_a").unwrap()["text"].as_str().unwrap().contains("declined"));
    assert_eq!(text(&skipped), "Skipped.");

    let (_, asked_again) = h.prompt(Some(&history), "Ask again").await;
    let question = asked(&asked_again).expect("asked");
    let (_, moved_on) = h.prompt(Some(&history), "Never mind").await;
    assert_eq!(text(&moved_on), "On to the new message.");
    let rows = h.rows(&history).await;
    let cancelled = rows.iter().any(|row| {
        matches!(row, palaver_wire::conversation::model::HistoryRow::ToolResult { tool_call_id, result, .. }
        if *tool_call_id == question && result["reason"] == "user_sent_message")
    });
    assert!(cancelled, "{rows:?}");

    // A runner that never asked (a restarted process) answers: the question is gone.
    let (_, asked_last) = h.prompt(Some(&history), "One more").await;
    let last = ask_event(&asked_last).unwrap();
    let restarted = h.restarted(json!([{"text": "It was lost."}]), TurnDependencies::default());
    let input = TurnInput::Answer { tool_call_id: last.tool_call_id.clone(), response: filled(&last.input) };
    let events = run_on(&restarted, h.request(Some(&history), input)).await;
    assert!(tool_result(&events, "call_c").unwrap()["error"].as_str().unwrap().contains("Palaver restarted"));
    assert_eq!(text(&events), "It was lost.");
    let rows = h.rows(&history).await;
    let gone = rows.iter().any(|row| {
        matches!(row, palaver_wire::conversation::model::HistoryRow::ToolResult { tool_call_id, result, .. }
        if *tool_call_id == last.tool_call_id && result["reason"] == "server_request_gone")
    });
    assert!(gone, "the card says why: {rows:?}");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_url_elicitation_is_a_confirm_that_names_the_host() {
    let hub = everything_without_approvals().await;
    let open =
        call("call_u", "everything__trigger-url-elicitation", json!({"url": "https://pay.example.com/checkout"}));
    let h = harness_on(&hub, json!([open, {"text": "Opened."}])).await;
    let (history, events) = h.prompt(None, "Pay").await;
    let ask = ask_event(&events).expect("a confirm");
    assert_eq!(ask.kind, palaver_contract::asks::AskKind::Confirm);
    assert_eq!(ask.url.as_deref(), Some("https://pay.example.com/checkout"));
    assert!(ask.input["prompt"].as_str().unwrap().contains("The link opens pay.example.com."));
    assert_eq!(ask.link_host.as_deref(), Some("pay.example.com"), "the card shows the host as Palaver's own line");
    let tapped =
        h.answer(&history, &ask.tool_call_id, json!({"action": "accept", "content": {"confirmed": true}})).await;
    let result = tool_result(&tapped, "call_u").expect("the tool finished");
    assert!(result.to_string().contains("accept"), "{result}");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_stdio_server_sees_none_of_palavers_secrets_only_its_own_env() {
    // Cargo gives the test process this variable; the server must not see it (nor any other of
    // Palaver's own, such as a provider's key).
    let own = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR for a test");
    let hub = connected_hub(json!({"everything": {"command": "node", "args": [everything(), "stdio"],
        "env": {"GREETING": "hello"}}}))
    .await;
    let h = harness_on(&hub, json!([call("call_env", "everything__get-env", json!({})), {"text": "Seen."}])).await;
    let (_, events) = h.prompt(None, "Show the environment").await;
    let env = tool_result(&events, "call_env").expect("a result").to_string();
    assert!(!env.contains("CARGO_MANIFEST_DIR") && !env.contains(&own), "{env}");
    assert!(env.contains("GREETING") && env.contains("PATH"), "{env}");
    hub.shut_down().await;
}

#[tokio::test]
async fn a_question_left_open_holds_its_server_only_until_it_expires_and_another_users_call_is_served() {
    let hub = connected_hub(json!({"everything": {"command": "node", "args": [everything(), "stdio"],
        "approval": "never", "timeoutSeconds": 20, "answerTimeoutSeconds": 2}}))
    .await;
    let conversation = |first: Value| json!({"responses": [first, {"text": "Done."}]});
    let script = json!({"responses": [], "conversations": {
        "Ask me": conversation(call("call_ada", "everything__trigger-elicitation-request", json!({}))),
        "Echo": conversation(call("call_bob", "everything__echo", json!({"message": "served"}))),
    }});
    let h = harness_of(script, TurnSettings::default(), served_by(&hub)).await;
    let sweeper = h.runner.spawn_sweeper();

    // Ada's call asks her a question, and she walks away from it.
    let (ada_history, events) = h.prompt(None, "Ask me").await;
    let question = asked(&events).expect("asked");

    // Bob's call on the same server waits for it: her question expires at the server's
    // answerTimeoutSeconds, her call ends, and his is served within its own timeout.
    let bob = h.another_user("bob").await;
    let served = tokio::time::timeout(Duration::from_secs(20), h.turn_as(&bob, None, TurnInput::Prompt("Echo".into())))
        .await
        .expect("Bob's call is served within its timeout");
    assert_eq!(tool_result(&served, "call_bob"), Some(json!({"text": "Echo: served"})), "{served:?}");

    // Her ask ended as expired, by the usual move.
    let rows = h.rows(&ada_history).await;
    let expired = rows.iter().any(|row| {
        matches!(row, palaver_wire::conversation::model::HistoryRow::ToolCall { tool_call_id, ask: Some(ask), .. }
        if *tool_call_id == question && ask.status == palaver_wire::conversation::model::AskStatus::Expired)
    });
    assert!(expired, "{rows:?}");

    // Her turn went on without the call: the model was told why it failed.
    let told_ada = || {
        h.model_requests().into_iter().find_map(|request| {
            request["messages"].as_array()?.iter().find(|message| message["toolCallId"] == "call_ada").cloned()
        })
    };
    for _ in 0..100 {
        if told_ada().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    sweeper.abort();
    let timed_out = json!({"error": "The user did not answer the tool's question in time, so the call was cancelled."});
    assert_eq!(told_ada().map(|message| message["result"].clone()), Some(timed_out), "the model learns the call ended");

    // Nothing is left to answer for a call that is gone.
    let late = TurnInput::Answer { tool_call_id: question, response: json!({"action": "decline"}) };
    let refused = h.runner.start(h.request(Some(&ada_history), late)).await.err().map(Error::into_kind);
    assert!(matches!(refused, Some(palaver_wire::error::AppError::ExpiredAsk { .. })), "{refused:?}");
    hub.shut_down().await;
}

#[tokio::test]
async fn an_unanswered_elicitation_expires_a_stopped_one_is_cancelled_and_the_trail_has_both() {
    let hub = everything_without_approvals().await;
    let elicit = |id: &str| call(id, "everything__trigger-elicitation-request", json!({}));
    let settings = TurnSettings {
        // Long enough that the second question is still waiting when it is stopped on a busy
        // machine; the first is left to expire.
        ask_ttl: Duration::from_secs(3),
        ..TurnSettings::default()
    };
    let echo = call("call_echo", "everything__echo", json!({"message": "still here"}));
    // Each conversation has its own script: the one whose question expires goes on by itself.
    let script = json!({"responses": [], "conversations": {
        "Ask me": {"responses": [elicit("call_a"), {"text": "You did not answer."}]},
        "Ask me again": {"responses": [elicit("call_b")]},
        "Echo": {"responses": [echo, {"text": "Done."}]},
    }});
    let h = harness_of(script, settings, served_by(&hub)).await;

    let (history, events) = h.prompt(None, "Ask me").await;
    let question = asked(&events).expect("asked");
    assert!(ask_event(&events).and_then(|ask| ask.expires_at).is_some(), "a tool's question has a deadline too");
    let sweeper = h.runner.spawn_sweeper();
    for _ in 0..100 {
        if h.pending(&history).await.is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    sweeper.abort();
    assert_eq!(h.pending(&history).await, None, "expired");
    let rows = h.rows(&history).await;
    let expired = rows.iter().any(|row| {
        matches!(row, palaver_wire::conversation::model::HistoryRow::ToolCall { tool_call_id, ask: Some(ask), .. }
        if *tool_call_id == question && ask.status == palaver_wire::conversation::model::AskStatus::Expired)
    });
    assert!(expired, "{rows:?}");

    // A question the user stops is cancelled by Palaver, for the user.
    let (history, events) = h.prompt(None, "Ask me again").await;
    assert_eq!(h.pending(&history).await, asked(&events));
    assert!(h.running.stop(&history).await, "the turn waits on its tool's question");
    for _ in 0..50 {
        if h.pending(&history).await.is_none() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 10).await.unwrap().entries;
    let endings: Vec<(&str, Option<&str>, &str)> =
        trail.iter().map(|entry| (entry.decision.as_str(), entry.reason.as_deref(), entry.surface.as_str())).collect();
    assert_eq!(endings, [("cancel", Some("user_stopped"), "palaver"), ("expired", Some("expired"), "palaver")]);

    // The server took both endings in its stride: the next call goes through.
    let (_, events) = h.prompt(None, "Echo").await;
    assert_eq!(tool_result(&events, "call_echo"), Some(json!({"text": "Echo: still here"})), "{events:?}");
    hub.shut_down().await;
}

#[tokio::test]
async fn an_mcp_tools_person_only_argument_is_asked_of_the_person_and_the_call_runs_with_it() {
    let mcp = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    let python = mcp.join(".venv/bin/python");
    let booking = mcp.join("booking_server.py").display().to_string();
    let hub = connected_hub(json!({"booking": {"command": python, "args": [booking], "approval": "never"}})).await;
    let h = harness_on(
        &hub,
        json!([
            call("call_book", "booking__book_table", json!({"place": "Chez Ada", "time": "12:00"})),
            {"text": "Booked."}
        ]),
    )
    .await;
    let (history, events) = h.prompt(None, "Book us a table at Chez Ada").await;
    let offered = h.model_requests()[0]["tools"].clone();
    let tool = offered.as_array().unwrap().iter().find(|tool| tool["name"] == "booking__book_table").unwrap().clone();
    assert!(tool["inputSchema"]["properties"].get("time").is_none(), "the model is offered no time: {tool}");
    let ask_id = asked(&events).expect("the call waits on the person");
    let pending = palaver_core::turn::store::pending_ask(&h.pool, &history).await.unwrap().unwrap();
    assert_eq!(pending.ask.input["fields"][0]["label"], "Time");
    assert_eq!(pending.ask.input["fields"][0]["helperText"], "When the table is for, as HH:mm");
    assert!(!pending.ask.input.to_string().contains("12:00"));

    let answer = json!({"action": "accept", "content": {"values": {"f1": "19:30"}}});
    let events = h.answer(&history, &ask_id, answer).await;
    let booked = tool_result(&events, "call_book").expect("the call ran");
    assert!(booked.to_string().contains("Booked Chez Ada at 19:30."), "{booked}");
    assert_eq!(text(&events), "Booked.");
    hub.shut_down().await;
}
