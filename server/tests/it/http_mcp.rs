//! An MCP server's elicitation over real HTTP, answered the way small clients answer: listed
//! with the other pending asks, a watch button for a URL-mode confirm, and a full answer for a
//! form page through the headless turn route. The server is the reference MCP server from npm
//! (`scripts/mcp`), over stdio.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::TestApp;
use palaver_core::mcp::McpHub;
use palaver_core::mcp::config::McpConfig;
use palaver_wire::accounts::Role;
use palaver_wire::body::McpServerState;

async fn everything() -> McpHub {
    everything_approving("never").await
}

/// server-everything over stdio, its calls approved as `approval` says (`never`, `always`, …).
pub(crate) async fn everything_approving(approval: &str) -> McpHub {
    let server = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    assert!(server.exists(), "the test MCP servers are not installed: run scripts/install-tools.sh --test");
    connected_hub(json!({"everything": {"command": "node", "args": [server, "stdio"], "approval": approval}})).await
}

/// A hub on these `mcpServers` entries, once every server has connected.
pub(crate) async fn connected_hub(servers: Value) -> McpHub {
    let hub = McpHub::start(McpConfig::parse(&json!({"mcpServers": servers}).to_string()).unwrap());
    for _ in 0..300 {
        if hub.status().servers.iter().all(|server| server.state == McpServerState::Connected) {
            return hub;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the MCP servers did not connect: {:?}", hub.status());
}

fn script(calls: Value) -> String {
    json!({"responses": calls}).to_string()
}

#[tokio::test]
async fn elicitations_are_answered_from_the_watch_list_and_the_headless_route() {
    let hub = everything().await;
    let url = json!({"toolCalls": [{"id": "call_u", "name": "everything__trigger-url-elicitation",
        "input": {"url": "https://pay.example.com/checkout"}}]});
    let form = json!({"toolCalls": [{"id": "call_f", "name": "everything__trigger-elicitation-request", "input": {}}]});
    let app = TestApp::with_mcp(&script(json!([url, {"text": "Paid."}, form, {"text": "Thanks."}])), hub.clone()).await;
    let ada = app.user("ada", Role::User).await;

    let events = app.prompt(&ada, json!({"prompt": "Pay, please"})).await;
    let history = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let (status, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(status, StatusCode::OK);
    let entry = &pending["data"][0];
    let question = entry["toolCallId"].as_str().unwrap().to_string();
    assert!(question.starts_with("question_"), "{question}");
    assert_eq!(entry["kind"], "confirm");
    let button = entry["simple"]["buttons"][0]["id"].as_str().unwrap().to_string();

    let turn = format!("/gpt/histories/{history}/turn");
    let (status, tapped) =
        app.json(&ada, "POST", &turn, Some(json!({"toolCallId": question, "buttonId": button}))).await;
    assert_eq!(status, StatusCode::OK, "{tapped}");
    assert_eq!(tapped["data"]["text"], "Paid.");
    assert!(tapped["data"].get("pendingAsk").is_none());

    let (status, asked) = app.json(&ada, "POST", &turn, Some(json!({"prompt": "Now the form"}))).await;
    assert_eq!(status, StatusCode::OK);
    let question = asked["data"]["pendingAsk"]["toolCallId"].clone();
    assert_eq!(asked["data"]["pendingAsk"]["kind"], "form");
    let refused = json!({"askResponse": {"toolCallId": question, "action": "accept", "content": {"values": {}}}});
    let (status, problem) = app.json(&ada, "POST", &turn, Some(refused)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "the name is required: {problem}");
    let answer = json!({"askResponse": {"toolCallId": question, "action": "accept",
        "content": {"values": {"name": "Ada Lovelace"}}}});
    let (status, next) = app.json(&ada, "POST", &turn, Some(answer)).await;
    assert_eq!(status, StatusCode::OK, "{next}");
    let second_page = next["data"]["pendingAsk"]["toolCallId"].clone();
    assert!(second_page.is_string() && second_page != question, "the second page: {next}");
    let skip = json!({"askResponse": {"toolCallId": second_page, "action": "decline"}});
    let (status, done) = app.json(&ada, "POST", &turn, Some(skip)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["data"]["text"], "Thanks.");

    let bob = app.user("bob", Role::User).await;
    let (_, others) = app.json(&bob, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(others["data"], json!([]), "another user never sees the question");
    hub.shut_down().await;
}
