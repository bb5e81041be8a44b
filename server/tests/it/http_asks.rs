//! Asks end to end over HTTP with the mock model and its request log: the wire example turn by
//! turn, pause and resume, stale and invalid answers, one ask at a time, cancel on prompt,
//! approvals, the compact surface, the headless endpoints and racing requests.

use crate::common::{TestApp, TestUser, asked, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

fn plan_call(id: &str) -> Value {
    json!({"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan should I set up?", "submitLabel": "Set up plan", "title": "Choose a plan", "default": ["team"],
        "options": [
            {"description": "$0, one seat", "id": "starter", "label": "Starter"},
            {"description": "$20 per seat", "id": "team", "label": "Team"},
            {"id": "enterprise", "label": "Enterprise"}],
        "select": "one"}})
}

fn script(responses: Value) -> String {
    json!({ "responses": responses }).to_string()
}

async fn setup(responses: Value) -> (TestApp, TestUser) {
    let app = TestApp::with_mock(&script(responses)).await;
    let user = app.user("ada", Role::User).await;
    (app, user)
}

fn answer(history: &Value, tool_call_id: &str, response: Value) -> Value {
    let mut ask_response = response;
    ask_response["toolCallId"] = json!(tool_call_id);
    json!({"historyId": history, "askResponse": ask_response})
}

async fn rows(app: &TestApp, user: &TestUser, history: &Value) -> Value {
    let (_, body) = app.json(user, "GET", &format!("/gpt/histories/{}", history.as_str().unwrap()), None).await;
    body["data"].clone()
}

#[tokio::test]
async fn the_wire_example_turn_by_turn() {
    let (app, ada) = setup(json!([
        {"toolCalls": [plan_call("call_8f2c1")]},
        {"text": "Done. Your team is on the Team plan."}
    ]))
    .await;

    let turn1 = app.prompt(&ada, json!({"prompt": "Set up billing for my team"})).await;
    assert_eq!(turn1.len(), 2, "{turn1:?}");
    let ask = &turn1[0];
    let history = ask["historyId"].clone();
    // The ask has an id Palaver minted; the model keeps its own (below, in its messages).
    let ask_id = asked(&turn1);
    assert!(ask_id.starts_with("ask_") && ask_id != "call_8f2c1", "{ask_id}");
    assert_eq!(ask["ask"]["kind"], "choice");
    assert_eq!(ask["ask"]["input"], plan_call("x")["input"]);
    assert_eq!(ask["ask"]["simple"]["buttons"][0]["id"], "option:team");
    assert_eq!(ask["ask"]["simple"]["handoff"], false);
    assert!(ask["ask"].get("origin").is_none());
    assert_eq!(turn1[1]["done"], true);
    assert_eq!(turn1[1]["historyId"], history);
    assert_eq!(turn1[1]["pendingAsk"], json!({"toolCallId": ask_id}));

    let pending = rows(&app, &ada, &history).await["pendingAsk"].clone();
    assert_eq!(pending["toolCallId"], ask_id.as_str());
    assert!(pending.get("modelCallId").is_none(), "the model's id is replay state");
    assert!(pending.get("promptIndex").is_none() && pending.get("responseMessages").is_none());

    let turn2 = app
        .prompt(&ada, answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["team"]}})))
        .await;
    assert_eq!(turn2[0], json!({"askResolved": {"action": "accept", "toolCallId": ask_id}}));
    assert_eq!(streamed_text(&turn2), "Done. Your team is on the Team plan.");
    assert_eq!(turn2.last().unwrap()["done"], true);
    assert!(turn2.last().unwrap().get("pendingAsk").is_none());

    let log = app.mock_log();
    let messages = log[1]["messages"].as_array().unwrap();
    assert_eq!(messages[0], json!({"role": "user", "text": "Set up billing for my team"}));
    assert_eq!(messages[1]["toolCalls"][0]["id"], "call_8f2c1");
    assert_eq!(
        messages[2],
        json!({"role": "tool", "toolCallId": "call_8f2c1", "toolName": "ask_choice", "result": {"action": "accept", "content": {"selected": ["team"]}}})
    );
    assert_eq!(messages.len(), 3);

    let history = rows(&app, &ada, &history).await;
    let types: Vec<&str> =
        history["prompts"].as_array().unwrap().iter().map(|row| row["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["user", "tool-call", "tool-result", "assistant"]);
    assert_eq!(history["prompts"][1]["ask"], json!({"kind": "choice", "status": "answered"}));
    assert_eq!(history["prompts"][1]["toolCallId"], ask_id.as_str());
    assert_eq!(history["prompts"][1]["modelCallId"], "call_8f2c1");
    assert!(history["pendingAsk"].is_null());

    let (metadata,): (String,) =
        sqlx::query_as("SELECT CAST(metadata AS TEXT) FROM ai_requests ORDER BY created_at, id")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&metadata).unwrap()["ask"],
        json!({"kind": "choice", "phase": "asked", "toolCallId": ask_id})
    );
}

