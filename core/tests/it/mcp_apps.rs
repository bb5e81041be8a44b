//! MCP Apps (the `io.modelcontextprotocol/ui` extension), the host's server half: a tool's app
//! is read from its own server and checked, and an app calls only its own server's tools that
//! let apps call them. The servers are the extension's own examples from npm
//! (`@modelcontextprotocol/server-basic-vanillajs`, `server-system-monitor`) and ours on the
//! Python SDK (`scripts/mcp/input_server.py`, whose seating chart declares a CSP).

use serde_json::{Map, json};

use crate::mcp_input::desk_entry;
use crate::mcp_servers::{connected_hub, servers_folder};
use palaver_core::mcp::{AppProblem, McpHub};
use palaver_core::turn::tools::ToolSource;
use palaver_wire::apps::{AppCsp, AppPermissions, AppToolCall};

/// An example server from the extension's repository, over stdio.
fn example(package: &str) -> serde_json::Value {
    let script = servers_folder().join(package).join("dist/index.js").display().to_string();
    json!({"command": "node", "args": [script, "--stdio"], "approval": "never"})
}

async fn hub() -> McpHub {
    connected_hub(json!({
        "basic": example("server-basic-vanillajs"),
        "monitor": example("server-system-monitor"),
        "desk": desk_entry("never"),
    }))
    .await
}

fn app_call(app_tool: &str, name: &str) -> AppToolCall {
    AppToolCall { app_tool: app_tool.into(), name: name.into(), arguments: Map::new() }
}

#[tokio::test]
async fn a_tools_app_is_read_from_its_server_and_its_calls_stay_on_that_server() {
    let hub = hub().await;
    let offered: Vec<String> = hub.tools().iter().map(|tool| tool.name().to_string()).collect();
    assert!(offered.contains(&"basic__get-time".to_string()), "{offered:?}");
    assert!(offered.contains(&"monitor__get-system-info".to_string()), "{offered:?}");
    assert!(!offered.contains(&"monitor__poll-system-stats".to_string()), "the app's own tool: {offered:?}");

    // The example's view: one HTML document, declaring nothing (the restrictive default).
    let view = hub.app_document("basic__get-time").await.expect("the app is read");
    assert_eq!((view.server.as_str(), view.uri.as_str()), ("basic", "ui://get-time/mcp-app.html"));
    assert!(view.html.starts_with("<!DOCTYPE html>"), "{}", &view.html[..40]);
    assert_eq!((view.csp, view.permissions, view.prefers_border), (AppCsp::default(), AppPermissions::default(), None));

    // Ours declares origins (one that would rewrite the policy is dropped) and a permission.
    let seating = hub.app_document("desk__seating_chart").await.expect("the seating chart is read");
    assert_eq!(seating.csp.connect_domains, ["https://api.desk.example"]);
    assert_eq!(seating.csp.resource_domains, ["https://cdn.desk.example"], "{:?}", seating.csp);
    assert!(seating.permissions.clipboard_write);
    assert_eq!(seating.prefers_border, Some(true));

    let no_app = hub.app_document("desk__opening_hours").await;
    assert_eq!(no_app, Err(AppProblem::NoApp("opening_hours".into())));
    assert_eq!(hub.app_document("desk__nothing").await, Err(AppProblem::NoSuchTool("desk__nothing".into())));

    // The monitor's app polls its app-only tool; the server's answer comes back as it gave it.
    let stats = hub.app_call(&app_call("monitor__get-system-info", "poll-system-stats")).await.expect("polled");
    assert!(stats["content"].as_array().is_some_and(|content| !content.is_empty()), "{stats}");

    // Another server's tool, a tool only for the model, and a call from a tool without an app are refused.
    let elsewhere = hub.app_call(&app_call("basic__get-time", "poll-system-stats")).await;
    assert_eq!(
        elsewhere,
        Err(AppProblem::Refused("The MCP server \"basic\" has no tool \"poll-system-stats\".".into()))
    );
    let models_own = hub.app_call(&app_call("desk__seating_chart", "close_desk")).await;
    assert_eq!(models_own, Err(AppProblem::Refused("The tool \"close_desk\" is not one an app may call.".into())));
    let no_app = hub.app_call(&app_call("desk__opening_hours", "opening_hours")).await;
    assert_eq!(no_app, Err(AppProblem::NoApp("opening_hours".into())));
    let refreshed = hub.app_call(&app_call("desk__seating_chart", "refresh_seating")).await.expect("its own tool");
    assert_eq!(refreshed["content"][0]["text"], "Redrawn.");
    hub.shut_down().await;
}

#[tokio::test]
async fn an_apps_call_of_a_tool_that_needs_approval_is_refused_until_palaver_can_ask() {
    let hub = connected_hub(json!({"desk": desk_entry("always")})).await;
    let refused = hub.app_call(&app_call("desk__seating_chart", "refresh_seating")).await;
    assert!(matches!(&refused, Err(AppProblem::Refused(why)) if why.contains("approves")), "{refused:?}");
    hub.shut_down().await;
}
