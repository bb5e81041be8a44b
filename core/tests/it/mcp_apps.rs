//! MCP Apps (the `io.modelcontextprotocol/ui` extension), the host's server half: a tool's app
//! is read from its own server and checked, and an app calls only its own server's tools that
//! let apps call them; one that needs the person's approval runs once they approve it on
//! Palaver's card, audited. The servers are the extension's own examples from npm
//! (`@modelcontextprotocol/server-basic-vanillajs`, `server-system-monitor`) and ours on the
//! Python SDK (`scripts/mcp/input_server.py`, whose seating chart declares a CSP).

use serde_json::{Map, Value, json};

use crate::common::harness;
use crate::mcp_input::desk_entry;
use crate::mcp_servers::{connected_hub, servers_folder};
use palaver_core::accounts::auth::Caller;
use palaver_core::audit::store as audit;
use palaver_core::conversation::app_contexts;
use palaver_core::grants::store as grants;
use palaver_core::mcp::app_calls::AppCalls;
use palaver_core::mcp::{AppProblem, McpHub};
use palaver_core::turn::tools::ToolSource;
use palaver_wire::approvers::{ApprovalRoute, Approver};
use palaver_wire::apps::{AppCallOutcome, AppCsp, AppPermissions, AppToolCall};
use palaver_wire::conversation::model::TurnEvent;
use palaver_wire::grants::{GrantRequest, GrantScope};

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
    AppToolCall { app_tool: app_tool.into(), name: name.into(), arguments: Map::new(), history_id: None }
}

/// An app's call as `caller`'s; the server's result when it ran.
async fn run(calls: &AppCalls, caller: &Caller, call: AppToolCall) -> Result<Value, AppProblem> {
    let outcome = calls.call(caller, &call).await.expect("stored");
    outcome.map(|outcome| match outcome {
        AppCallOutcome::Done { result } => result,
        AppCallOutcome::Approval { approval } => panic!("asked for approval: {approval:?}"),
    })
}

#[tokio::test]
async fn a_tools_app_is_read_from_its_server_and_its_calls_stay_on_that_server() {
    let hub = hub().await;
    let h = harness(json!([])).await;
    let calls = AppCalls::new(h.pool.clone(), hub.clone());
    let offered: Vec<String> = hub.tools().iter().map(|tool| tool.name().to_string()).collect();
    assert!(offered.contains(&"basic__get-time".to_string()), "{offered:?}");
    assert!(offered.contains(&"monitor__get-system-info".to_string()), "{offered:?}");
    assert!(!offered.contains(&"monitor__poll-system-stats".to_string()), "the app's own tool: {offered:?}");

    // The example's view: one HTML document, declaring nothing (the restrictive default).
    let view = hub.app_document("basic__get-time", None).await.expect("the app is read");
    assert_eq!((view.server.as_str(), view.uri.as_str()), ("basic", "ui://get-time/mcp-app.html"));
    assert!(view.html.starts_with("<!DOCTYPE html>"), "{}", &view.html[..40]);
    assert_eq!((view.csp, view.permissions, view.prefers_border), (AppCsp::default(), AppPermissions::default(), None));

    // Ours declares origins (one that would rewrite the policy is dropped) and a permission.
    let seating = hub.app_document("desk__seating_chart", None).await.expect("the seating chart is read");
    assert_eq!(seating.csp.connect_domains, ["https://api.desk.example"]);
    assert_eq!(seating.csp.resource_domains, ["https://cdn.desk.example"], "{:?}", seating.csp);
    assert!(seating.permissions.clipboard_write);
    assert_eq!(seating.prefers_border, Some(true));

    let no_app = hub.app_document("desk__opening_hours", None).await;
    assert_eq!(no_app, Err(AppProblem::NoApp("opening_hours".into())));
    assert_eq!(hub.app_document("desk__nothing", None).await, Err(AppProblem::NoSuchTool("desk__nothing".into())));

    // The monitor's app polls its app-only tool; the server's answer comes back as it gave it.
    let stats =
        run(&calls, &h.caller, app_call("monitor__get-system-info", "poll-system-stats")).await.expect("polled");
    assert!(stats["content"].as_array().is_some_and(|content| !content.is_empty()), "{stats}");

    // Another server's tool, a tool only for the model, and a call from a tool without an app are refused.
    let elsewhere = run(&calls, &h.caller, app_call("basic__get-time", "poll-system-stats")).await;
    assert_eq!(
        elsewhere,
        Err(AppProblem::Refused("The MCP server \"basic\" has no tool \"poll-system-stats\".".into()))
    );
    let models_own = run(&calls, &h.caller, app_call("desk__seating_chart", "close_desk")).await;
    assert_eq!(models_own, Err(AppProblem::Refused("The tool \"close_desk\" is not one an app may call.".into())));
    let no_app = run(&calls, &h.caller, app_call("desk__opening_hours", "opening_hours")).await;
    assert_eq!(no_app, Err(AppProblem::NoApp("opening_hours".into())));
    let refreshed =
        run(&calls, &h.caller, app_call("desk__seating_chart", "refresh_seating")).await.expect("its own tool");
    assert_eq!(refreshed["content"][0]["text"], "Redrawn.");
    hub.shut_down().await;
}