#[tokio::test]
async fn stale_and_invalid_answers_are_refused_before_the_model_runs() {
    let (app, ada) = setup(json!([{"toolCalls": [plan_call("call_1")]}, {"text": "ok"}])).await;
    let turn = app.prompt(&ada, json!({"prompt": "plan"})).await;
    let history = turn[0]["historyId"].clone();
    let ask_id = asked(&turn);

    let invalid = app
        .call(
            Some(&ada),
            "POST",
            "/gpt/prompt",
            Some(answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["gold"]}}))),
        )
        .await;
    assert_eq!(invalid.status, StatusCode::BAD_REQUEST);
    let body = invalid.json();
    assert_eq!(body["title"], "Invalid askResponse");
    assert_eq!(body["detail"], "The answer does not match the ask. See fields.");
    assert_eq!(
        body["fields"],
        json!([{"code": "OPTION_NOT_OFFERED", "fix": "Use the id of one of the ask's options.", "message": "\"gold\" is not one of the offered options.", "path": "content.selected[0]"}])
    );
    assert!(body["requestId"].is_string());

    let stale = app
        .call(Some(&ada), "POST", "/gpt/prompt", Some(answer(&history, "call_other", json!({"action": "decline"}))))
        .await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
    assert_eq!(stale.json()["title"], "This ask is no longer pending");
    assert_eq!(stale.json()["detail"], "Tool call call_other is not the ask this conversation is waiting on.");
    let by_the_models_id = app
        .call(Some(&ada), "POST", "/gpt/prompt", Some(answer(&history, "call_1", json!({"action": "decline"}))))
        .await;
    assert_eq!(by_the_models_id.status, StatusCode::CONFLICT, "the model's id is not the ask's");
    assert_eq!(app.mock_log().len(), 1, "none reached the model");

    let ok = app.prompt(&ada, answer(&history, &ask_id, json!({"action": "decline"}))).await;
    assert_eq!(ok[0]["askResolved"]["action"], "decline");
    let again = app
        .call(Some(&ada), "POST", "/gpt/prompt", Some(answer(&history, &ask_id, json!({"action": "decline"}))))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "an answered ask is no longer pending");
}

#[tokio::test]
async fn request_shape_errors_have_the_spec_titles() {
    let (app, ada) = setup(json!([])).await;
    let cases = [
        (json!({}), "prompt is required"),
        (
            json!({"prompt": "x", "askResponse": {"toolCallId": "c", "action": "decline"}}),
            "Send either prompt or askResponse, not both",
        ),
        (json!({"askResponse": "yes"}), "askResponse must be an object"),
        (json!({"askResponse": {"action": "decline"}}), "askResponse.toolCallId is required"),
        (
            json!({"askResponse": {"toolCallId": "c", "action": "decline"}, "historyId": "h", "attachments": []}),
            "attachments cannot be sent with askResponse",
        ),
        (json!({"askResponse": {"toolCallId": "c", "action": "decline"}}), "historyId is required with askResponse"),
        (json!({"prompt": "x", "surface": "watch"}), "surface is not a known surface"),
    ];
    for (body, title) in cases {
        let reply = app.call(Some(&ada), "POST", "/gpt/prompt", Some(body.clone())).await;
        assert_eq!((reply.status, reply.json()["title"].clone()), (StatusCode::BAD_REQUEST, json!(title)), "{body}");
    }
    let surface = app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": "x", "surface": "watch"}))).await;
    assert_eq!(surface.json()["detail"], "Send one of: full, compact.");
}

#[tokio::test]
async fn a_second_ask_in_one_step_is_cancelled_one_ask_at_a_time() {
    let confirm = json!({"id": "call_2", "name": "ask_confirm", "input": {"prompt": "Also this?"}});
    let (app, ada) =
        setup(json!([{"text": "thinking", "toolCalls": [plan_call("call_1"), confirm]}, {"text": "ok"}])).await;
    let turn = app.prompt(&ada, json!({"prompt": "two asks"})).await;
    let retract = turn.iter().position(|event| event.get("retract").is_some()).expect("a retract event");
    assert_eq!(turn[retract], json!({"retract": "step"}), "text of a tool step is taken back from Palaver's view");
    assert!(turn[retract + 1].get("ask").is_some());
    assert!(turn.iter().all(|event| event.get("text").is_none()), "and never sent as {{text}}: {turn:?}");
    let asks: Vec<&Value> = turn.iter().filter(|event| event.get("ask").is_some()).collect();
    assert_eq!(asks.len(), 1);
    let ask_id = asked(&turn);
    let history = asks[0]["historyId"].clone();
    let data = rows(&app, &ada, &history).await;
    let rows = data["prompts"].as_array().unwrap();
    let dropped = rows.iter().find(|row| row["modelCallId"] == "call_2" && row["type"] == "tool-call").unwrap();
    assert_eq!(dropped["ask"]["status"], "cancelled");
    let dropped_id = dropped["toolCallId"].as_str().unwrap();
    assert!(dropped_id.starts_with("ask_") && dropped_id != ask_id, "a dropped ask has an id of its own too");
    let result = rows.iter().find(|row| row["toolCallId"] == dropped_id && row["type"] == "tool-result").unwrap();
    assert_eq!(result["result"], json!({"action": "cancel", "reason": "one_ask_at_a_time"}));
    assert!(!rows.iter().any(|row| row["type"] == "assistant"), "the step's text is dropped");

    app.prompt(&ada, answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["starter"]}})))
        .await;
    let messages = app.mock_log()[1]["messages"].clone();
    let results: Vec<&Value> = messages.as_array().unwrap().iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(results.len(), 2, "the model sees the cancelled ask and the answer");
    assert_eq!(results[0]["result"]["reason"], "one_ask_at_a_time");
    let told: Vec<&Value> = results.iter().map(|result| &result["toolCallId"]).collect();
    assert_eq!(told, [&json!("call_2"), &json!("call_1")], "under the model's own ids");
}

