//! A person's preferences (custom instructions, a default model) and the server's settings an
//! admin changes at run time (open sign-up, the models on offer), through their server
//! functions, as turns and sign-up then follow them.

use crate::common::{TestApp, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::json;

async fn app() -> TestApp {
    let script =
        json!({"responses": [{"text": "The scripted model answers."}, {"text": "Again."}, {"text": "Third."}]});
    TestApp::with_model_choices(&script.to_string(), "demo=Demo agent").await
}

#[tokio::test]
async fn custom_instructions_reach_the_model_and_a_default_model_starts_new_conversations() {
    let app = app().await;
    let ada = app.user("ada", Role::User).await;
    let saved =
        app.server_fn(Some(&ada), "/api/save_preferences", "instructions=Answer+in+haiku.&default_model=").await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    app.prompt(&ada, json!({"prompt": "Hello"})).await;
    let system = app.mock_log()[0]["system"].as_str().unwrap().to_string();
    assert!(system.starts_with("You are Palaver"), "{system}");
    assert!(system.contains("set these instructions for every conversation") && system.contains("Answer in haiku."));
    // A request that brings its own system prompt chose the whole prompt.
    app.prompt(&ada, json!({"prompt": "Hello again", "systemPrompt": "You are terse."})).await;
    assert!(!app.mock_log()[1]["system"].as_str().unwrap().contains("haiku"));

    let saved = app.server_fn(Some(&ada), "/api/save_preferences", "instructions=&default_model=demo").await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let (_, models) = app.json(&ada, "GET", "/gpt/models", None).await;
    let marked: Vec<&str> = models["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["default"] == true)
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert_eq!(marked, ["demo"], "the picker shows what a conversation that chose none runs on: {models}");
    let events = app.prompt(&ada, json!({"prompt": "Which model?"})).await;
    assert!(streamed_text(&events).contains("You said"), "the demo agent answered: {events:?}");
    assert_eq!(app.mock_log().len(), 2, "the scripted model was not called");

    let long = "x".repeat(4_001);
    let refused =
        app.server_fn(Some(&ada), "/api/save_preferences", &format!("instructions={long}&default_model=")).await;
    assert!(refused.text.contains("at most 4000 characters; these are 4001"), "{}", refused.text);
    let unknown = app.server_fn(Some(&ada), "/api/save_preferences", "instructions=&default_model=gpt-9").await;
    assert!(unknown.text.contains("Unknown model"), "{}", unknown.text);
}

#[tokio::test]
async fn a_model_an_admin_takes_off_is_neither_listed_nor_run_and_sign_up_follows_the_admin() {
    let app = app().await;
    let admin = app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    app.server_fn(Some(&ada), "/api/save_preferences", "instructions=&default_model=demo").await;
    let history = app.prompt(&ada, json!({"prompt": "On the demo", "model": "demo"})).await;
    let history = history.last().unwrap()["historyId"].as_str().unwrap().to_string();

    let saved = app.server_fn(Some(&admin), "/api/admin_save_server_settings", "open_signup=true&offered=").await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let (_, models) = app.json(&ada, "GET", "/gpt/models", None).await;
    let ids: Vec<&str> = models["data"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 1, "only the default: {models}");
    assert!(ids[0].starts_with("mock:"));
    let refused = app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": "x", "model": "demo"}))).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text.contains("not offered on this server any more"), "{}", refused.text);
    // The conversation on the demo, and the person whose default it was, go on on the default.
    let events = app.prompt(&ada, json!({"prompt": "still there?", "historyId": history})).await;
    assert_eq!(streamed_text(&events), "The scripted model answers.");
    let events = app.prompt(&ada, json!({"prompt": "a new one"})).await;
    assert_eq!(streamed_text(&events), "Again.");

    let signup = json!({"username": "newcomer", "password": "correct horse battery"});
    assert_eq!(app.call(None, "POST", "/auth/signup", Some(signup.clone())).await.status, StatusCode::CREATED);
    app.server_fn(Some(&admin), "/api/admin_save_server_settings", "open_signup=false&offered=demo").await;
    let closed = json!({"username": "latecomer", "password": "correct horse battery"});
    assert_eq!(app.call(None, "POST", "/auth/signup", Some(closed)).await.status, StatusCode::FORBIDDEN);
    let (_, models) = app.json(&ada, "GET", "/gpt/models", None).await;
    assert_eq!(models["data"].as_array().unwrap().len(), 2, "demo is offered again");
    let not_admin = app.server_fn(Some(&ada), "/api/admin_server_settings", "").await;
    assert_eq!(not_admin.status, StatusCode::FORBIDDEN, "{}", not_admin.text);
}
