//! The first chat over HTTP: health, a streamed turn, stored rows, the mock model's request log.

use crate::common::{TestApp, TestUser, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

async fn app_with_user(script: &str) -> (TestApp, TestUser) {
    let app = TestApp::with_mock(script).await;
    let user = app.user("ada", Role::User).await;
    (app, user)
}

#[tokio::test]
async fn health_answers_once_migrated_with_a_request_id() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let reply = app.call(None, "GET", "/health", None).await;
    let (status, body) = (reply.status, reply.json());
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["status"], "ok");
    assert_eq!(body["requestId"].as_str().map(str::len), Some(36));
}

#[tokio::test]
async fn a_turn_streams_the_reply_and_saves_the_conversation() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "Hello **there**, friend."}]}"#).await;
    let events = app.prompt(&ada, json!({"prompt": "Say hello to me please"})).await;

    assert!(events.len() >= 3, "the reply arrives in several text events: {events:?}");
    assert_eq!(streamed_text(&events), "Hello **there**, friend.");
    let done = events.last().unwrap();
    assert_eq!(done["done"], true);
    assert_eq!(done["title"], "Say hello to me please");
    let history_id = done["historyId"].as_str().unwrap();

    let (status, history) = app.json(&ada, "GET", &format!("/gpt/histories/{history_id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        history["data"]["prompts"],
        json!([
            {"type": "user", "text": "Say hello to me please"},
            {"type": "assistant", "model": "mock", "text": "Hello **there**, friend."}
        ])
    );
    let (_, list) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(list["data"][0]["id"], history_id);
    assert_eq!(list["data"][0]["title"], "Say hello to me please");
}

#[tokio::test]
async fn the_next_turn_replays_the_conversation_to_the_model() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "First answer"}, {"text": "Second answer"}]}"#).await;
    let first = app.prompt(&ada, json!({"prompt": "one"})).await;
    let history_id = first.last().unwrap()["historyId"].clone();
    let second = app.prompt(&ada, json!({"prompt": "two", "historyId": history_id})).await;
    assert_eq!(streamed_text(&second), "Second answer");
    assert!(second.last().unwrap().get("title").is_none(), "the title is set once");

    let log = app.mock_log();
    assert_eq!(log.len(), 2);
    assert_eq!(
        log[1]["messages"],
        json!([
            {"role": "user", "text": "one"},
            {"role": "assistant", "text": "First answer"},
            {"role": "user", "text": "two"}
        ])
    );
    assert!(log[1]["system"].as_str().unwrap().contains("Palaver"));
    let tools: Vec<&str> =
        log[1]["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect();
    assert_eq!(
        tools,
        [
            "ask_choice",
            "ask_confirm",
            "ask_markdown",
            "ask_form",
            "ask_files",
            "ask_questions",
            "addTodo",
            "completeTodo",
            "deleteCompletedTodos",
            "listTodos",
            "scheduleReminder"
        ]
    );

    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ai_requests").fetch_one(&app.pool).await.unwrap();
    assert_eq!(count, 2, "every model call is in the request log");
}

#[tokio::test]
async fn a_failing_model_reports_the_error_and_keeps_only_the_message() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "Partial", "error": "the model fell over"}]}"#).await;
    let events = app.prompt(&ada, json!({"prompt": "hello"})).await;
    // As the reference has it: the failed step says nothing ({text} comes at a step's end),
    // and what Palaver's view saw of it as {delta} is taken back.
    assert_eq!(streamed_text(&events), "");
    let shape: Vec<&str> =
        events.iter().map(|event| event.as_object().unwrap().keys().next().unwrap().as_str()).collect();
    assert_eq!(shape, ["delta", "delta", "delta", "retract", "error", "done"]);
    assert!(events.iter().any(|event| event["error"] == "the model fell over"));
    let done = events.last().unwrap();
    assert!(done.get("title").is_none(), "no title after a failed turn: {done}");
    let history_id = done["historyId"].as_str().unwrap().to_string();
    let (_, history) = app.json(&ada, "GET", &format!("/gpt/histories/{history_id}"), None).await;
    assert_eq!(history["data"]["prompts"], json!([{"type": "user", "text": "hello"}]));
    assert!(history["data"].get("title").is_none(), "{history}");
}