#[tokio::test]
async fn an_apps_call_of_a_tool_that_needs_approval_runs_once_the_person_approves_it_on_palavers_card() {
    // The seating chart only reads; its refresh is asked about.
    let hub = connected_hub(json!({"desk": desk_entry("unless-read-only")})).await;
    let h = harness(json!([{ "text": "Here is the seating chart." }])).await;
    let (history, _) = h.prompt(None, "Show me the seating").await;
    let calls = AppCalls::new(h.pool.clone(), hub.clone());
    let refresh =
        AppToolCall { history_id: Some(history.clone()), ..app_call("desk__seating_chart", "refresh_seating") };
    let held = |outcome: Result<AppCallOutcome, AppProblem>| match outcome {
        Ok(AppCallOutcome::Approval { approval }) => approval,
        other => panic!("not held for approval: {other:?}"),
    };

    // Without the conversation it is drawn in, there is nowhere to ask: refused.
    let nowhere = run(&calls, &h.caller, app_call("desk__seating_chart", "refresh_seating")).await;
    assert!(matches!(&nowhere, Err(AppProblem::Refused(why)) if why.contains("conversation")), "{nowhere:?}");
    // Nor may anyone else's conversation be named.
    let bob = h.another_user("bob").await;
    assert!(calls.call(&bob, &refresh).await.is_err(), "another person's conversation");

    // Held, and shown as Palaver's card shows an approval: the tool, its server, its arguments.
    let approval = held(calls.call(&h.caller, &refresh).await.unwrap());
    // One call of an app waits at a time.
    let second = calls.call(&h.caller, &refresh).await.unwrap();
    assert!(matches!(&second, Err(AppProblem::Refused(why)) if why.contains("waits")), "{second:?}");
    assert_eq!(approval.call.tool_name, "desk__refresh_seating");
    assert_eq!(approval.call.server.as_deref(), Some("desk"));
    assert!(approval.call.arguments.is_empty());
    // Someone else cannot answer it; its person's approval runs it, once.
    assert_eq!(calls.decide(&bob, &approval.id, true).await.unwrap(), Err(AppProblem::NotWaiting));
    let ran = calls.decide(&h.caller, &approval.id, true).await.unwrap().expect("ran");
    assert_eq!(ran["content"][0]["text"], "Redrawn.");
    assert_eq!(calls.decide(&h.caller, &approval.id, true).await.unwrap(), Err(AppProblem::NotWaiting));

    // Declined, the app is told so, and nothing runs.
    let declined = held(calls.call(&h.caller, &refresh).await.unwrap());
    let told = calls.decide(&h.caller, &declined.id, false).await.unwrap().expect("answered");
    assert_eq!(told, json!({"content": [{"type": "text", "text": "The person declined this call."}], "isError": true}));

    // A grant of the person's lets the call run without a card.
    let grant = GrantRequest { scope: GrantScope::Always, lifetime_seconds: None, arguments: None };
    let mut tx = palaver_core::db::begin(&h.pool).await.unwrap();
    grants::create(&mut tx, &h.caller.user.id, "desk__refresh_seating", &grant, &history).await.unwrap();
    tx.commit().await.unwrap();
    let granted = calls.call(&h.caller, &refresh).await.unwrap();
    assert!(matches!(&granted, Ok(AppCallOutcome::Done { result }) if result["content"][0]["text"] == "Redrawn."));
    // Unless an admin took grants away from the tool, as for the model's calls.
    h.runner.preferences().save_ungranted_tools(&["desk__refresh_seating".to_string()]).await.unwrap();
    let asked_again = held(calls.call(&h.caller, &refresh).await.unwrap());
    assert_eq!(calls.decide(&h.caller, &asked_again.id, false).await.unwrap().unwrap()["isError"], true);
    // A tool whose approvals an admin routed to someone else is not the person's to approve.
    let route = ApprovalRoute {
        tool: Some("desk__refresh_seating".into()),
        server: None,
        approver: Approver::Admins,
        approvals: 1,
    };
    h.runner.preferences().save_approval_routes(&[route]).await.unwrap();
    let routed = calls.call(&h.caller, &refresh).await.unwrap();
    assert!(matches!(&routed, Err(AppProblem::Refused(why)) if why.contains("go to someone")), "{routed:?}");

    // Each ending is in the person's audit trail, in the conversation, under the app call's id.
    let entries = audit::chained_entries(&h.pool, Some(&h.caller.user.id)).await.unwrap();
    let ended: Vec<(&str, &str, Option<bool>, Option<&str>)> = entries
        .iter()
        .map(|entry| (entry.tool_call_id.as_str(), entry.decision.as_str(), entry.approved, entry.scope.as_deref()))
        .collect();
    let app_id = |id: &str| format!("app-{id}");
    assert_eq!(ended.len(), 4, "{ended:?}");
    assert_eq!(ended[0], (app_id(&approval.id).as_str(), "accept", Some(true), Some("once")));
    assert_eq!(ended[1], (app_id(&declined.id).as_str(), "decline", Some(false), None));
    assert_eq!((ended[2].1, ended[2].3), ("granted", Some("always")));
    assert_eq!(ended[3], (app_id(&asked_again.id).as_str(), "decline", Some(false), None));
    assert!(entries.iter().all(|entry| entry.history_id == history
        && entry.tool_name.as_deref() == Some("desk__refresh_seating")
        && entry.args_digest.as_deref() == Some(palaver_core::audit::args_digest(&json!({})).as_str())));
    hub.shut_down().await;
}

