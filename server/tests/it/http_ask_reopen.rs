//! `POST /gpt/histories/{id}/asks/{askId}/reopen` over HTTP: an answer taken back (the ask
//! pending again, the reply gone, the withdrawal in the audit trail, the chat's view saying
//! until when), refused with the person's sentence once the conversation went on or the window
//! closed, and only for the conversation's owner.

use crate::common::{TestApp, TestUser, asked, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

fn plan_call() -> Value {
    json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

/// A conversation of ada's whose ask was answered `solo` and replied to.
async fn answered(replies: Value) -> (TestApp, TestUser, String, String) {
    let mut responses = vec![plan_call()];
    responses.extend(replies.as_array().cloned().unwrap_or_default());
    let app = TestApp::with_mock(&json!({ "responses": responses }).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let events = app.prompt(&ada, json!({"prompt": "Set up billing"})).await;
    let (history, ask) = (events[0]["historyId"].as_str().unwrap().to_string(), asked(&events));
    let answer = json!({"historyId": history, "askResponse":
        {"toolCallId": ask, "action": "accept", "content": {"selected": ["solo"]}}});
    app.prompt(&ada, answer).await;
    (app, ada, history, ask)
}

fn reopen_path(history: &str, ask: &str) -> String {
    format!("/gpt/histories/{history}/asks/{ask}/reopen")
}

async fn replies(app: &TestApp, user: &TestUser, history: &str) -> Vec<String> {
    let (_, body) = app.json(user, "GET", &format!("/gpt/histories/{history}"), None).await;
    let prompts = body["data"]["prompts"].as_array().cloned().unwrap_or_default();
    let reply = |row: &Value| row["text"].as_str().filter(|_| row["type"] == "assistant").map(str::to_string);
    prompts.iter().filter_map(reply).collect()
}

#[tokio::test]
async fn an_answer_is_taken_back_and_answered_again() {
    let (app, ada, history, ask) = answered(json!([{"text": "Solo it is."}, {"text": "Team it is."}])).await;
    let view = app.server_fn(Some(&ada), "/api/get_history", &format!("id={history}")).await.json();
    assert_eq!(view["changeableAnswer"]["toolCallId"], json!(ask), "the chat's view offers the change: {view}");
    assert!(view["changeableAnswer"]["until"].as_str().is_some_and(|until| until > "2000"));

    let reply = app.call(Some(&ada), "POST", &reopen_path(&history, &ask), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.json()["data"]["toolCallId"], json!(ask));
    assert_eq!(reply.json()["data"]["kind"], "choice");
    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert!(pending.to_string().contains(&ask), "pending again: {pending}");
    assert!(!replies(&app, &ada, &history).await.iter().any(|text| text.contains("Solo")), "the reply went");

    let answer = json!({"historyId": history, "askResponse":
        {"toolCallId": ask, "action": "accept", "content": {"selected": ["team"]}}});
    let events = app.prompt(&ada, answer).await;
    assert_eq!(streamed_text(&events), "Team it is.");
    let (_, audit) = app.json(&ada, "GET", "/gpt/audit", None).await;
    let decisions: Vec<&str> =
        audit["data"]["entries"].as_array().unwrap().iter().filter_map(|e| e["decision"].as_str()).collect();
    assert_eq!(decisions, ["accept", "withdrawn", "accept"], "newest first: {audit}");
    let withdrawn = &audit["data"]["entries"][1];
    assert_eq!((withdrawn["actor"].as_str(), withdrawn["surface"].as_str()), (Some("ada"), Some("api")));
}

#[tokio::test]
async fn a_refusal_says_why_in_a_sentence() {
    let (app, ada, history, ask) = answered(json!([{"text": "Solo it is."}, {"text": "Anything else?"}])).await;
    sqlx::query("UPDATE answered_asks SET changeable_until = '2000-01-01T00:00:00.000Z'")
        .execute(&app.pool)
        .await
        .unwrap();
    let closed = app.call(Some(&ada), "POST", &reopen_path(&history, &ask), None).await;
    assert_eq!(closed.status, StatusCode::CONFLICT);
    assert_eq!(closed.json()["title"], "This answer can no longer be changed: the window to change it closed.");
    let view = app.server_fn(Some(&ada), "/api/get_history", &format!("id={history}")).await.json();
    assert!(view.get("changeableAnswer").is_none(), "no offer once the window closed: {view}");

    sqlx::query("UPDATE answered_asks SET changeable_until = '2999-01-01T00:00:00.000Z'")
        .execute(&app.pool)
        .await
        .unwrap();
    app.prompt(&ada, json!({"prompt": "Thanks", "historyId": history})).await;
    let went_on = app.call(Some(&ada), "POST", &reopen_path(&history, &ask), None).await;
    assert_eq!(went_on.status, StatusCode::CONFLICT);
    assert_eq!(went_on.json()["title"], "This answer can no longer be changed: the conversation has gone on.");
    assert_eq!(replies(&app, &ada, &history).await, ["Solo it is.", "Anything else?"], "nothing changed");
}

#[tokio::test]
async fn only_the_owner_takes_an_answer_back() {
    let (app, ada, history, ask) = answered(json!([{"text": "Solo it is."}])).await;
    let grace = app.user("grace", Role::User).await;
    let other = app.call(Some(&grace), "POST", &reopen_path(&history, &ask), None).await;
    assert_eq!((other.status, other.json()["title"].clone()), (StatusCode::FORBIDDEN, json!("Access denied")));
    let missing = app.call(Some(&ada), "POST", &reopen_path("no-such-conversation", &ask), None).await;
    assert_eq!((missing.status, missing.json()["title"].clone()), (StatusCode::NOT_FOUND, json!("Document not found")));
    let anonymous = app.call(None, "POST", &reopen_path(&history, &ask), None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let view = app.server_fn(Some(&grace), "/api/get_history", &format!("id={history}")).await;
    assert_eq!(view.status, StatusCode::FORBIDDEN);
    assert_eq!(replies(&app, &ada, &history).await, ["Solo it is."], "nothing changed");
}