#[tokio::test]
async fn bad_prompt_requests_get_the_spec_problems() {
    let (app, ada) = app_with_user(r#"{"responses": []}"#).await;
    let (status, body) = app.json(&ada, "POST", "/gpt/prompt", Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["title"], "prompt is required");
    assert_eq!(body["status"], 400);
    assert!(body["requestId"].is_string());

    let (status, body) = app.json(&ada, "POST", "/gpt/prompt", Some(json!({"prompt": "   "}))).await;
    assert_eq!((status, body["title"].as_str()), (StatusCode::BAD_REQUEST, Some("prompt is required")));

    let (status, body) =
        app.json(&ada, "POST", "/gpt/prompt", Some(json!({"prompt": "hi", "historyId": "nope"}))).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["title"], "History not found");

    let (status, body) = app.json(&ada, "GET", "/gpt/histories/nope", None).await;
    assert_eq!((status, body["title"].as_str()), (StatusCode::NOT_FOUND, Some("Document not found")));

    let reply = app.call(Some(&ada), "POST", "/gpt/prompt", None).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
}

#[tokio::test]
async fn the_requests_system_prompt_reaches_the_model_in_place_of_the_persona_line() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "Arr."}]}"#).await;
    app.prompt(&ada, json!({"prompt": "hi", "systemPrompt": "You are a pirate."})).await;
    let system = app.mock_log()[0]["system"].as_str().unwrap().to_string();
    assert!(system.starts_with("You are a pirate.") && !system.contains("You are Palaver"), "{system}");

    let (status, body) = app.json(&ada, "POST", "/gpt/prompt", Some(json!({"prompt": "hi", "systemPrompt": 1}))).await;
    assert_eq!((status, body["title"].as_str()), (StatusCode::BAD_REQUEST, Some("systemPrompt must be a string")));
    assert_eq!(app.mock_log().len(), 1, "a refused request reaches no model");
}

#[tokio::test]
async fn create_history_starts_an_empty_conversation() {
    let (app, ada) = app_with_user(r#"{"responses": []}"#).await;
    let (status, body) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(body["data"]["prompts"], json!([]));
    assert_eq!(body["data"]["id"].as_str().map(str::len), Some(32));
}

#[tokio::test]
async fn the_chat_page_renders_on_the_server() {
    let (app, ada) =
        app_with_user(r#"{"responses": [{"text": "<script>alert(1)</script> [x](javascript:alert(1))"}]}"#).await;
    let events = app.prompt(&ada, json!({"prompt": "<img src=x onerror=alert(1)>"})).await;
    let history_id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let reply = app.call(Some(&ada), "GET", &format!("/?c={history_id}"), None).await;
    let (status, html) = (reply.status, reply.text);
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains("Conversation"));
    assert!(!html.contains("<script>alert"), "a reply's script is inert");
    assert!(!html.contains("<img src=x"), "a user's markup is inert");
    assert!(!html.contains("href=\"javascript:"), "no javascript: links");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[tokio::test]
async fn every_response_names_its_request_id_and_a_caller_may_give_its_own() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let reply = app.call(None, "GET", "/health", None).await;
    let header = reply.headers.get("x-request-id").and_then(|value| value.to_str().ok()).map(str::to_string);
    assert_eq!(header.as_deref(), reply.json()["requestId"].as_str(), "the header and the body agree");
    let given = app.send("GET", "/health", &[("x-request-id", "trace-4711")], None).await;
    assert_eq!(given.headers.get("x-request-id").and_then(|value| value.to_str().ok()), Some("trace-4711"));
    assert_eq!(given.json()["requestId"], "trace-4711");
    let odd = app.send("GET", "/health", &[("x-request-id", "a b\"c")], None).await;
    let replaced = odd.json()["requestId"].as_str().unwrap_or_default().to_string();
    assert_eq!(replaced.len(), 36, "an id that is not a plain token is replaced: {replaced}");
    assert_eq!(odd.headers.get("x-request-id").and_then(|value| value.to_str().ok()), Some(replaced.as_str()));
}

#[tokio::test]
async fn oversized_prompts_and_bodies_are_refused_in_the_apis_json_shape() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "never"}]}"#).await;
    let long = "a".repeat(palaver_core::turn::PROMPT_MAX_LENGTH + 1);
    let reply = app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": long}))).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(reply.json()["title"].as_str().unwrap().starts_with("prompt is longer than 100000 characters"));
    let (_, histories) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(histories["data"], json!([]), "nothing is stored");

    // Past the body limit, axum answers in plain text; the API answers in JSON, with its request id.
    let huge = "a".repeat(3 * 1024 * 1024);
    let reply = app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": huge}))).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    let problem = reply.json();
    assert_eq!(problem["status"], 413);
    assert_eq!(problem["title"], "Payload Too Large");
    assert!(problem["detail"].as_str().unwrap().contains("length limit exceeded"), "{problem}");
    assert!(problem["requestId"].is_string());
}

