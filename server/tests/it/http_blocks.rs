//! Block replies over HTTP: the prompt section, the `{blocks}` event, stored documents and their
//! checks, the repair call, HTML sanitizing, and host actions (`POST /gpt/actions`).

use crate::common::{TestApp, TestUser};
use axum::http::StatusCode;
use palaver_core::conversation::BlocksSettings;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

const STEPPER_DOC: &str = "v: 1\nblocks:\n  - type: stepper\n    id: guests\n    label: Guests\n    value: 4\n    min: 1\n    max: 12\n    callback: {name: scaleStepper}\n    items:\n      - {label: Lamb, amount: 1.6, unit: kg, decimals: 1}\n  - type: checklist\n    id: cooking\n    callback: {name: toggleChecklist}\n    items:\n      - {id: preheat, text: Preheat the oven}\n      - {id: rest, text: Rest the lamb}\n";

fn script(responses: &[&str]) -> String {
    json!({"responses": responses.iter().map(|text| json!({"text": text})).collect::<Vec<_>>()}).to_string()
}

async fn app_with(responses: &[&str], settings: BlocksSettings) -> (TestApp, TestUser) {
    let app = TestApp::with_blocks(&script(responses), settings).await;
    let user = app.user("ada", Role::User).await;
    (app, user)
}

fn event<'e>(events: &'e [Value], key: &str) -> Option<&'e Value> {
    events.iter().find(|event| event.get(key).is_some())
}

