//! Choosing a conversation's model (`PALAVER_MODELS`) over HTTP: the list, the choice made
//! with the first message, kept for the next ones, changed by PATCH, and refused when the
//! server does not offer it, before anything is written.

use crate::common::{TestApp, TestUser, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

async fn app_with_choices() -> (TestApp, TestUser, String) {
    let script = json!({"responses": [{"text": "The scripted model answers."}]});
    let app = TestApp::with_model_choices(&script.to_string(), "demo=Demo agent").await;
    let ada = app.user("ada", Role::User).await;
    let (_, models) = app.json(&ada, "GET", "/gpt/models", None).await;
    let mock = models["data"][0]["id"].as_str().expect("the default's id").to_string();
    (app, ada, mock)
}

async fn model_of(app: &TestApp, user: &TestUser, history: &str) -> Value {
    let (status, read) = app.json(user, "GET", &format!("/gpt/histories/{history}"), None).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    read["data"]["model"].clone()
}

#[tokio::test]
async fn the_server_lists_its_models_the_default_first() {
    let (app, ada, mock) = app_with_choices().await;
    let (status, models) = app.json(&ada, "GET", "/gpt/models", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(mock.starts_with("mock:"), "{models}");
    assert_eq!(
        models["data"],
        json!([{"id": mock, "label": mock, "default": true}, {"id": "demo", "label": "Demo agent", "default": false}])
    );
    assert_eq!(app.call(None, "GET", "/gpt/models", None).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_conversation_runs_on_the_model_it_chose_until_it_chooses_another() {
    let (app, ada, mock) = app_with_choices().await;
    let first = app.prompt(&ada, json!({"prompt": "What is the weather?", "model": "demo"})).await;
    let history = first.last().unwrap()["historyId"].as_str().unwrap().to_string();
    assert!(streamed_text(&first).contains("You said"), "the demo agent answered: {first:?}");
    assert_eq!(model_of(&app, &ada, &history).await, "demo");

    // The next message, sent without a model, stays on the conversation's choice.
    let second = app.prompt(&ada, json!({"prompt": "and again", "historyId": history})).await;
    assert!(streamed_text(&second).contains("You said"), "{second:?}");
    assert!(app.mock_log().is_empty(), "the scripted model was never called");

    let (status, patched) =
        app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(json!({"model": mock}))).await;
    assert_eq!(status, StatusCode::OK, "{patched}");
    assert_eq!(patched["data"]["id"], history.as_str());
    assert_eq!(model_of(&app, &ada, &history).await, mock.as_str());
    let third = app.prompt(&ada, json!({"prompt": "now you", "historyId": history})).await;
    assert_eq!(streamed_text(&third), "The scripted model answers.");
    assert_eq!(app.mock_log().len(), 1);

    // A conversation that chose nothing runs on, and shows, the default.
    let (status, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["data"]["model"], mock.as_str());
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({"model": "demo"}))).await;
    let id = created["data"]["id"].as_str().unwrap();
    assert_eq!(model_of(&app, &ada, id).await, "demo");
}

#[tokio::test]
async fn a_model_the_server_does_not_offer_is_refused_and_nothing_is_written() {
    let (app, ada, _) = app_with_choices().await;
    let refused =
        app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": "hi", "model": "openai:gpt-9"}))).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{}", refused.text);
    assert!(refused.text.contains("Unknown model \\\"openai:gpt-9\\\". This server offers: mock:"), "{}", refused.text);
    let (_, list) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(list["data"], json!([]), "no conversation was created");
    let created = app.call(Some(&ada), "POST", "/gpt/histories", Some(json!({"model": "nope"}))).await;
    assert_eq!(created.status, StatusCode::BAD_REQUEST, "{}", created.text);

    let first = app.prompt(&ada, json!({"prompt": "What is the weather?", "model": "demo"})).await;
    let history = first.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let path = format!("/gpt/histories/{history}");
    // Both parts of an update are checked before either is written.
    let (status, body) = app.json(&ada, "PATCH", &path, Some(json!({"title": "Kept?", "model": "nope"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("This server offers"), "{body}");
    let (_, read) = app.json(&ada, "GET", &path, None).await;
    assert_ne!(read["data"]["title"], "Kept?");
    assert_eq!(read["data"]["model"], "demo");
    let (status, body) = app.json(&ada, "PATCH", &path, Some(json!({"model": "demo", "title": " "}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, body) = app.json(&ada, "PATCH", &path, Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("Send {title} and/or {model}"), "{body}");

    // Someone else's conversation: not theirs to change.
    let bob = app.user("bob", Role::User).await;
    let (status, _) = app.json(&bob, "PATCH", &path, Some(json!({"model": "demo"}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}
