//! The access matrix: every API route and every server function, called anonymously, by the
//! owner, by another user and by an admin. A route or server function without a rule (or
//! without a probe here) fails this test.

use crate::common::{Reply, TestApp, TestUser};
use axum::http::StatusCode;
use palaver_server::{Access, SERVER_FN_ACCESS, api_route_table};
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

struct World {
    app: TestApp,
    admin: TestUser,
    owner: TestUser,
    other: TestUser,
    history: String,
    /// Deleted by the delete probes (the others need `history` to stay).
    doomed: String,
    token_id: String,
    /// An upload of the owner's.
    file: String,
}

async fn world() -> World {
    let app =
        TestApp::with_mock(r#"{"responses": [{"text": "hi"}, {"text": "hi"}, {"text": "hi"}, {"text": "hi"}]}"#).await;
    let admin = app.user("root", Role::User).await; // the first account becomes admin
    let owner = app.user("owner", Role::User).await;
    let other = app.user("other", Role::User).await;
    let (_, created) = app.json(&owner, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    let (_, doomed) = app.json(&owner, "POST", "/gpt/histories", Some(json!({}))).await;
    let doomed = doomed["data"]["id"].as_str().unwrap().to_string();
    let (_, tokens) = app.json(&owner, "GET", "/auth/tokens", None).await;
    let token_id = tokens["data"][0]["id"].as_str().unwrap().to_string();
    let file = app.upload(&owner, "notes.txt", "text/plain", b"notes").await.json()["id"].as_str().unwrap().to_string();
    World { app, admin, owner, other, history, doomed, token_id, file }
}

/// The request that exercises a route: its concrete path and body.
fn probe(world: &World, method: &str, path: &str) -> (String, Option<Value>) {
    match (method, path) {
        (
            "GET",
            "/health" | "/openapi.json" | "/auth/me" | "/auth/tokens" | "/gpt/histories" | "/gpt/audit" | "/gpt/events"
            | "/gpt/models" | "/gpt/audit/export",
        ) => (path.into(), None),
        ("POST", "/auth/signup") => {
            (path.into(), Some(json!({"username": "newcomer", "password": "correct horse battery"})))
        }
        ("POST", "/auth/login") => {
            (path.into(), Some(json!({"username": "owner", "password": "correct horse battery"})))
        }
        ("POST", "/auth/logout") => (path.into(), None),
        // The same password again, the tokens kept: the probe changes nobody's.
        ("POST", "/auth/password") => (
            path.into(),
            Some(json!({
                "currentPassword": "correct horse battery",
                "newPassword": "correct horse battery",
                "keepApiTokens": true
            })),
        ),
        ("POST", "/auth/tokens") => (path.into(), Some(json!({"name": "probe"}))),
        // A wrong password: past the access check it is a 400, and nobody's account goes.
        ("DELETE", "/auth/me") => (path.into(), Some(json!({"password": "not the password"}))),
        ("GET", "/admin/users") => (path.into(), None),
        ("PATCH", "/admin/users/{id}") => {
            (format!("/admin/users/{}", world.other.id), Some(json!({"disabled": false})))
        }
        ("POST", "/admin/users/{id}/password") => (
            format!("/admin/users/{}/password", world.other.id),
            Some(json!({"password": "correct horse battery", "keepApiTokens": true})),
        ),
        ("DELETE", "/auth/tokens/{id}") => (format!("/auth/tokens/{}", world.token_id), None),
        ("POST", "/files/upload") => (path.into(), None),
        ("GET", "/files/{id}") => (format!("/files/{}", world.file), None),
        ("POST", "/gpt/prompt") => (path.into(), Some(json!({"prompt": "hello", "historyId": world.history}))),
        ("POST", "/gpt/histories") => (path.into(), Some(json!({}))),
        ("GET", "/gpt/histories/{id}") => (format!("/gpt/histories/{}", world.history), None),
        ("GET", "/gpt/histories/{id}/stream") => (format!("/gpt/histories/{}/stream", world.history), None),
        ("GET", "/gpt/histories/{id}/export") => (format!("/gpt/histories/{}/export", world.history), None),
        ("PATCH", "/gpt/histories/{id}") => {
            (format!("/gpt/histories/{}", world.history), Some(json!({"title": "Probe"})))
        }
        ("DELETE", "/gpt/histories/{id}") => (format!("/gpt/histories/{}", world.doomed), None),
        // The conversation has no rows: past the access check it is a 400 (out of range).
        ("PATCH", "/gpt/histories/{id}/rating") => {
            (format!("/gpt/histories/{}/rating", world.history), Some(json!({"promptIndex": 0, "rating": "up"})))
        }
        // The conversation has no versions: past the access check it is a 400.
        ("PUT", "/gpt/histories/{id}/branches") => {
            (format!("/gpt/histories/{}/branches", world.history), Some(json!({"row": 0, "position": 0})))
        }
        ("GET", "/gpt/histories/pendingAsks" | "/gpt/approvals/waiting") => (path.into(), None),
        // An ask that is not pending: past the access check it is a 409.
        ("POST", "/gpt/approvals/answer") => {
            (path.into(), Some(json!({"historyId": world.history, "toolCallId": "call_none", "buttonId": "approve"})))
        }
        // An ask that is not pending: past the access check each answer reports its own 409.
        ("POST", "/gpt/histories/pendingAsks/answers") => (
            path.into(),
            Some(json!({"answers": [{"historyId": world.history, "toolCallId": "call_none", "buttonId": "b"}]})),
        ),
        // No answer to take back: past the access check it is a 409.
        ("POST", "/gpt/histories/{id}/asks/{askId}/reopen") => {
            (format!("/gpt/histories/{}/asks/ask_none/reopen", world.history), None)
        }
        ("POST" | "GET" | "DELETE", "/gpt/histories/{id}/share") => {
            (format!("/gpt/histories/{}/share", world.history), None)
        }
        // A token that opens nothing: past the (public) rule it is a 404.
        ("GET", "/shared/{token}") => ("/shared/unknown".into(), None),
        ("POST", "/gpt/histories/{id}/turn") => {
            (format!("/gpt/histories/{}/turn", world.history), Some(json!({"prompt": "hello"})))
        }
        ("POST", "/gpt/actions") => (
            path.into(),
            Some(
                json!({"historyId": world.history, "name": "scaleStepper", "payload": {"value": 2}, "blockId": "guests"}),
            ),
        ),
        ("GET", "/push/key" | "/push/subscriptions") => (path.into(), None),
        ("POST", "/push/subscriptions") => (path.into(), Some(crate::http_push::probe_subscription())),
        // No such device: past the access check it is a 404.
        ("PATCH", "/push/subscriptions/{id}") => ("/push/subscriptions/none".into(), Some(json!({"name": "Phone"}))),
        ("DELETE", "/push/subscriptions/{id}") => ("/push/subscriptions/none".into(), None),
        ("PUT", "/push/presence") => (path.into(), Some(json!({"tabId": "probe", "historyId": world.history}))),
        ("GET", "/push/settings") => (path.into(), None),
        ("PUT", "/push/settings") => (path.into(), Some(json!({"approvalsOpenOnly": true}))),
        // A capability nobody was given: whoever sends it, signed in or not, gets 404.
        ("POST", "/push/answer") => (path.into(), Some(json!({"token": "A".repeat(43)}))),
        ("GET", "/webhooks") => (path.into(), None),
        // The probes' server has no MCP servers: past the access check they are 404s, and the
        // context probe names a call the conversation lacks: a 400.
        ("GET", "/apps/tools") => (path.into(), None),
        ("GET", "/apps/view") => ("/apps/view?tool=none__none".into(), None),
        ("POST", "/apps/call") => (path.into(), Some(json!({"appTool": "none__none", "name": "none"}))),
        ("POST", "/apps/approvals/{id}") => ("/apps/approvals/none".into(), Some(json!({"approve": false}))),
        ("GET", "/apps/resource") => ("/apps/resource?tool=none__none&uri=ui%3A%2F%2Fnone".into(), None),
        ("PUT", "/apps/context") => {
            (path.into(), Some(json!({"historyId": world.history, "toolCallId": "none", "context": {}})))
        }
        // A run with nothing new on a new thread: a sync, which runs no turn.
        ("POST", "/agui") => (path.into(), Some(json!({"threadId": "probe", "runId": "r", "messages": []}))),
        ("GET", "/agui/threads/{thread_id}/stream") => ("/agui/threads/none/stream".into(), None),
        ("GET", "/agui/capabilities") => (path.into(), None),
        ("POST", "/webhooks") => (path.into(), Some(json!({"url": "https://hooks.example.test/probe"}))),
        // No such webhook: past the access check they are 404s.
        ("PATCH", "/webhooks/{id}") => ("/webhooks/none".into(), Some(json!({"enabled": false}))),
        ("DELETE", "/webhooks/{id}") => ("/webhooks/none".into(), None),
        ("POST", "/webhooks/{id}/secret") => ("/webhooks/none/secret".into(), None),
        ("GET", "/webhooks/{id}/deliveries") => ("/webhooks/none/deliveries".into(), None),
        ("POST", "/webhooks/{id}/test") => ("/webhooks/none/test".into(), None),
        ("GET", "/mail/settings") => (path.into(), None),
        // The probes' server sends no mail: past the access check setting an address is a 409,
        // and the owner has no address to forget or mail asks to: 404s.
        ("PUT", "/mail/settings/address") => (path.into(), Some(json!({"address": "owner@example.test"}))),
        ("DELETE", "/mail/settings/address") => (path.into(), None),
        ("PUT", "/mail/settings/asks") => (path.into(), Some(json!({"on": true}))),
        // A mail link nobody was given: whoever opens or presses it, signed in or not, gets 404.
        ("GET" | "POST", "/mail/confirm/{token}") => (format!("/mail/confirm/{}", "A".repeat(43)), None),
        ("GET" | "POST", "/mail/answer/{token}") => (format!("/mail/answer/{}", "A".repeat(43)), None),
        _ => panic!("no probe for {method} {path}: add one here, with the route's access rule"),
    }
}

/// The refusal of a token that asks for a token (the probes authenticate with tokens).
fn is_token_refused(reply: &Reply) -> bool {
    reply.status == StatusCode::FORBIDDEN
        && reply.json()["title"] == palaver_wire::error::AppError::TokenCannotMakeTokens.to_string()
}

fn is_unauthorized(reply: &Reply) -> bool {
    reply.status == StatusCode::UNAUTHORIZED && reply.json()["title"] == "Unauthorized"
}

#[tokio::test]
async fn every_api_route_follows_its_access_rule() {
    let world = world().await;
    let app = &world.app;
    // The token probe revokes the owner's token, so it runs last.
    let mut routes = api_route_table();
    routes.sort_by_key(|route| route.path == "/auth/tokens/{id}");
    for route in routes {
        let method = route.method.as_str();
        let (path, body) = probe(&world, method, &route.path);
        let label = format!("{method} {}", route.path);
        let anonymous = app.call(None, method, &path, body.clone()).await;
        if route.access == Access::Public {
            assert!(!is_unauthorized(&anonymous), "{label} is public: {}", anonymous.text);
            continue;
        }
        // Nobody but the owner learns the file exists: not even that it needs an account.
        if route.access == Access::FileOwner {
            let other = app.call(Some(&world.other), method, &path, None).await;
            let admin = app.call(Some(&world.admin), method, &path, None).await;
            for (who, reply) in [("anonymous", &anonymous), ("another user", &other), ("an admin", &admin)] {
                assert_eq!(reply.status, StatusCode::NOT_FOUND, "{label} as {who}: {}", reply.text);
            }
            let owner = app.call(Some(&world.owner), method, &path, None).await;
            assert!(owner.status.is_success(), "{label} as owner: {} {}", owner.status, owner.text);
            continue;
        }
        // Only the capability decides: a session or token beside it changes nothing.
        if route.access == Access::Capability {
            let owner = app.call(Some(&world.owner), method, &path, body.clone()).await;
            for (who, reply) in [("anonymous", &anonymous), ("the owner", &owner)] {
                assert_eq!(reply.status, StatusCode::NOT_FOUND, "{label} as {who}: {}", reply.text);
            }
            continue;
        }
        assert!(
            is_unauthorized(&anonymous),
            "{label} must refuse anonymous callers: {} {}",
            anonymous.status,
            anonymous.text
        );
        if route.access == Access::Admin {
            let user = app.call(Some(&world.other), method, &path, body.clone()).await;
            assert_eq!(user.status, StatusCode::FORBIDDEN, "{label} is for admins: {}", user.text);
            let admin = app.call(Some(&world.admin), method, &path, body.clone()).await;
            assert!(admin.status.is_success(), "{label} as admin: {} {}", admin.status, admin.text);
            continue;
        }
        // The others go first: the owner's delete probe leaves nothing for them to be refused.
        let history_rule = matches!(route.access, Access::HistoryRead | Access::HistoryWrite);
        if history_rule {
            let other = app.call(Some(&world.other), method, &path, body.clone()).await;
            assert_eq!(other.status, StatusCode::FORBIDDEN, "{label} as another user: {}", other.text);
            let admin = app.call(Some(&world.admin), method, &path, body.clone()).await;
            // A read passes for an admin (the stream probe: no turn runs, so 204).
            if route.access == Access::HistoryRead {
                assert!(admin.status.is_success(), "{label} as admin: {} {}", admin.status, admin.text);
            } else {
                assert_eq!(admin.status, StatusCode::FORBIDDEN, "{label} as admin: {}", admin.text);
            }
        }
        // An event stream never ends: the owner's is opened (200, text/event-stream), not read out.
        if route.path == "/gpt/events" {
            app.open_stream(&world.owner, &path, None).await;
            continue;
        }
        let owner = app.call(Some(&world.owner), method, &path, body.clone()).await;
        // The upload probe sends no multipart body: past the access check it is a 400. The
        // action probe names a stepper the empty conversation lacks: past the check it is a 404,
        // the reopen probe an answer it lacks: a 409, and the branches probe a version: a 400.
        // A token may not make tokens: past the check it is a 403 of its own. The device probes
        // name a device nobody has: past the check they are 404s.
        let owner_passed = owner.status.is_success()
            || (route.path == "/files/upload" && owner.status == StatusCode::BAD_REQUEST)
            || (route.path == "/auth/tokens" && method == "POST" && is_token_refused(&owner))
            || (route.path == "/gpt/actions" && owner.status == StatusCode::NOT_FOUND)
            || ((route.path.ends_with("/reopen") || route.path == "/gpt/approvals/answer")
                && owner.status == StatusCode::CONFLICT)
            || (route.path.ends_with("/branches") && owner.status == StatusCode::BAD_REQUEST)
            || (route.path == "/push/subscriptions/{id}" && owner.status == StatusCode::NOT_FOUND)
            || (route.path.starts_with("/webhooks/{id}") && owner.status == StatusCode::NOT_FOUND)
            || (route.path == "/agui/threads/{thread_id}/stream" && owner.status == StatusCode::NOT_FOUND)
            || (route.path == "/mail/settings/address" && method == "PUT" && owner.status == StatusCode::CONFLICT)
            || (route.path.starts_with("/mail/settings/") && owner.status == StatusCode::NOT_FOUND)
            || (route.path == "/auth/me" && method == "DELETE" && owner.status == StatusCode::BAD_REQUEST)
            || (route.path.starts_with("/apps/") && owner.status == StatusCode::NOT_FOUND)
            || (route.path == "/apps/context" && owner.status == StatusCode::BAD_REQUEST);
        assert!(owner_passed, "{label} as owner: {} {}", owner.status, owner.text);
    }
}

#[tokio::test]
async fn another_users_history_gets_the_spec_titles() {
    let world = world().await;
    let app = &world.app;
    let prompt = app
        .call(Some(&world.admin), "POST", "/gpt/prompt", Some(json!({"prompt": "x", "historyId": world.history})))
        .await;
    assert_eq!(
        (prompt.status, prompt.json()["title"].clone()),
        (StatusCode::FORBIDDEN, json!("Not authorized to access this history"))
    );
    let read = app.call(Some(&world.other), "GET", &format!("/gpt/histories/{}", world.history), None).await;
    assert_eq!(read.json()["title"], "Access denied");
    let missing =
        app.call(Some(&world.owner), "POST", "/gpt/prompt", Some(json!({"prompt": "x", "historyId": "nope"}))).await;
    assert_eq!((missing.status, missing.json()["title"].clone()), (StatusCode::NOT_FOUND, json!("History not found")));
    let (_, list) = app.json(&world.other, "GET", "/gpt/histories", None).await;
    assert_eq!(list["data"], json!([]), "the list holds only the caller's conversations");
}

fn server_fn_args(world: &World, path: &str) -> String {
    match path {
        "/api/get_history"
        | "/api/stop_turn"
        | "/api/share_conversation"
        | "/api/sharing_state"
        | "/api/stop_sharing" => {
            format!("id={}", world.history)
        }
        "/api/keep_conversation" => format!("id={}&pinned=true", world.history),
        "/api/shared_conversation" => "token=unknown".into(),
        "/api/rename_conversation" => format!("id={}&title=Probe", world.history),
        "/api/choose_model" => {
            let model = &world.app.state.conversations.models.default_choice().id;
            format!("id={}&model={}", world.history, model.replace(':', "%3A").replace('/', "%2F"))
        }
        "/api/delete_conversation" => format!("id={}", world.doomed),
        "/api/save_preferences" => "instructions=Be+brief&default_model=".into(),
        "/api/admin_save_server_settings" => "open_signup=false&offered=".into(),
        "/api/revoke_api_token" | "/api/revoke_grant" | "/api/set_grant_lifetime" => "id=unknown".into(),
        "/api/edit_grant_patterns" => "id=unknown&arguments=%7B%7D".into(),
        "/api/admin_mcp_reconnect" => "name=unknown".into(),
        "/api/create_api_token" => "name=probe".into(),
        // A wrong password: past the access check it is a 400, and nobody's account goes.
        "/api/delete_account" => "password=not+the+password".into(),
        "/api/admin_set_disabled" => format!("user_id={}&disabled=false", world.other.id),
        "/api/admin_reset_password" => {
            format!("user_id={}&new_password=correct+horse+battery&keep_api_tokens=true", world.other.id)
        }
        "/api/change_password" => {
            "current_password=correct+horse+battery&new_password=correct+horse+battery&keep_api_tokens=true".into()
        }
        "/api/log_in" => "username=owner&password=correct+horse+battery".into(),
        "/api/sign_up" | "/api/admin_create_user" => {
            "username=probeuser&password=correct+horse+battery&admin=false".into()
        }
        _ => String::new(),
    }
}

#[tokio::test]
async fn every_server_function_has_an_access_rule_and_follows_it() {
    let world = world().await;
    let registered: Vec<&str> = leptos::server_fn::axum::server_fn_paths().map(|(path, _)| path).collect();
    for path in &registered {
        let Some((_, access)) = SERVER_FN_ACCESS.iter().find(|(known, _)| known == path) else {
            panic!("server function {path} has no access rule in SERVER_FN_ACCESS");
        };
        let args = server_fn_args(&world, path);
        let anonymous = world.app.server_fn(None, path, &args).await;
        if *access == Access::Public {
            assert_ne!(anonymous.status, StatusCode::UNAUTHORIZED, "{path} is public: {}", anonymous.text);
            continue;
        }
        assert_eq!(
            anonymous.status,
            StatusCode::UNAUTHORIZED,
            "{path} must refuse anonymous callers: {}",
            anonymous.text
        );
        let user = world.app.server_fn(Some(&world.other), path, &args).await;
        match access {
            Access::Admin => {
                assert_eq!(user.status, StatusCode::FORBIDDEN, "{path} is for admins: {}", user.text);
                let admin = world.app.server_fn(Some(&world.admin), path, &args).await;
                assert!(admin.status.is_success(), "{path} as admin: {} {}", admin.status, admin.text);
            }
            Access::HistoryRead | Access::HistoryWrite => {
                assert_eq!(user.status, StatusCode::FORBIDDEN, "{path} as another user: {}", user.text);
                let owner = world.app.server_fn(Some(&world.owner), path, &args).await;
                assert!(owner.status.is_success(), "{path} as owner: {} {}", owner.status, owner.text);
            }
            _ => assert!(
                user.status.is_success()
                    || user.status == StatusCode::NOT_FOUND
                    // A token may not make tokens: past the check, the function refuses it.
                    || (*path == "/api/create_api_token"
                        && user.status == StatusCode::FORBIDDEN
                        && user.text.contains("TokenCannotMakeTokens"))
                    || (*path == "/api/delete_account" && user.status == StatusCode::BAD_REQUEST),
                "{path}: {} {}",
                user.status,
                user.text
            ),
        }
    }
    for (path, _) in SERVER_FN_ACCESS {
        assert!(registered.contains(path), "SERVER_FN_ACCESS names {path}, which is not registered");
    }
}