#[tokio::test]
async fn a_message_with_a_nul_character_is_kept_on_either_backend() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "Got a\u0000b."}]}"#).await;
    let events = app.prompt(&ada, json!({"prompt": "Keep a\u{0}b"})).await;
    let done = events.last().unwrap();
    assert_eq!(done["done"], true, "{events:?}");
    let history_id = done["historyId"].as_str().unwrap();
    let (status, history) = app.json(&ada, "GET", &format!("/gpt/histories/{history_id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    // PostgreSQL cannot hold U+0000 in text or jsonb: there it is stored as U+FFFD.
    let kept = |text: &str| text == "Keep a\u{0}b" || text == "Keep a\u{fffd}b";
    let rows = history["data"]["prompts"].as_array().unwrap();
    assert!(kept(rows[0]["text"].as_str().unwrap()), "{rows:?}");
    assert!(rows[1]["text"].as_str().unwrap().starts_with("Got a"), "{rows:?}");
    assert_eq!(history["data"]["title"].as_str().map(|title| title.starts_with("Keep a")), Some(true));
}

/// The rows of a conversation as `user` reads them.
async fn rows(app: &TestApp, user: &TestUser, history: &serde_json::Value) -> serde_json::Value {
    let history = history.as_str().unwrap();
    app.json(user, "GET", &format!("/gpt/histories/{history}"), None).await.1["data"]["prompts"].clone()
}

#[tokio::test]
async fn the_last_reply_is_regenerated_and_the_last_message_edited_in_place_each_kept_as_a_version() {
    let script = r#"{"responses": [{"text": "Paris."}, {"text": "Ten."}, {"text": "Eleven."}, {"text": "Red."}]}"#;
    let (app, ada) = app_with_user(script).await;
    let first = app.prompt(&ada, json!({"prompt": "Capital of France?"})).await;
    let history = first.last().unwrap()["historyId"].clone();
    app.prompt(&ada, json!({"prompt": "How many toes?", "historyId": history})).await;

    let regenerated = app.prompt(&ada, json!({"historyId": history, "replaceLast": true, "seenRows": 4})).await;
    assert_eq!(streamed_text(&regenerated), "Eleven.");
    assert_eq!(
        rows(&app, &ada, &history).await,
        json!([
            {"type": "user", "text": "Capital of France?"},
            {"type": "assistant", "model": "mock", "text": "Paris."},
            {"type": "user", "text": "How many toes?", "branches": {"shown": 1, "count": 2}},
            {"type": "assistant", "model": "mock", "text": "Eleven."}
        ])
    );
    let log = app.mock_log();
    assert_eq!(
        log[2]["messages"],
        json!([
            {"role": "user", "text": "Capital of France?"},
            {"role": "assistant", "text": "Paris."},
            {"role": "user", "text": "How many toes?"}
        ]),
        "the model never sees the retracted reply"
    );

    let edited =
        app.prompt(&ada, json!({"historyId": history, "replaceLast": true, "prompt": "Favourite colour?"})).await;
    assert_eq!(streamed_text(&edited), "Red.");
    let rows_now = rows(&app, &ada, &history).await;
    assert_eq!(rows_now[2], json!({"type": "user", "text": "Favourite colour?", "branches": {"shown": 2, "count": 3}}));
    assert_eq!(rows_now.as_array().unwrap().len(), 4);
    assert_eq!(app.mock_log()[3]["messages"][2], json!({"role": "user", "text": "Favourite colour?"}));
}

#[tokio::test]
async fn a_redo_is_refused_with_nothing_changed_when_it_cannot_be_done() {
    let (app, ada) = app_with_user(r#"{"responses": [{"text": "Paris."}]}"#).await;
    let first = app.prompt(&ada, json!({"prompt": "Capital of France?"})).await;
    let history = first.last().unwrap()["historyId"].clone();
    let before = rows(&app, &ada, &history).await;
    let send = |body: serde_json::Value| app.call(Some(&ada), "POST", "/gpt/prompt", Some(body));

    let stale = send(json!({"historyId": history, "replaceLast": true, "seenRows": 1})).await;
    assert_eq!(
        (stale.status, stale.json()["title"].clone()),
        (StatusCode::CONFLICT, json!("The conversation changed since you saw it. Reload it and try again."))
    );
    for (body, why) in [
        (json!({"historyId": history, "replaceLast": "yes"}), "replaceLast is a boolean"),
        (json!({"historyId": history, "seenRows": 2}), "seenRows needs replaceLast"),
        (json!({"historyId": history, "replaceLast": true, "seenRows": -1}), "a count is not negative"),
        (json!({"replaceLast": true, "prompt": "Hi"}), "a new conversation has nothing to replace"),
        (
            json!({"historyId": history, "replaceLast": true, "askResponse": {"toolCallId": "x", "action": "cancel"}}),
            "an answer is not a message",
        ),
        (json!({"historyId": history, "replaceLast": true, "prompt": "x".repeat(100_001)}), "too long"),
    ] {
        let refused = send(body).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{why}: {}", refused.text);
    }
    let (_, empty) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let nothing = send(json!({"historyId": empty["data"]["id"], "replaceLast": true})).await;
    assert_eq!(
        (nothing.status, nothing.json()["title"].clone()),
        (StatusCode::CONFLICT, json!("There is no message to send again."))
    );
    let grace = app.user("grace", Role::User).await;
    let foreign =
        app.call(Some(&grace), "POST", "/gpt/prompt", Some(json!({"historyId": history, "replaceLast": true}))).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
    assert_eq!(rows(&app, &ada, &history).await, before, "nothing changed");
    assert_eq!(app.mock_log().len(), 1, "no model call");
}

#[tokio::test]
async fn regenerating_a_reply_that_asked_withdraws_its_ask() {
    let ask = json!({"id": "call_c", "name": "ask_confirm", "input": {"prompt": "Book it?"}});
    let script = json!({"responses": [{"toolCalls": [ask]}, {"text": "Booked nothing; tell me more."}]});
    let (app, ada) = app_with_user(&script.to_string()).await;
    let first = app.prompt(&ada, json!({"prompt": "Book a table"})).await;
    let history = first.last().unwrap()["historyId"].clone();
    let (_, view) = app.json(&ada, "GET", &format!("/gpt/histories/{}", history.as_str().unwrap()), None).await;
    assert_eq!(view["data"]["pendingAsk"]["toolCallId"], crate::common::asked(&first).as_str());

    let again = app.prompt(&ada, json!({"historyId": history, "replaceLast": true})).await;
    assert_eq!(streamed_text(&again), "Booked nothing; tell me more.");
    let (_, view) = app.json(&ada, "GET", &format!("/gpt/histories/{}", history.as_str().unwrap()), None).await;
    assert!(view["data"]["pendingAsk"].is_null(), "{view}");
    assert_eq!(
        view["data"]["prompts"],
        json!([
            {"type": "user", "text": "Book a table", "branches": {"shown": 1, "count": 2}},
            {"type": "assistant", "model": "mock", "text": "Booked nothing; tell me more."}
        ])
    );
    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(pending["data"], json!([]));
}

#[tokio::test]
async fn every_refusal_before_the_stream_says_detail_the_title_when_there_is_nothing_more() {
    let (app, ada) = app_with_user(r#"{"responses": []}"#).await;
    let ask = json!({"toolCallId": "c", "action": "decline"});
    // (body, status, detail; None: the title again)
    let cases: Vec<(Value, u16, Option<&str>)> = vec![
        (json!({}), 400, None),
        (json!([]), 400, None),
        (json!({"prompt": 7}), 400, None),
        (json!({"prompt": "x", "askResponse": ask}), 400, None),
        (json!({"askResponse": "yes"}), 400, None),
        (json!({"askResponse": {"action": "decline"}}), 400, None),
        (json!({"askResponse": ask}), 400, None),
        (json!({"prompt": "x", "replaceLast": "yes"}), 400, None),
        (json!({"prompt": "x", "model": "nope"}), 400, None),
        (json!({"prompt": "x", "surface": "watch"}), 400, Some("Send one of: full, compact.")),
        (json!({"prompt": "hi", "historyId": "nope"}), 404, None),
    ];
    for (body, status, detail) in cases {
        let reply = app.call(Some(&ada), "POST", "/gpt/prompt", Some(body.clone())).await;
        let problem = reply.json();
        assert_eq!(reply.status.as_u16(), status, "{body}: {problem}");
        let expected = detail.map_or_else(|| problem["title"].clone(), |detail| json!(detail));
        assert_eq!(problem["detail"], expected, "{body}: {problem}");
    }
}