#[tokio::test]
async fn what_an_app_tells_the_model_reaches_its_next_step_and_comes_back_to_the_app() {
    let hub = connected_hub(json!({"desk": desk_entry("never")})).await;
    let call = json!({"toolCalls": [{"id": "call_seats", "name": "desk__seating_chart", "input": {}}]});
    let responses = json!([call, {"text": "Here is the chart."}, {"text": "Row 4 it is."}]);
    let h = crate::mcp_servers::harness_on(&hub, responses).await;
    let (history, _) = h.prompt(None, "Show me the seating").await;
    let told = json!({"content": [{"type": "text", "text": "Row 4 is picked"}], "structuredContent": {"row": 4}});
    let has_app = |tool: &str| tool == "desk__seating_chart";

    // Kept for a call of the conversation, by its owner only.
    app_contexts::keep(&h.pool, &h.caller, &history, "call_seats", &told, has_app).await.expect("kept");
    let bob = h.another_user("bob").await;
    assert!(app_contexts::keep(&h.pool, &bob, &history, "call_seats", &told, has_app).await.is_err());
    assert!(app_contexts::read(&h.pool, &bob, &history, "call_seats").await.is_err());
    let no_call = app_contexts::keep(&h.pool, &h.caller, &history, "call_none", &told, has_app).await.unwrap_err();
    assert!(no_call.to_string().contains("no tool call \"call_none\""), "{no_call}");
    let no_app = app_contexts::keep(&h.pool, &h.caller, &history, "call_seats", &told, |_: &str| false).await;
    assert!(no_app.unwrap_err().to_string().contains("a tool with no app"));
    assert_eq!(app_contexts::read(&h.pool, &h.caller, &history, "call_seats").await.unwrap(), Some(told.clone()));

    // The model's next step is told it, naming the app's tool and call.
    h.prompt(Some(&history), "Which row?").await;
    let system = h.model_requests().last().unwrap()["system"].as_str().unwrap().to_string();
    assert!(
        system
            .contains("- The app of `desk__seating_chart` (its call `call_seats`): Row 4 is picked data: {\"row\":4}"),
        "{system}"
    );

    // A context with nothing in it clears it.
    app_contexts::keep(&h.pool, &h.caller, &history, "call_seats", &json!({}), has_app).await.unwrap();
    assert_eq!(app_contexts::read(&h.pool, &h.caller, &history, "call_seats").await.unwrap(), None);
    assert_eq!(app_contexts::model_section(&h.pool, &history).await.unwrap(), None);
    hub.shut_down().await;
}

#[tokio::test]
async fn the_arguments_of_a_call_of_a_tool_with_an_app_go_out_as_the_model_writes_them() {
    let hub = connected_hub(json!({"desk": desk_entry("never")})).await;
    let pieces = |id: &str, name: &str, parts: &[&str]| json!({"id": id, "name": name, "inputParts": parts});
    let long = "a".repeat(70);
    let step = json!({"toolCalls": [
        pieces("call_chart", "desk__seating_chart", &[r#"{""#, r#"room": "garden", "note": "ab"#, "c", &long, r#"", "guests": 4}"#]),
        pieces("call_hours", "desk__opening_hours", &[r#"{"day": "Mon"#, r#"day"}"#]),
    ]});
    let h = crate::mcp_servers::harness_on(&hub, json!([step, {"text": "Done."}])).await;
    let (_, events) = h.prompt(None, "Draw the seating").await;
    let partial: Vec<(String, Value)> = events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::ToolInputPartial { tool_input_partial } => {
                Some((tool_input_partial.tool_call_id.clone(), tool_input_partial.arguments.clone()))
            }
            _ => None,
        })
        .collect();
    // Read as far as they go (the open string closed; `{}` is not sent), again once they grew by 64 bytes
    // or more, and as far as they were written when the model finished the step; never for a
    // tool without an app. The whole call follows as `{toolCall}`.
    let chart = |arguments: Value| ("call_chart".to_string(), arguments);
    let grown = format!("abc{long}");
    assert_eq!(
        partial,
        [
            chart(json!({"room": "garden", "note": "ab"})),
            chart(json!({"room": "garden", "note": grown})),
            chart(json!({"room": "garden", "note": grown, "guests": 4}))
        ]
    );
    let called = events.iter().position(|event| matches!(event, TurnEvent::ToolCall { .. })).unwrap();
    let last_partial = events.iter().rposition(|event| matches!(event, TurnEvent::ToolInputPartial { .. })).unwrap();
    assert!(last_partial < called, "before the call itself");
    hub.shut_down().await;
}
