//! Keeping conversations over HTTP: pin and archive through `PATCH /gpt/histories/{id}` and the
//! list's `archived` filter, and the read-only share link (made, read without a session, never
//! another conversation, replaced, revoked, the owner's only, ended by a delete, and nothing
//! answerable through it).

use crate::common::{TestApp, TestUser, asked};
use axum::http::{StatusCode, header};
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

struct World {
    app: TestApp,
    admin: TestUser,
    ada: TestUser,
    bob: TestUser,
    /// Ada's conversation, paused on a choice.
    shared: String,
    /// Another conversation of Ada's, never shared.
    private: String,
}

async fn world() -> World {
    let ask = json!({"id": "call_c", "name": "ask_choice", "input": {
        "prompt": "Which plan suits you?", "select": "one", "options": [{"id": "a", "label": "Basic"}, {"id": "b", "label": "Pro"}]}});
    let script = json!({"responses": [
        {"text": "Happy to help with plans."}, {"toolCalls": [ask]},
        {"text": "Secret garden notes."}, {"text": "Back again."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let admin = app.user("root", Role::User).await; // the first account becomes admin
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    let events = app.prompt(&ada, json!({"prompt": "Tell me about plans"})).await;
    let shared = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    asked(&app.prompt(&ada, json!({"prompt": "Pick one for me", "historyId": shared})).await);
    let events = app.prompt(&ada, json!({"prompt": "My private garden"})).await;
    let private = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    World { app, admin, ada, bob, shared, private }
}

fn share_path(history: &str) -> String {
    format!("/gpt/histories/{history}/share")
}

/// Makes a link to `history` as `user`; returns the token.
async fn make_link(app: &TestApp, user: &TestUser, history: &str) -> String {
    let reply = app.call(Some(user), "POST", &share_path(history), None).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    let link = reply.json();
    let token = link["token"].as_str().unwrap().to_string();
    assert_eq!(link["url"], format!("/s/{token}"));
    token
}

/// The shared conversation's JSON, read without a session.
async fn read_link(app: &TestApp, token: &str) -> (StatusCode, String) {
    let reply = app.call(None, "GET", &format!("/shared/{token}"), None).await;
    (reply.status, reply.text)
}

#[tokio::test]
async fn a_link_reads_the_conversation_without_a_session_and_nothing_else() {
    let world = world().await;
    let app = &world.app;
    let token = make_link(app, &world.ada, &world.shared).await;
    assert_eq!(token.len(), 43, "32 bytes, base64url without padding: {token}");
    assert!(token.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'), "{token}");

    let (status, text) = read_link(app, &token).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let document: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(document["data"]["id"], world.shared.as_str());
    assert!(text.contains("Happy to help with plans.") && text.contains("Which plan suits you?"), "{text}");
    assert!(!text.contains("Secret garden") && !text.contains("My private garden"), "only the shared one: {text}");
    assert!(document["data"].get("userId").is_none(), "who owns it is not told: {text}");
    assert!(document["data"].get("pendingAsk").is_none(), "nobody answers through a link: {text}");

    // The page: no sign-in, kept out of search engines and referrers.
    let page = app.call(None, "GET", &format!("/s/{token}"), None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_eq!(page.headers["x-robots-tag"], "noindex");
    assert_eq!(page.headers[header::REFERRER_POLICY], "no-referrer");
    assert!(page.text.contains("Happy to help with plans.") && page.text.contains("Waiting for an answer."));
    assert!(!page.text.contains("composer-input"), "no message box");
    let chat = app.call(Some(&world.ada), "GET", "/", None).await;
    assert_eq!(chat.headers[header::REFERRER_POLICY], "same-origin", "other pages keep theirs");

    // The owner sees since when, never the token again.
    let (status, state) = app.json(&world.ada, "GET", &share_path(&world.shared), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["shared"], true);
    assert!(state["since"].is_string() && !state.to_string().contains(&token), "{state}");
    let (_, unshared) = app.json(&world.ada, "GET", &share_path(&world.private), None).await;
    assert_eq!((&unshared["shared"], &unshared["since"]), (&json!(false), &Value::Null));
}

#[tokio::test]
async fn an_ask_cannot_be_answered_through_a_link() {
    let world = world().await;
    let app = &world.app;
    let token = make_link(app, &world.ada, &world.shared).await;
    let answer = json!({"toolCallId": "anything", "response": {"action": "accept", "content": {"selected": ["b"]}}});
    let posted = app.call(None, "POST", &format!("/shared/{token}"), Some(answer.clone())).await;
    assert_eq!(posted.status, StatusCode::METHOD_NOT_ALLOWED, "there is no such route: {}", posted.text);
    let turn = app
        .call(
            None,
            "POST",
            "/gpt/prompt",
            Some(json!({"historyId": world.shared, "askResponse": answer, "token": token})),
        )
        .await;
    assert_eq!(turn.status, StatusCode::UNAUTHORIZED, "a link is no session: {}", turn.text);
    let (_, read) = app.json(&world.ada, "GET", &format!("/gpt/histories/{}", world.shared), None).await;
    assert!(read["data"]["pendingAsk"].is_object(), "the ask still waits for its owner: {read}");
}

#[tokio::test]
async fn a_new_link_replaces_the_old_and_a_revoked_one_is_gone_at_once() {
    let world = world().await;
    let app = &world.app;
    let first = make_link(app, &world.ada, &world.shared).await;
    let second = make_link(app, &world.ada, &world.shared).await;
    assert_ne!(first, second);
    assert_eq!(read_link(app, &first).await.0, StatusCode::NOT_FOUND, "the old link stops working");
    assert_eq!(read_link(app, &second).await.0, StatusCode::OK);

    let (status, state) = app.json(&world.ada, "DELETE", &share_path(&world.shared), None).await;
    assert_eq!((status, &state["shared"]), (StatusCode::OK, &json!(false)));
    assert_eq!(read_link(app, &second).await.0, StatusCode::NOT_FOUND);
    let page = app.call(None, "GET", &format!("/s/{second}"), None).await;
    assert_eq!(page.status, StatusCode::NOT_FOUND);
    assert!(page.text.contains("Page not found") && !page.text.contains("Happy to help"), "{}", page.text);
    assert_eq!(read_link(app, "not-a-token").await.0, StatusCode::NOT_FOUND);

    // Deleting the conversation ends its link.
    let third = make_link(app, &world.ada, &world.shared).await;
    let (status, _) = app.json(&world.ada, "DELETE", &format!("/gpt/histories/{}", world.shared), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read_link(app, &third).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn only_the_owner_shares_and_sees_the_link() {
    let world = world().await;
    let app = &world.app;
    // An admin may read Ada's conversation, but not share it.
    for user in [&world.bob, &world.admin] {
        for method in ["POST", "GET", "DELETE"] {
            let reply = app.call(Some(user), method, &share_path(&world.shared), None).await;
            assert_eq!(reply.status, StatusCode::FORBIDDEN, "{method} as {}: {}", user.username, reply.text);
        }
    }
    let (_, state) = app.json(&world.ada, "GET", &share_path(&world.shared), None).await;
    assert_eq!(state["shared"], false, "nobody else made a link");
    let missing = app.call(Some(&world.ada), "POST", &share_path("no-such-conversation"), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// The ids of the caller's conversations the list holds (with `query`).
async fn listed(app: &TestApp, user: &TestUser, query: &str) -> Vec<String> {
    let (status, list) = app.json(user, "GET", &format!("/gpt/histories{query}"), None).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    list["data"].as_array().unwrap().iter().map(|history| history["id"].as_str().unwrap().to_string()).collect()
}

/// `PATCH /gpt/histories/{history}` with `body`, as `user`.
async fn patch(app: &TestApp, user: &TestUser, history: &str, body: Value) -> (StatusCode, Value) {
    app.json(user, "PATCH", &format!("/gpt/histories/{history}"), Some(body)).await
}

#[tokio::test]
async fn pin_and_archive_through_patch_and_the_list_filter() {
    let world = world().await;
    let (app, ada) = (&world.app, &world.ada);

    let (status, _) = patch(app, ada, &world.shared, json!({"pinned": true})).await;
    assert_eq!(status, StatusCode::OK);
    let summaries = app.server_fn(Some(ada), "/api/list_histories", "").await.json();
    let pinned: Vec<(&str, &Value)> =
        summaries.as_array().unwrap().iter().map(|entry| (entry["id"].as_str().unwrap(), &entry["pinned"])).collect();
    assert_eq!(pinned, [(world.private.as_str(), &Value::Null), (world.shared.as_str(), &Value::Bool(true))]);

    let (status, _) = patch(app, ada, &world.private, json!({"archived": true})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed(app, ada, "").await, std::slice::from_ref(&world.shared), "archived ones leave the list");
    assert_eq!(
        listed(app, ada, "?archived=true").await,
        std::slice::from_ref(&world.private),
        "and are listed on their own"
    );
    assert_eq!(listed(app, ada, "?q=garden&archived=true").await, std::slice::from_ref(&world.private));
    let (status, read) = app.json(ada, "GET", &format!("/gpt/histories/{}", world.private), None).await;
    assert_eq!(status, StatusCode::OK, "an archived one still opens: {read}");
    let bad = app.call(Some(ada), "GET", "/gpt/histories?archived=maybe", None).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);

    // Sending a message into it brings it back.
    app.prompt(ada, json!({"prompt": "One more thing", "historyId": world.private})).await;
    assert_eq!(listed(app, ada, "?archived=true").await, Vec::<String>::new());
    assert_eq!(listed(app, ada, "").await.len(), 2);

    // Archived and unarchived by hand; pinned and unpinned.
    patch(app, ada, &world.private, json!({"archived": true})).await;
    let (status, _) = patch(app, ada, &world.private, json!({"archived": false, "pinned": false})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(listed(app, ada, "").await.len(), 2);
    let (status, body) = patch(app, ada, &world.private, json!({"pinned": "yes"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let bob = app
        .call(Some(&world.bob), "PATCH", &format!("/gpt/histories/{}", world.shared), Some(json!({"archived": true})))
        .await;
    assert_eq!(bob.status, StatusCode::FORBIDDEN, "{}", bob.text);
}