async fn load_history(app: &TestApp, user: &TestUser, events: &[Value]) -> Value {
    let id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let (status, body) = app.json(user, "GET", &format!("/gpt/histories/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    body["data"].clone()
}

#[tokio::test]
async fn a_document_reply_is_checked_before_done_and_stored_raw() {
    let (app, ada) = app_with(&[STEPPER_DOC], BlocksSettings::default()).await;
    let events = app.prompt(&ada, json!({"prompt": "plan dinner"})).await;

    let blocks = event(&events, "blocks").expect("a blocks event");
    assert_eq!(blocks["blocks"]["ok"], true);
    assert_eq!(blocks["blocks"]["doc"]["blocks"][0]["type"], "stepper");
    let at = |key: &str| events.iter().position(|event| event.get(key).is_some()).unwrap();
    assert!(at("blocks") < at("done"), "blocks comes before done");

    let system = app.mock_log()[0]["system"].as_str().unwrap().to_string();
    assert!(system.contains("Reply with exactly one block document") && system.contains("Do not emit type html"));

    let history = load_history(&app, &ada, &events).await;
    let reply = history["prompts"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(reply["type"], "assistant");
    assert_eq!(reply["text"], STEPPER_DOC, "stored as the raw string");
    assert_eq!(reply["document"], true);
    assert_eq!(reply["blocks"]["ok"], true, "views carry the check");
}

#[tokio::test]
async fn an_invalid_document_keeps_its_errors_beside_its_text_for_the_model_and_prose_stays_prose() {
    let broken = "v: 1\nblocks:\n  - type: heading\n";
    let (app, ada) = app_with(&[broken, "Just prose."], BlocksSettings::default()).await;
    let events = app.prompt(&ada, json!({"prompt": "broken"})).await;
    let check = &event(&events, "blocks").unwrap()["blocks"];
    assert_eq!(check["ok"], false);
    assert_eq!(check["errors"][0]["code"], "MISSING_REQUIRED");
    assert_eq!(check["errors"][0]["path"], "blocks[0].text");
    let history = load_history(&app, &ada, &events).await;
    let errors = "- blocks[0].text MISSING_REQUIRED A required field is missing.";
    assert_eq!(history["prompts"][1]["text"], broken, "the text is the document as the model wrote it");
    assert_eq!(history["prompts"][1]["blockErrors"], errors);
    assert_eq!(history["prompts"][1]["blocks"]["errors"][0]["code"], "MISSING_REQUIRED");

    let prose = app.prompt(&ada, json!({"prompt": "prose", "historyId": events.last().unwrap()["historyId"]})).await;
    assert_eq!(event(&prose, "blocks").unwrap()["blocks"]["errors"][0]["code"], "NOT_A_DOCUMENT");
    let after = load_history(&app, &ada, &prose).await;
    assert_eq!(after["prompts"][3]["text"], "Just prose.", "prose is stored as it was");
    assert!(after["prompts"][3].get("blockErrors").is_none());
    let told = &app.mock_log()[1]["messages"][1];
    assert_eq!(told["role"], "assistant");
    assert_eq!(
        told["text"],
        format!("{broken}\n\nBlock validation errors:\n{errors}"),
        "the next turn's model sees what went wrong"
    );
}

#[tokio::test]
async fn one_repair_call_fixes_an_invalid_document() {
    let fixed = "v: 1\nblocks:\n  - type: heading\n    text: Fixed\n";
    let settings = BlocksSettings { repair: true, ..BlocksSettings::default() };
    let (app, ada) = app_with(&["v: 1\nblocks:\n  - type: heading\n", fixed], settings).await;
    let events = app.prompt(&ada, json!({"prompt": "repair me"})).await;
    assert_eq!(event(&events, "replace").unwrap()["text"], fixed);
    assert_eq!(event(&events, "blocks").unwrap()["blocks"]["ok"], true);

    let log = app.mock_log();
    assert_eq!(log.len(), 2);
    let repair_prompt = log[1]["messages"][0]["text"].as_str().unwrap();
    assert!(
        repair_prompt.starts_with("Document:\nv: 1\n") && repair_prompt.contains("- blocks[0].text MISSING_REQUIRED")
    );
    assert!(log[1]["tools"].as_array().unwrap().is_empty());
    let history = load_history(&app, &ada, &events).await;
    assert_eq!(history["prompts"][1]["text"], fixed);
}

#[tokio::test]
async fn html_blocks_are_sanitized_before_anyone_sees_them() {
    let hostile = r#"{"v": 1, "blocks": [{"type": "html", "html": "<h1 onclick=\"x()\">Invoice</h1><script>alert(1)</script><img src=\"https://evil.test/t.png\">"}]}"#;
    let settings = BlocksSettings { html: true, ..BlocksSettings::default() };
    let (app, ada) = app_with(&[hostile], settings).await;
    let events = app.prompt(&ada, json!({"prompt": "invoice"})).await;
    let replaced = event(&events, "replace").unwrap()["text"].as_str().unwrap().to_string();
    let html = event(&events, "blocks").unwrap()["blocks"]["doc"]["blocks"][0]["html"].as_str().unwrap().to_string();
    for text in [&replaced, &html] {
        assert!(!text.contains("<script") && !text.contains("onclick") && !text.contains("evil.test"), "{text}");
    }
    assert!(html.contains("<h1>Invoice</h1>"));
    let history = load_history(&app, &ada, &events).await;
    assert!(!history["prompts"][1]["text"].as_str().unwrap().contains("<script"));

    let (off_app, off_user) = app_with(&[hostile], BlocksSettings::default()).await;
    let off = off_app.prompt(&off_user, json!({"prompt": "invoice"})).await;
    assert_eq!(event(&off, "blocks").unwrap()["blocks"]["errors"][0]["code"], "HTML_DISABLED");
}

#[tokio::test]
async fn compact_turns_reply_in_text() {
    let (app, ada) = app_with(&["Short answer."], BlocksSettings::default()).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let id = created["data"]["id"].as_str().unwrap();
    let (status, _) = app
        .json(&ada, "POST", &format!("/gpt/histories/{id}/turn"), Some(json!({"prompt": "hi", "surface": "compact"})))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(!app.mock_log()[0]["system"].as_str().unwrap().contains("block document"));
}

async fn conversation_with_stepper() -> (TestApp, TestUser, String) {
    let (app, ada) = app_with(&[STEPPER_DOC], BlocksSettings::default()).await;
    let events = app.prompt(&ada, json!({"prompt": "plan dinner"})).await;
    let id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    (app, ada, id)
}

#[tokio::test]
async fn host_actions_scale_a_stepper_and_tick_a_checklist() {
    let (app, ada, id) = conversation_with_stepper().await;
    let action = |body: Value| {
        let mut body = body;
        body["historyId"] = json!(id);
        body
    };
    let (status, scaled) = app
        .json(
            &ada,
            "POST",
            "/gpt/actions",
            Some(action(json!({"name": "scaleStepper", "payload": {"value": 6}, "blockId": "guests"}))),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{scaled}");
    assert_eq!(scaled["data"]["blocks"][0]["value"], 6.0);
    assert_eq!(scaled["data"]["blocks"][0]["items"][0]["amount"], 2.4);

    let (status, ticked) = app
        .json(
            &ada,
            "POST",
            "/gpt/actions",
            Some(action(json!({
                "name": "toggleChecklist", "blockId": "cooking",
                "payload": {"itemId": "rest", "checked": true, "state": {"preheat": true}}
            }))),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{ticked}");
    let checked: Vec<&Value> =
        ticked["data"]["blocks"][0]["items"].as_array().unwrap().iter().map(|item| &item["checked"]).collect();
    assert_eq!(checked, [&json!(true), &json!(true)]);

    // The conversation shows the blocks as the user left them; the stored reply is unchanged.
    let (_, history) = app.json(&ada, "GET", &format!("/gpt/histories/{id}"), None).await;
    let reply = &history["data"]["prompts"][1];
    assert_eq!(reply["text"], STEPPER_DOC);
    assert_eq!(reply["blocks"]["doc"]["blocks"][0]["value"], 6.0);
    assert_eq!(reply["blocks"]["doc"]["blocks"][1]["items"][1]["checked"], true);
    // Scaling again starts from the block as written, not from the saved state.
    let body = action(json!({"name": "scaleStepper", "payload": {"value": 2}, "blockId": "guests"}));
    let (_, again) = app.json(&ada, "POST", "/gpt/actions", Some(body)).await;
    assert_eq!(again["data"]["blocks"][0]["items"][0]["amount"], 0.8);
}

#[tokio::test]
async fn host_actions_refuse_what_they_cannot_do() {
    let (app, ada, id) = conversation_with_stepper().await;
    let call = |body: Value| {
        let mut body = body;
        body["historyId"] = json!(id.clone());
        app.call(Some(&ada), "POST", "/gpt/actions", Some(body))
    };
    let unknown = call(json!({"name": "launchRockets", "payload": {}})).await;
    assert_eq!(
        (unknown.status, unknown.json()["code"].clone()),
        (StatusCode::BAD_REQUEST, json!("UNKNOWN_HOST_ACTION"))
    );
    let off_grid = call(json!({"name": "scaleStepper", "payload": {"value": 40}, "blockId": "guests"})).await;
    assert_eq!((off_grid.status, off_grid.json()["code"].clone()), (StatusCode::BAD_REQUEST, json!("INVALID_PAYLOAD")));
    let ghost = call(json!({"name": "toggleChecklist", "blockId": "cooking", "payload": {"itemId": "ghost", "checked": true, "state": {}}})).await;
    assert!(ghost.json()["detail"].as_str().unwrap().contains("\"ghost\""));
    // 20,000 state keys (0.3 MB) once took seconds of work on the runtime: a count refuses them first.
    let flood: serde_json::Map<String, Value> =
        (0..20_000).map(|index| (format!("item{index}"), json!(true))).collect();
    let flooded = call(json!({"name": "toggleChecklist", "blockId": "cooking", "payload": {"itemId": "dinner", "checked": true, "state": flood}})).await;
    assert_eq!((flooded.status, flooded.json()["code"].clone()), (StatusCode::BAD_REQUEST, json!("INVALID_PAYLOAD")));
    assert!(flooded.json()["detail"].as_str().unwrap().starts_with("The state names 20000 items; the checklist has"));
    let missing = call(json!({"name": "scaleStepper", "payload": {"value": 5}, "blockId": "nope"})).await;
    assert_eq!((missing.status, missing.json()["code"].clone()), (StatusCode::NOT_FOUND, json!("BLOCK_NOT_FOUND")));
    let junk = call(json!({"name": "scaleStepper", "surprise": true})).await;
    assert_eq!(junk.status, StatusCode::BAD_REQUEST);

    let eve = app.user("eve", Role::User).await;
    let mut body = json!({"name": "scaleStepper", "payload": {"value": 5}, "blockId": "guests"});
    body["historyId"] = json!(id);
    let foreign = app.call(Some(&eve), "POST", "/gpt/actions", Some(body)).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN);
}