#[tokio::test]
async fn a_prompt_cancels_the_pending_ask_first() {
    let (app, ada) = setup(json!([{"toolCalls": [plan_call("call_1")]}, {"text": "Sure, about your message."}])).await;
    let turn = app.prompt(&ada, json!({"prompt": "plan"})).await;
    let (history, ask_id) = (turn[0]["historyId"].clone(), asked(&turn));
    let turn = app.prompt(&ada, json!({"prompt": "never mind", "historyId": history})).await;
    assert_eq!(turn[0], json!({"askResolved": {"action": "cancel", "toolCallId": ask_id}}));
    let data = rows(&app, &ada, &history).await;
    assert!(data["pendingAsk"].is_null());
    let rows = data["prompts"].as_array().unwrap();
    assert_eq!(rows[1]["ask"]["status"], "cancelled");
    assert_eq!(rows[2]["result"], json!({"action": "cancel", "reason": "user_sent_message"}));
    assert_eq!(rows[3], json!({"type": "user", "text": "never mind"}));
    let messages = app.mock_log()[1]["messages"].clone();
    assert_eq!(messages[2]["result"]["reason"], "user_sent_message", "the model sees the cancel, then the message");
    assert_eq!(messages[3]["text"], "never mind");
}

#[tokio::test]
async fn approvals_run_the_tool_only_when_approved() {
    let delete = |id: &str| json!({"id": id, "name": "deleteCompletedTodos", "input": {}});
    let (app, ada) = setup(json!([
        {"toolCalls": [delete("call_del_1")]}, {"text": "Deleted."},
        {"toolCalls": [delete("call_del_2")]}, {"text": "Kept them."}
    ]))
    .await;
    let seed = |title: &str, completed: bool| {
        let pool = app.pool.clone();
        let user = ada.id.clone();
        let title = title.to_string();
        async move {
            sqlx::query("INSERT INTO todos (id, owner_id, title, completed) VALUES ($1, $2, $3, $4)")
                .bind(format!("t_{title}"))
                .bind(user)
                .bind(title)
                .bind(i64::from(completed))
                .execute(&pool)
                .await
                .unwrap();
        }
    };
    seed("done one", true).await;
    seed("open one", false).await;
    let count =
        || async { sqlx::query_as::<_, (i64,)>("SELECT COUNT(*) FROM todos").fetch_one(&app.pool).await.unwrap().0 };

    let turn = app.prompt(&ada, json!({"prompt": "delete my completed todos"})).await;
    assert_eq!(turn[0]["toolCall"]["toolName"], "deleteCompletedTodos");
    let ask = &turn[1]["ask"];
    assert_eq!(ask["origin"], "approval");
    assert_eq!(ask["toolName"], "deleteCompletedTodos");
    assert_eq!(ask["kind"], "confirm");
    assert_eq!(ask["input"]["prompt"], "Delete all of your completed todos? You can't undo this.");
    assert_eq!(ask["simple"]["buttons"][0]["style"], "destructive");
    let approval_id = ask["toolCallId"].as_str().unwrap().to_string();
    let history = turn[1]["historyId"].clone();
    assert_eq!(count().await, 2, "nothing runs before the user approves");

    let denied_first = app
        .prompt(&ada, answer(&history, &approval_id, json!({"action": "accept", "content": {"confirmed": true}})))
        .await;
    assert_eq!(denied_first[1]["toolResult"]["result"], json!({"deleted": 1}));
    assert_eq!(count().await, 1, "approved: the tool ran once");

    // With a completed todo to delete (with none, the tool's check completes the call at once).
    seed("done two", true).await;
    let turn = app.prompt(&ada, json!({"prompt": "delete again", "historyId": history})).await;
    let approval_id = turn[1]["ask"]["toolCallId"].as_str().unwrap().to_string();
    let denied = app
        .prompt(&ada, answer(&history, &approval_id, json!({"action": "accept", "content": {"confirmed": false}})))
        .await;
    assert_eq!(denied[1]["toolResult"]["result"], json!({"approved": false, "reason": "user_denied"}));
    assert_eq!(count().await, 2, "denied: the tool did not run");
    let last = app.mock_log().last().unwrap()["messages"].clone();
    let tool_result = last.as_array().unwrap().iter().rev().find(|m| m["role"] == "tool").unwrap().clone();
    assert_eq!(tool_result["result"], json!({"type": "execution-denied", "reason": "user_denied"}));
}

