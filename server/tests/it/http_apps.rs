//! MCP Apps over real HTTP, in a real process: the chat page may frame the sandbox's origin
//! (and no other); a tool's app is given with that origin; the sandbox (Palaver's second
//! listener, `PALAVER_APPS_ADDR`) serves its relay page under the policy the app declared, to
//! Palaver's own pages only, and nothing else of Palaver's; an app's calls stay on its server's
//! tools that let apps call them. The servers are the MCP Apps example from npm and ours on the
//! Python SDK (`scripts/mcp/input_server.py`).

use serde_json::{Value, json};

/// Our desk server's `mcpServers` entry (its seating chart is an MCP App), over stdio, its calls
/// approved by the rule `approval`.
pub(crate) fn desk_entry(approval: &str) -> Value {
    let mcp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    json!({"command": mcp.join(".venv/bin/python"), "args": [mcp.join("input_server.py")], "approval": approval})
}

/// The reply's body, as JSON.
fn body_json(reply: &str) -> Value {
    let body = reply.split_once("\r\n\r\n").map(|(_, body)| body).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {reply}"))
}

/// The sandbox page's URL with this query.
fn sandbox_page(sandbox: &str, query: &[(&str, &str)]) -> url::Url {
    url::Url::parse_with_params(&format!("{sandbox}/sandbox"), query).unwrap()
}

fn status(reply: &str) -> u16 {
    reply.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or_default()
}

