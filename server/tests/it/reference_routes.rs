//! The history routes as the reference serves them, written from its route tests
//! (`gptHistories.test.ts` as the test catalogue has it) and the spec's "Stored state": the
//! documents (`prompts`, `_id`, unset fields left out), titles after the first reply, `{text}`
//! per step, and the error bodies. Palaver's additions are checked to be additions only.

use crate::common::{TestApp, TestUser};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

/// The catalogue's PLAN_ASK_CALL: a compact-safe choice, id "call_plan".
fn plan_call() -> Value {
    json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan should I set up?", "select": "one",
        "options": [{"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]}}]})
}

async fn setup(responses: Value) -> (TestApp, TestUser) {
    let script = json!({"title": "Workspace setup", "responses": responses});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    (app, ada)
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn pause_then_resume_with_a_button_as_the_references_route_test_has_it() {
    let (app, ada) = setup(json!([plan_call(), {"text": "Setting up the Team plan."}])).await;
    let created = app.call(Some(&ada), "POST", "/gpt/histories", Some(json!({}))).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let document = created.json()["data"].clone();
    assert_eq!(document["_id"], document["id"]);
    assert_eq!(document["prompts"], json!([]));
    assert_eq!(document["userId"], ada.id.as_str());
    for unset in ["title", "pendingAsk"] {
        assert!(document.get(unset).is_none(), "{unset} is left out, not null: {document}");
    }
    let id = document["id"].as_str().unwrap().to_string();
    let turn = format!("/gpt/histories/{id}/turn");

    let (status, asked) =
        app.json(&ada, "POST", &turn, Some(json!({"prompt": "Set up billing", "surface": "compact"}))).await;
    assert_eq!(status, StatusCode::OK, "{asked}");
    let data = &asked["data"];
    assert_eq!(keys(data), ["historyId", "pendingAsk", "text"], "no title on a turn that only asked: {data}");
    assert_eq!((data["historyId"].as_str(), data["text"].as_str()), (Some(id.as_str()), Some("")));
    assert_eq!(data["pendingAsk"]["kind"], "choice");
    // The ask's id is Palaver's own (the reference's is the model's): a client answers by
    // whatever id the pending ask names.
    let ask_id = data["pendingAsk"]["toolCallId"].as_str().unwrap().to_string();
    assert!(ask_id.starts_with("ask_"), "{ask_id}");

    let button = json!({"buttonId": "option:team", "toolCallId": ask_id, "surface": "compact"});
    let (_, answered) = app.json(&ada, "POST", &turn, Some(button)).await;
    assert_eq!(
        answered["data"],
        json!({"historyId": id, "text": "Setting up the Team plan.", "title": "Workspace setup"})
    );

    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    let read = &read["data"];
    assert_eq!((&read["_id"], &read["title"]), (&json!(id), &json!("Workspace setup")));
    assert!(read.get("pendingAsk").is_none(), "{read}");
    let prompts = read["prompts"].as_array().unwrap();
    let types: Vec<&str> = prompts.iter().map(|row| row["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["user", "tool-call", "tool-result", "assistant"]);
    assert_eq!(
        (&prompts[1]["text"], &prompts[1]["ask"], &prompts[1]["toolName"]),
        (&json!("Tool call: ask_choice"), &json!({"kind": "choice", "status": "answered"}), &json!("ask_choice"))
    );
    assert_eq!(prompts[2]["text"], "Tool result: ask_choice");
    assert_eq!(prompts[2]["result"], json!({"action": "accept", "content": {"selected": ["team"]}}));
    assert_eq!(prompts[3], json!({"type": "assistant", "text": "Setting up the Team plan.", "model": "mock"}));

    let (_, list) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(list["data"][0]["prompts"], read["prompts"], "list items are the same documents");
    assert_eq!(list["data"][0]["_id"], json!(id));
}

#[tokio::test]
async fn a_pending_ask_is_in_the_document_without_its_replay_state() {
    let delete = json!({"toolCalls": [{"id": "call_delete", "name": "deleteCompletedTodos", "input": {}}]});
    let (app, ada) = setup(json!([delete])).await;
    sqlx::query("INSERT INTO todos (id, owner_id, title, completed) VALUES ('t1', $1, 'Old chore', 1)")
        .bind(&ada.id)
        .execute(&app.pool)
        .await
        .unwrap();
    let streamed = app.prompt(&ada, json!({"prompt": "Tidy my todos"})).await;
    let id = streamed.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    let pending = &read["data"]["pendingAsk"];
    assert_eq!(pending["origin"], "approval");
    assert_eq!(pending["approvalId"], pending["toolCallId"], "an approval names its approvalId: {pending}");
    for hidden in ["promptIndex", "responseMessages"] {
        assert!(pending.get(hidden).is_none(), "{hidden} is for the model only");
    }
}

#[tokio::test]
async fn an_answer_whose_model_fails_mid_step_returns_empty_text_and_the_ask_again() {
    let (app, ada) =
        setup(json!([plan_call(), {"text": "Setting up the Te", "error": "The model is overloaded"}])).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let id = created["data"]["id"].as_str().unwrap().to_string();
    let turn = format!("/gpt/histories/{id}/turn");
    let (_, asked) = app.json(&ada, "POST", &turn, Some(json!({"prompt": "Set up billing"}))).await;
    let ask_id = asked["data"]["pendingAsk"]["toolCallId"].clone();
    let button = json!({"buttonId": "option:team", "toolCallId": ask_id});
    let (status, failed) = app.json(&ada, "POST", &turn, Some(button)).await;
    assert_eq!(status, StatusCode::OK);
    let data = &failed["data"];
    assert_eq!((&data["error"], &data["text"]), (&json!("The model is overloaded"), &json!("")), "{data}");
    assert!(data.get("title").is_none(), "no title after a failure");
    assert_eq!(data["pendingAsk"]["toolCallId"], ask_id, "the ask is back, to be answered again");
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    let types: Vec<&str> =
        read["data"]["prompts"].as_array().unwrap().iter().map(|row| row["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["user", "tool-call"], "only what was said before the failed step");
}

#[tokio::test]
async fn a_rename_answers_with_the_document() {
    let (app, ada) = setup(json!([{"text": "Hi."}])).await;
    let streamed = app.prompt(&ada, json!({"prompt": "Hello there"})).await;
    let id = streamed.last().unwrap()["historyId"].as_str().unwrap().to_string();
    assert_eq!(streamed.last().unwrap()["title"], "Workspace setup", "the first reply's done names it");
    let (status, renamed) =
        app.json(&ada, "PATCH", &format!("/gpt/histories/{id}"), Some(json!({"title": "Greetings"}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((&renamed["data"]["_id"], &renamed["data"]["title"]), (&json!(id), &json!("Greetings")));
    assert_eq!(renamed["data"]["prompts"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn create_and_update_drop_pending_ask_only_a_turn_writes_it() {
    let (app, ada) = setup(json!([plan_call()])).await;
    let forged = json!({"toolCallId": "call_forged", "kind": "confirm"});
    let created = app.call(Some(&ada), "POST", "/gpt/histories", Some(json!({"pendingAsk": forged}))).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let id = created.json()["data"]["id"].as_str().unwrap().to_string();
    assert!(created.json()["data"].get("pendingAsk").is_none(), "{}", created.text);

    let (_, asked) =
        app.json(&ada, "POST", &format!("/gpt/histories/{id}/turn"), Some(json!({"prompt": "Plan?"}))).await;
    let ask_id = asked["data"]["pendingAsk"]["toolCallId"].clone();
    assert!(ask_id.is_string(), "{asked}");
    let patch = json!({"title": "Plans", "pendingAsk": forged, "pendingAsk.toolCallId": "call_forged"});
    let (status, updated) = app.json(&ada, "PATCH", &format!("/gpt/histories/{id}"), Some(patch)).await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(updated["data"]["title"], "Plans");
    assert_eq!(updated["data"]["pendingAsk"]["toolCallId"], ask_id, "the turn's ask stays: {updated}");
}

#[tokio::test]
async fn a_reply_is_rated_by_its_owner_and_the_rating_is_kept_in_the_request_log() {
    let (app, ada) = setup(json!([{"text": "Hello!"}])).await;
    let bob = app.user("bob", Role::User).await;
    let admin = app.user("root", Role::Admin).await;
    let streamed = app.prompt(&ada, json!({"prompt": "hi"})).await;
    let id = streamed.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let url = format!("/gpt/histories/{id}/rating");
    let refused = [
        (&ada, json!({"promptIndex": "bad", "rating": "up"}), 400, "promptIndex must be a non-negative number"),
        (&ada, json!({"promptIndex": -1, "rating": "up"}), 400, "promptIndex must be a non-negative number"),
        (&ada, json!({"promptIndex": 1, "rating": "maybe"}), 400, "rating must be 'up', 'down', or null"),
        (&ada, json!({"promptIndex": 1}), 400, "rating must be 'up', 'down', or null"),
        (&ada, json!({"promptIndex": 99, "rating": "up"}), 400, "promptIndex out of range"),
        (&bob, json!({"promptIndex": 1, "rating": "up"}), 403, "Not authorized to access this history"),
        (&admin, json!({"promptIndex": 1, "rating": "up"}), 403, "Not authorized to access this history"),
    ];
    for (user, body, status, title) in refused {
        let reply = app.call(Some(user), "PATCH", &url, Some(body.clone())).await;
        assert_eq!((reply.status.as_u16(), reply.json()["title"].clone()), (status, json!(title)), "{body}");
    }
    let missing = app
        .call(Some(&ada), "PATCH", "/gpt/histories/nope/rating", Some(json!({"promptIndex": 0, "rating": "up"})))
        .await;
    assert_eq!((missing.status, missing.json()["title"].clone()), (StatusCode::NOT_FOUND, json!("History not found")));

    let (status, rated) = app.json(&ada, "PATCH", &url, Some(json!({"promptIndex": 1, "rating": "up"}))).await;
    assert_eq!((status, &rated["data"]), (StatusCode::OK, &json!({"promptIndex": 1, "rating": "up"})));
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    assert_eq!(read["data"]["prompts"][1]["rating"], "up");
    assert!(read["data"]["prompts"][0].get("rating").is_none());
    let logged = || async {
        let (rating,): (Option<String>,) = sqlx::query_as("SELECT rating FROM ai_requests WHERE history_id = $1")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
        rating
    };
    assert_eq!(logged().await.as_deref(), Some("up"), "the request log has it beside the turn");

    let (_, cleared) = app.json(&ada, "PATCH", &url, Some(json!({"promptIndex": 1, "rating": null}))).await;
    assert_eq!(cleared["data"], json!({"promptIndex": 1, "rating": null}));
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    assert!(read["data"]["prompts"][1].get("rating").is_none());
    assert_eq!(logged().await, None);
}

/// A published schema of the headless answers: the reference's own copy, or Palaver's.
fn published_schema(path: &str) -> jsonschema::Validator {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn schema_errors(file: &str, body: &Value) -> Vec<String> {
    ["../../shared/schemas", "../contract/schemas"]
        .into_iter()
        .flat_map(|dir| {
            let validator = published_schema(&format!("{dir}/{file}"));
            validator
                .iter_errors(body)
                .map(|error| format!("{dir}: {error} at {}", error.instance_path()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[tokio::test]
async fn headless_answers_match_the_published_schemas_and_palavers_additions_come_only_when_asked_for() {
    let mut plan = plan_call();
    plan["toolCalls"][0]["input"]["locale"] = json!("de");
    let (app, ada) = setup(json!([plan.clone(), plan])).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let id = created["data"]["id"].as_str().unwrap().to_string();

    let asked =
        app.call(Some(&ada), "POST", &format!("/gpt/histories/{id}/turn"), Some(json!({"prompt": "Plan?"}))).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    let asked = asked.json();
    assert_eq!(keys(&asked["data"]["pendingAsk"]), ["kind", "simple", "toolCallId"], "{asked}");
    assert_eq!(schema_errors("turnResponse.schema.json", &asked), Vec::<String>::new());

    let (status, listed) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(keys(&listed["data"][0]), ["created", "historyId", "kind", "simple", "toolCallId"], "{listed}");
    assert_eq!(schema_errors("pendingAsksResponse.schema.json", &listed), Vec::<String>::new());

    // Palaver's own clients name the additions; those answers are no longer the reference's.
    let (status, with_additions) =
        app.json(&ada, "GET", "/gpt/histories/pendingAsks?include=expiresAt,locale", None).await;
    assert_eq!(status, StatusCode::OK);
    let entry = &with_additions["data"][0];
    assert_eq!(entry["locale"], "de");
    assert!(entry["expiresAt"].as_str().is_some_and(|at| at > entry["created"].as_str().unwrap()), "{entry}");
    assert!(!schema_errors("pendingAsksResponse.schema.json", &with_additions).is_empty(), "the schemas are closed");
    let (_, only_locale) = app.json(&ada, "GET", "/gpt/histories/pendingAsks?include=locale&q=ignored", None).await;
    assert_eq!(keys(&only_locale["data"][0]), ["created", "historyId", "kind", "locale", "simple", "toolCallId"]);
    // A conversation whose turn only asked has no title yet: its name is its first message's words.
    let (_, named) = app.json(&ada, "GET", "/gpt/histories/pendingAsks?include=name", None).await;
    assert_eq!(keys(&named["data"][0]), ["created", "historyId", "kind", "name", "simple", "toolCallId"]);
    assert_eq!(named["data"][0]["name"], "Plan?");

    let refused = app.call(Some(&ada), "GET", "/gpt/histories/pendingAsks?include=expiresAt,origin", None).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let problem = refused.json();
    assert_eq!(problem["title"], "Invalid query");
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("expiresAt, locale, call, name, routed, apps (it named \"origin\")"),
        "{problem}"
    );

    let turn_with_additions = format!("/gpt/histories/{id}/turn?include={}", palaver_wire::body::AskAdditions::ALL);
    let (status, cancelled_and_asked_again) =
        app.json(&ada, "POST", &turn_with_additions, Some(json!({"prompt": "Plan? Again."}))).await;
    assert_eq!(status, StatusCode::OK, "{cancelled_and_asked_again}");
    let pending = &cancelled_and_asked_again["data"]["pendingAsk"];
    assert_eq!((&pending["locale"], pending["expiresAt"].is_string()), (&json!("de"), true), "{pending}");
}