#[tokio::test]
async fn the_compact_surface_offers_narrow_tools_and_the_small_screen_line() {
    let (app, ada) = setup(json!([{"text": "Short."}])).await;
    app.prompt(&ada, json!({"prompt": "hi", "surface": "compact"})).await;
    let request = &app.mock_log()[0];
    let tools: Vec<&str> = request["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(&tools[..2], ["ask_choice", "ask_confirm"]);
    assert!(!tools.contains(&"ask_markdown"));
    assert_eq!(request["tools"][0]["inputSchema"]["properties"]["options"]["maxItems"], 3);
    assert!(request["system"].as_str().unwrap().ends_with(palaver_contract::asks::COMPACT_SURFACE_SYSTEM_PROMPT));
}

#[tokio::test]
async fn an_invalid_ask_goes_back_to_the_model_as_a_tool_error() {
    let bad = json!({"id": "call_bad", "name": "ask_choice", "input": {"prompt": "Pick", "select": "one", "options": [{"id": "a", "label": "A"}]}});
    let (app, ada) = setup(json!([{"toolCalls": [bad]}, {"text": "Let me ask differently."}])).await;
    let turn = app.prompt(&ada, json!({"prompt": "ask badly"})).await;
    assert!(turn.iter().all(|event| event.get("ask").is_none()), "an invalid ask never reaches the client");
    assert_eq!(streamed_text(&turn), "Let me ask differently.");
    let second = &app.mock_log()[1]["messages"];
    let error = second.as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(error["result"]["errors"][0]["code"], "TOO_FEW");
}

#[tokio::test]
async fn headless_turns_ask_and_answer_with_a_button() {
    let (app, ada) =
        setup(json!([{"toolCalls": [plan_call("call_8f2c1")]}, {"text": "Done. Your team is on the Team plan."}]))
            .await;
    let (status, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["data"]["id"].as_str().unwrap().to_string();
    let url = format!("/gpt/histories/{id}/turn");

    let (status, first) =
        app.json(&ada, "POST", &url, Some(json!({"prompt": "Set up billing for my team", "surface": "compact"}))).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    assert_eq!(first["data"]["text"], "");
    let ask_id = first["data"]["pendingAsk"]["toolCallId"].as_str().unwrap().to_string();
    assert!(ask_id.starts_with("ask_"), "{ask_id}");
    assert_eq!(first["data"]["pendingAsk"]["simple"]["buttons"][0]["id"], "option:team");
    assert!(first["requestId"].is_string());

    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(pending["data"][0]["historyId"], id.as_str());
    assert_eq!(pending["data"][0]["toolCallId"], ask_id.as_str());
    assert!(pending["data"][0]["created"].as_str().unwrap().ends_with('Z'));

    let unknown =
        app.call(Some(&ada), "POST", &url, Some(json!({"toolCallId": ask_id, "buttonId": "option:gold"}))).await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    let body = unknown.json();
    assert_eq!((body["title"].clone(), body["code"].clone()), (json!("Unknown buttonId"), json!("UNKNOWN_BUTTON")));
    assert_eq!(
        body["meta"]["fields"][0]["fix"],
        "Send the id of one of the card's buttons: \"option:team\", \"option:starter\", \"option:enterprise\"."
    );

    let (status, second) = app
        .json(&ada, "POST", &url, Some(json!({"toolCallId": ask_id, "buttonId": "option:team", "surface": "compact"})))
        .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(second["data"]["text"], "Done. Your team is on the Team plan.");
    assert!(second["data"].get("pendingAsk").is_none());
    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(pending["data"], json!([]));

    let stale =
        app.call(Some(&ada), "POST", &url, Some(json!({"toolCallId": ask_id, "buttonId": "option:team"}))).await;
    assert_eq!(stale.status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn headless_body_validation() {
    let (app, ada) = setup(json!([])).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let url = format!("/gpt/histories/{}/turn", created["data"]["id"].as_str().unwrap());
    let cases = [
        (json!({}), "prompt"),
        (json!({"prompt": "a", "toolCallId": "c", "buttonId": "b"}), "prompt"),
        (json!({"buttonId": "b"}), "toolCallId"),
        (json!({"toolCallId": "c"}), "buttonId"),
        (json!({"prompt": "a", "surface": "watch"}), "surface"),
        (json!({"prompt": "a", "extra": 1}), "extra"),
    ];
    for (body, field) in cases {
        let reply = app.call(Some(&ada), "POST", &url, Some(body.clone())).await;
        let json = reply.json();
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(
            (json["title"].clone(), json["code"].clone(), json["detail"].clone()),
            (
                json!("Validation failed"),
                json!("action-body-validation-failed"),
                json!("The request body did not match the action's schema")
            )
        );
        assert!(json["meta"]["fields"][field].is_string(), "{body}: {json}");
    }
    let watch = app.call(Some(&ada), "POST", &url, Some(json!({"prompt": "a", "surface": "watch"}))).await;
    assert_eq!(watch.json()["meta"]["fields"]["surface"], r#"Invalid option: expected one of "full"|"compact""#);
    let missing = app.call(Some(&ada), "POST", "/gpt/histories/nope/turn", Some(json!({"prompt": "a"}))).await;
    assert_eq!((missing.status, missing.json()["code"].clone()), (StatusCode::NOT_FOUND, json!("document-not-found")));
}

#[tokio::test]
async fn two_answers_racing_resume_once() {
    let (app, ada) =
        setup(json!([{"toolCalls": [plan_call("call_1")]}, {"text": "ok", "chunkDelayMs": 20}, {"text": "never"}]))
            .await;
    let asking = app.prompt(&ada, json!({"prompt": "plan"})).await;
    let history = asking[0]["historyId"].clone();
    let body = answer(&history, &asked(&asking), json!({"action": "accept", "content": {"selected": ["team"]}}));
    let (a, b) = tokio::join!(
        app.call(Some(&ada), "POST", "/gpt/prompt", Some(body.clone())),
        app.call(Some(&ada), "POST", "/gpt/prompt", Some(body.clone()))
    );
    let mut statuses = [a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let data = rows(&app, &ada, &history).await;
    let results = data["prompts"].as_array().unwrap().iter().filter(|row| row["type"] == "tool-result").count();
    assert_eq!(results, 1, "the answer is stored once");
}

#[tokio::test]
async fn two_prompts_racing_cancel_the_ask_once() {
    let (app, ada) = setup(json!([{"toolCalls": [plan_call("call_1")]}, {"text": "a"}, {"text": "b"}])).await;
    let history = app.prompt(&ada, json!({"prompt": "plan"})).await[0]["historyId"].clone();
    let (a, b) = tokio::join!(
        app.prompt(&ada, json!({"prompt": "first", "historyId": history})),
        app.prompt(&ada, json!({"prompt": "second", "historyId": history}))
    );
    let resolved = [a, b].iter().filter(|events| events[0].get("askResolved").is_some()).count();
    assert_eq!(resolved, 1, "exactly one prompt cancels the ask");
    let data = rows(&app, &ada, &history).await;
    let cancels =
        data["prompts"].as_array().unwrap().iter().filter(|row| row["result"]["reason"] == "user_sent_message").count();
    assert_eq!(cancels, 1);
}

#[tokio::test]
async fn a_failed_continuation_before_any_output_undoes_the_answer() {
    let (app, ada) =
        setup(json!([{"toolCalls": [plan_call("call_1")]}, {"error": "model down"}, {"text": "Back."}])).await;
    let asking = app.prompt(&ada, json!({"prompt": "plan"})).await;
    let (history, ask_id) = (asking[0]["historyId"].clone(), asked(&asking));
    let body = answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["team"]}}));
    let failed = app.prompt(&ada, body.clone()).await;
    assert_eq!(failed[0]["askResolved"]["action"], "accept");
    assert_eq!(failed[1], json!({"error": "model down"}));
    assert_eq!(failed[2]["pendingAsk"], json!({"toolCallId": ask_id}));
    let data = rows(&app, &ada, &history).await;
    assert_eq!(data["pendingAsk"]["toolCallId"], ask_id.as_str(), "the ask is pending again");
    assert_eq!(data["prompts"].as_array().unwrap().len(), 2);
    assert_eq!(data["prompts"][1]["ask"]["status"], "pending");

    let retried = app.prompt(&ada, body).await;
    assert_eq!(streamed_text(&retried), "Back.", "the same answer can be sent again");
}

#[tokio::test]
async fn an_answer_survives_a_server_restart() {
    let dir_app =
        TestApp::with_mock(&script(json!([{"toolCalls": [plan_call("call_1")]}, {"text": "Welcome back."}]))).await;
    let ada = dir_app.user("ada", Role::User).await;
    let asking = dir_app.prompt(&ada, json!({"prompt": "plan"})).await;
    let (history, ask_id) = (asking[0]["historyId"].clone(), asked(&asking));
    // A new router and runner over the same database: nothing of the turn lives in memory.
    let options = leptos::prelude::LeptosOptions::builder().output_name("palaver").build();
    let model = palaver_core::llm::model_from_spec(
        &format!("mock:{}", dir_app.dir.path().join("mock.json").display()),
        None,
        &Default::default(),
    )
    .unwrap();
    let state = palaver_server::app_state(
        options,
        dir_app.pool.clone(),
        palaver_core::llm::Models::single(model),
        crate::common::test_auth(),
        palaver_core::turn::TurnSettings::default(),
        palaver_core::turn::TurnDependencies::default(),
        Default::default(),
        palaver_core::signals::Signals::local(),
        Default::default(),
    )
    .expect("the app's state");
    let restarted =
        TestApp { router: palaver_server::router(state.clone()), dir: dir_app.dir, pool: dir_app.pool, state };
    // The fresh mock starts at its first response again; skip it with a throwaway turn.
    restarted.prompt(&ada, json!({"prompt": "warm up"})).await;
    let turn = restarted
        .prompt(&ada, answer(&history, &ask_id, json!({"action": "accept", "content": {"selected": ["team"]}})))
        .await;
    assert_eq!(turn[0]["askResolved"]["action"], "accept");
    assert_eq!(streamed_text(&turn), "Welcome back.");
}

#[tokio::test]
async fn an_invalid_ask_then_a_corrected_one_sends_only_the_corrected_ask() {
    let bad = json!({"id": "call_bad", "name": "ask_choice", "input": {"prompt": "Pick", "select": "one", "options": [{"id": "a", "label": "A"}]}});
    let (app, ada) = setup(json!([{"toolCalls": [bad]}, {"toolCalls": [plan_call("call_good")]}])).await;
    let turn = app.prompt(&ada, json!({"prompt": "ask"})).await;
    let asks: Vec<&Value> = turn.iter().filter(|event| event.get("ask").is_some()).collect();
    assert_eq!(asks.len(), 1);
    assert_eq!(asks[0]["ask"]["input"]["prompt"], "Which plan should I set up?", "the corrected ask");
}

#[tokio::test]
async fn with_asks_off_no_ask_tools_prompt_or_events_appear() {
    let app = TestApp::with_mock(&script(json!([{"text": "Plain reply."}]))).await;
    let settings = palaver_core::turn::TurnSettings { ask_kinds: Vec::new(), ..Default::default() };
    let dependencies = palaver_core::turn::TurnDependencies { tools: Default::default(), ..Default::default() };
    let model = palaver_core::llm::model_from_spec(
        &format!("mock:{}", app.dir.path().join("mock.json").display()),
        Some(app.dir.path().join("off.jsonl")),
        &Default::default(),
    )
    .unwrap();
    let options = leptos::prelude::LeptosOptions::builder().output_name("palaver").build();
    let signals = palaver_core::signals::Signals::local();
    let state = palaver_server::app_state(
        options,
        app.pool.clone(),
        palaver_core::llm::Models::single(model),
        crate::common::test_auth(),
        settings,
        dependencies,
        Default::default(),
        signals,
        Default::default(),
    )
    .expect("the app's state");
    let off = TestApp { router: palaver_server::router(state.clone()), dir: app.dir, pool: app.pool, state };
    let ada = off.user("ada", Role::User).await;
    let turn = off.prompt(&ada, json!({"prompt": "hi", "askResponse": {"toolCallId": "x", "action": "decline"}})).await;
    assert_eq!(streamed_text(&turn), "Plain reply.", "askResponse is ignored with asks off");
    let log: Value = serde_json::from_str(
        std::fs::read_to_string(off.dir.path().join("off.jsonl")).unwrap().lines().next().unwrap(),
    )
    .unwrap();
    assert_eq!(log["tools"], json!([]));
    assert_eq!(log["system"], palaver_core::turn::BASE_SYSTEM_PROMPT);

    // The headless routes are not there, as the reference mounts them only with asks on; the
    // model is not called for them.
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let headless =
        off.call(Some(&ada), "POST", &format!("/gpt/histories/{history}/turn"), Some(json!({"prompt": "hi"}))).await;
    assert_eq!(headless.status, StatusCode::NOT_FOUND);
    let listed = off.call(Some(&ada), "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(listed.status, StatusCode::NOT_FOUND);
    let calls = std::fs::read_to_string(off.dir.path().join("off.jsonl")).unwrap().lines().count();
    assert_eq!(calls, 1, "only the streamed turn called the model");

    // The page says asks are off, and its header has no inbox (whose list would be refused);
    // with asks on, the header has it.
    let bearer = format!("Bearer {}", ada.token);
    let page = off.send("GET", "/", &[("authorization", &bearer)], None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(
        page.text.contains(palaver_app::ASKS_OFF_ATTRIBUTE) && page.text.contains("data-testid=\"signed-in-user\"")
    );
    assert!(!page.text.contains("data-testid=\"inbox\""), "no inbox with asks off");
    let on = TestApp::with_mock(&script(json!([]))).await;
    let bea = on.user("bea", Role::User).await;
    let page = on.send("GET", "/", &[("authorization", &format!("Bearer {}", bea.token))], None).await;
    assert!(
        page.text.contains("data-testid=\"inbox\"") && !page.text.contains(palaver_app::ASKS_OFF_ATTRIBUTE),
        "{}",
        page.text
    );
}

#[tokio::test]
async fn a_headless_approve_button_runs_the_tool_once() {
    let delete = json!({"id": "call_del", "name": "deleteCompletedTodos", "input": {}});
    let (app, ada) = setup(json!([{"toolCalls": [delete]}, {"text": "Deleted."}])).await;
    app.seed_completed_todo(&ada).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let url = format!("/gpt/histories/{}/turn", created["data"]["id"].as_str().unwrap());
    let (_, first) = app.json(&ada, "POST", &url, Some(json!({"prompt": "clean up"}))).await;
    let pending = &first["data"]["pendingAsk"];
    assert_eq!(pending["kind"], "confirm");
    assert!(pending.get("origin").is_none(), "the headless summary leaves out origin");
    let (_, second) =
        app.json(&ada, "POST", &url, Some(json!({"toolCallId": pending["toolCallId"], "buttonId": "approve"}))).await;
    assert_eq!(second["data"]["text"], "Deleted.");
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM todos").fetch_one(&app.pool).await.unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn a_client_that_disconnects_mid_turn_still_gets_the_turn_saved() {
    let (app, ada) = setup(json!([{"text": "A slow reply that keeps going for a while.", "chunkDelayMs": 150}])).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let id = created["data"]["id"].as_str().unwrap().to_string();
    let url = format!("/gpt/histories/{id}/turn");
    // The client gives up long before the turn ends: its request future is dropped.
    let gave_up = tokio::time::timeout(
        std::time::Duration::from_millis(100),
        app.call(Some(&ada), "POST", &url, Some(json!({"prompt": "go"}))),
    )
    .await;
    assert!(gave_up.is_err());
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let data = rows(&app, &ada, &json!(id)).await;
    assert_eq!(
        data["prompts"][1],
        json!({"type": "assistant", "model": "mock", "text": "A slow reply that keeps going for a while."})
    );
}

#[tokio::test]
async fn stop_ends_a_running_turn_and_keeps_what_was_said() {
    let (app, ada) = setup(json!([{"text": "First part. Second part. Third part.", "chunkDelayMs": 300}])).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let id = created["data"]["id"].as_str().unwrap().to_string();
    let body = json!({"prompt": "talk slowly", "historyId": id});
    let streaming = {
        let (router, token) = (app.router.clone(), ada.token.clone());
        tokio::spawn(async move {
            use http_body_util::BodyExt;
            use tower::ServiceExt;
            let request = axum::http::Request::post("/gpt/prompt")
                .header("host", "palaver.test")
                .header("authorization", format!("Bearer {token}"))
                .header("content-type", "application/json")
                .body(axum::body::Body::from(body.to_string()))
                .unwrap();
            let response = router.oneshot(request).await.unwrap();
            String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap()
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(450)).await;
    let stopped = app.call_form(&ada, "/api/stop_turn", &format!("id={id}")).await;
    assert_eq!((stopped.status, stopped.text.as_str()), (StatusCode::OK, "true"));
    let events = crate::common::sse_events(&streaming.await.unwrap());
    assert_eq!(events.last().unwrap()["done"], true);
    let said = streamed_text(&events);
    assert!(!said.is_empty() && said.len() < "First part. Second part. Third part.".len(), "{said}");
    let data = rows(&app, &ada, &json!(id)).await;
    assert_eq!(
        data["prompts"][1],
        json!({"type": "assistant", "model": "mock", "text": said}),
        "what was said is kept"
    );
    let again = app.call_form(&ada, "/api/stop_turn", &format!("id={id}")).await;
    assert_eq!(again.text, "false", "nothing runs any more");
}

#[tokio::test]
async fn an_ask_carries_its_deadline_everywhere_and_an_answer_after_it_is_refused_as_expired() {
    let script = script(json!([{"toolCalls": [plan_call("call_1")]}]));
    let app = TestApp::with_ask_ttl(&script, std::time::Duration::from_secs(1)).await;
    let ada = app.user("ada", Role::User).await;
    let turn = app.prompt(&ada, json!({"prompt": "Set up billing"})).await;
    let (history, ask_id) = (turn[0]["historyId"].clone(), asked(&turn));
    let deadline = turn[0]["ask"]["expiresAt"].as_str().expect("the {ask} event has expiresAt").to_string();
    let view = rows(&app, &ada, &history).await;
    assert_eq!(view["pendingAsk"]["expiresAt"], deadline.as_str());
    let (_, list) = app.json(&ada, "GET", "/gpt/histories/pendingAsks?include=expiresAt", None).await;
    assert_eq!(list["data"][0]["expiresAt"], deadline.as_str());

    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let late = app
        .call(Some(&ada), "POST", "/gpt/prompt", Some(answer(&history, &ask_id, json!({"action": "decline"}))))
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT);
    let body = late.json();
    assert_eq!(body["title"], "This ask is no longer pending", "the reference's title, for its clients");
    assert_eq!(body["code"], "ASK_EXPIRED");
    assert!(body["detail"].as_str().unwrap().contains(&deadline), "{body}");
    let view = rows(&app, &ada, &history).await;
    assert!(view["pendingAsk"].is_null(), "{view}");
    let call =
        view["prompts"].as_array().unwrap().iter().find(|row| row["toolCallId"] == ask_id.as_str()).unwrap().clone();
    assert_eq!(call["ask"]["status"], "expired");
    assert!(call["ask"]["expiredAt"].as_str().is_some_and(|at| at >= deadline.as_str()), "{call}");
    let (_, list) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(list["data"], json!([]));
}

#[tokio::test]
async fn the_audit_trail_records_each_decision_once_and_serves_each_user_their_own() {
    let delete = json!({"toolCalls": [{"id": "call_del", "name": "deleteCompletedTodos", "input": {}}]});
    let app = TestApp::with_mock(&script(json!([
        delete, {"text": "Deleted."},
        {"toolCalls": [plan_call("call_plan")]}, {"text": "Fine."},
        {"toolCalls": [plan_call("call_bob")]}, {"text": "Skipped."}
    ])))
    .await;
    // The first account is the admin.
    let root = app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    app.seed_completed_todo(&ada).await;

    let turn = app.prompt(&ada, json!({"prompt": "Clean up"})).await;
    let history = turn.last().unwrap()["historyId"].clone();
    app.prompt(&ada, answer(&history, &asked(&turn), json!({"action": "accept", "content": {"confirmed": true}})))
        .await;
    let plan = asked(&app.prompt(&ada, json!({"historyId": history, "prompt": "Pick a plan"})).await);
    app.prompt(&ada, json!({"historyId": history, "prompt": "Never mind"})).await;
    let turn = app.prompt(&bob, json!({"prompt": "Pick a plan"})).await;
    app.prompt(&bob, answer(&turn.last().unwrap()["historyId"], &asked(&turn), json!({"action": "decline"}))).await;

    let (status, body) = app.json(&ada, "GET", "/gpt/audit", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let entries = body["data"]["entries"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 2, "ada's own, never bob's: {body}");
    let (cancelled, approved) = (&entries[0], &entries[1]);
    assert_eq!(cancelled["decision"], "cancel");
    assert_eq!(cancelled["reason"], "user_sent_message");
    assert_eq!(cancelled["toolCallId"], plan.as_str());
    assert_eq!(approved["decision"], "accept");
    assert_eq!(approved["approved"], true);
    assert_eq!(approved["origin"], "approval");
    assert_eq!(approved["toolName"], "deleteCompletedTodos");
    assert_eq!(approved["scope"], "once");
    // SHA-256 of `{}`, the call's arguments as canonical JSON.
    assert_eq!(approved["argsDigest"], "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
    for entry in &entries {
        assert_eq!((&entry["actor"], &entry["owner"]), (&json!("ada"), &json!("ada")));
        assert_eq!((&entry["surface"], &entry["tokenName"]), (&json!("api"), &json!("tests")), "{entry}");
    }
    assert!(body["data"].get("nextBefore").is_none());

    let (_, first) = app.json(&ada, "GET", "/gpt/audit?limit=1", None).await;
    assert_eq!(first["data"]["entries"][0], entries[0]);
    let before = first["data"]["nextBefore"].as_i64().expect("a next page");
    let (_, second) = app.json(&ada, "GET", &format!("/gpt/audit?limit=1&before={before}"), None).await;
    assert_eq!(second["data"]["entries"], json!([entries[1]]));
    assert!(second["data"].get("nextBefore").is_none());

    let (status, _) = app.json(&ada, "GET", "/gpt/audit?all=true", None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, everyone) = app.json(&root, "GET", "/gpt/audit?all=true", None).await;
    assert_eq!(status, StatusCode::OK);
    let owners: Vec<&str> =
        everyone["data"]["entries"].as_array().unwrap().iter().map(|e| e["owner"].as_str().unwrap()).collect();
    assert_eq!(owners, ["bob", "ada", "ada"]);
    for bad in ["/gpt/audit?limit=0", "/gpt/audit?limit=201", "/gpt/audit?page=2", "/gpt/audit?before=x"] {
        let (status, body) = app.json(&ada, "GET", bad, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["detail"].is_string(), "{bad}: {body}");
    }
}