#[tokio::test]
async fn an_apps_view_is_drawn_from_the_second_origin_under_the_policy_it_declared() {
    let mcp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    let basic = mcp.join("node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js");
    assert!(basic.exists(), "the test MCP servers are not installed: run scripts/install-tools.sh --test");
    let folder = tempfile::tempdir().unwrap();
    let servers = json!({"basic": {"command": "node", "args": [basic, "--stdio"], "approval": "never"}, "desk": desk_entry("never")});
    let apps_port = crate::process::free_port();
    // Each server's apps have an origin of their own under localhost; the sandbox answers them all.
    let sandbox = format!("http://127.0.0.1:{apps_port}");
    let settings =
        [crate::process::mcp_config(folder.path(), servers), ("PALAVER_APPS_ADDR", format!("127.0.0.1:{apps_port}"))];
    let server = crate::process::start(&json!({"responses": []}), &settings).await;
    let cookie = server.log_in().await;
    server.wait_for_mcp(&cookie, 2).await;
    let host = format!("http://127.0.0.1:{}", server.port);

    let page = server.send("GET", "/", &cookie, "text/plain", b"").await;
    let policy = page.lines().find(|line| line.starts_with("content-security-policy:")).expect("a policy");
    let origins = format!("http://*.localhost:{apps_port}");
    assert!(policy.contains(&format!("frame-src 'self' {origins};")), "pages may frame the sandbox: {policy}");

    let view = server.send("GET", "/apps/view?tool=desk__seating_chart", &cookie, "text/plain", b"").await;
    assert_eq!(status(&view), 200, "{view}");
    let view = body_json(&view);
    let desk_origin = view["sandboxOrigin"].as_str().unwrap().to_string();
    let label =
        desk_origin.strip_prefix("http://desk-").and_then(|rest| rest.strip_suffix(&format!(".localhost:{apps_port}")));
    assert!(label.is_some_and(|hash| hash.len() == 8), "{desk_origin}");
    let basic = server.send("GET", "/apps/view?tool=basic__get-time", &cookie, "text/plain", b"").await;
    let basic_origin = body_json(&basic)["sandboxOrigin"].as_str().unwrap().to_string();
    assert!(basic_origin.starts_with("http://basic-"), "{basic_origin}");
    assert_ne!(basic_origin, desk_origin, "each server's apps have an origin of their own");
    assert_eq!(view["document"]["uri"], "ui://desk/seating.html");
    assert_eq!(
        view["document"]["csp"],
        json!({"connectDomains": ["https://api.desk.example"],
        "resourceDomains": ["https://cdn.desk.example"]})
    );
    let missing = server.send("GET", "/apps/view?tool=desk__opening_hours", &cookie, "text/plain", b"").await;
    assert_eq!(status(&missing), 404, "{missing}");
    assert_eq!(body_json(&missing)["title"], "The tool \"opening_hours\" has no app.");

    let client = palaver_core::outbound::client_builder().build().unwrap();
    let csp = view["document"]["csp"].to_string();
    let framed = [("host", host.as_str()), ("csp", &csp), ("permissions", r#"{"clipboardWrite":true}"#)];
    let relay = client.get(sandbox_page(&sandbox, &framed)).send().await.unwrap();
    assert_eq!(relay.status(), 200);
    let relay_policy = relay.headers()["content-security-policy"].to_str().unwrap().to_string();
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'unsafe-inline' https://cdn.desk.example",
        "connect-src https://api.desk.example",
        "frame-src 'none'",
        "object-src 'none'",
        &format!("frame-ancestors {host}"),
    ] {
        assert!(relay_policy.split("; ").any(|part| part == directive), "{directive} in {relay_policy}");
    }
    assert_eq!(relay.headers()["cache-control"], "no-store");
    let relay_page = relay.text().await.unwrap();
    assert!(relay_page.contains(r#"allow="clipboard-write""#), "{relay_page}");
    assert!(relay_page.contains(&format!(r#"const host = "{host}";"#)), "{relay_page}");

    // Only Palaver's pages may use the sandbox, and it serves nothing of Palaver's.
    let other = client.get(sandbox_page(&sandbox, &[("host", "http://evil.example")])).send().await.unwrap();
    assert_eq!(other.status(), 400);
    for path in ["/", "/health", "/apps/view?tool=desk__seating_chart", "/pkg/palaver.js"] {
        let reply = client.get(format!("{sandbox}{path}")).send().await.unwrap();
        assert_eq!(reply.status(), 404, "{path} on the sandbox origin");
    }

    let call = |name: &str| json!({"appTool": "desk__seating_chart", "name": name, "arguments": {}}).to_string();
    let refreshed =
        server.send("POST", "/apps/call", &cookie, "application/json", call("refresh_seating").as_bytes()).await;
    assert_eq!(status(&refreshed), 200, "{refreshed}");
    assert_eq!(body_json(&refreshed)["result"]["content"][0]["text"], "Redrawn.");
    let refused = server.send("POST", "/apps/call", &cookie, "application/json", call("close_desk").as_bytes()).await;
    assert_eq!(status(&refused), 403, "{refused}");
    assert_eq!(body_json(&refused)["title"], "The tool \"close_desk\" is not one an app may call.");
}

#[tokio::test]
async fn a_message_an_app_sends_for_the_person_is_stored_as_the_apps() {
    let desk = crate::http_mcp::connected_hub(json!({"desk": desk_entry("never")})).await;
    let script = r#"{"responses": [{"text": "Here."}, {"text": "Row 4 is yours."}]}"#;
    let app = crate::common::TestApp::with_mcp_apps(script, desk.clone(), "http://127.0.0.1:9").await;
    let ada = app.user("ada", palaver_wire::accounts::Role::User).await;
    let history = app.prompt(&ada, json!({"prompt": "Seats?"})).await.last().unwrap()["historyId"].clone();

    // With a prompt, only a server whose apps Palaver draws may be named; with an answer, the
    // app must have drawn the pending question (here there is none).
    let (status, problem) = app
        .json(&ada, "POST", "/gpt/prompt", Some(json!({"historyId": history, "prompt": "Hi", "fromApp": "nowhere"})))
        .await;
    assert_eq!(status, 400, "{problem}");
    assert_eq!(problem["title"], "fromApp must name an MCP server whose apps Palaver draws");
    let answer = json!({"historyId": history, "askResponse": {"toolCallId": "x"}, "fromApp": "desk"});
    let (status, _) = app.json(&ada, "POST", "/gpt/prompt", Some(answer)).await;
    assert_eq!(status, 409);

    app.prompt(&ada, json!({"historyId": history, "prompt": "Book row 4", "fromApp": "desk"})).await;
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{}", history.as_str().unwrap()), None).await;
    let rows = read["data"]["prompts"].as_array().unwrap();
    let users: Vec<(&Value, &Value)> =
        rows.iter().filter(|row| row["type"] == "user").map(|row| (&row["text"], &row["fromApp"])).collect();
    assert_eq!(users, [(&json!("Seats?"), &Value::Null), (&json!("Book row 4"), &json!("desk"))]);
    desk.shut_down().await;
}
