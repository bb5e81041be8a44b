//! Versions of a conversation: editing any message or regenerating any reply keeps what was
//! there, and `PUT /gpt/histories/{id}/branches` shows it again, stored, as every client reads it.

use crate::common::{TestApp, TestUser, asked, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

async fn prompts(app: &TestApp, user: &TestUser, history: &str) -> Value {
    app.json(user, "GET", &format!("/gpt/histories/{history}"), None).await.1["data"]["prompts"].clone()
}

/// The texts of the rows, in order.
fn texts(prompts: &Value) -> Vec<&str> {
    prompts.as_array().unwrap().iter().map(|row| row["text"].as_str().unwrap_or_default()).collect()
}

async fn show(app: &TestApp, user: &TestUser, history: &str, body: Value) -> (StatusCode, Value) {
    app.json(user, "PUT", &format!("/gpt/histories/{history}/branches"), Some(body)).await
}

#[tokio::test]
async fn an_earlier_message_is_edited_and_a_reply_regenerated_and_every_version_shows_again() {
    let replies = ["Paris.", "Ten.", "Lyon.", "Eleven.", "Still ten.", "Marseille is third."];
    let script = json!({"responses": replies.map(|text| json!({"text": text}))});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let first = app.prompt(&ada, json!({"prompt": "Capital of France?"})).await;
    let history = first.last().unwrap()["historyId"].as_str().unwrap().to_string();
    app.prompt(&ada, json!({"prompt": "How many toes?", "historyId": history})).await;
    let (rated, _) = app
        .json(
            &ada,
            "PATCH",
            &format!("/gpt/histories/{history}/rating"),
            Some(json!({"promptIndex": 1, "rating": "up"})),
        )
        .await;
    assert_eq!(rated, StatusCode::OK);

    // The first message, edited: what followed it is kept, and the model sees only the edit.
    let edited = app
        .prompt(
            &ada,
            json!({"historyId": history, "replaceFrom": 0, "seenRows": 4, "prompt": "Second city of France?"}),
        )
        .await;
    assert_eq!(streamed_text(&edited), "Lyon.");
    let now = prompts(&app, &ada, &history).await;
    assert_eq!(texts(&now), ["Second city of France?", "Lyon."]);
    assert_eq!(now[0]["branches"], json!({"shown": 1, "count": 2}));
    assert_eq!(app.mock_log()[2]["messages"], json!([{"role": "user", "text": "Second city of France?"}]));

    // The first version again, as it was: its rows, their rating.
    let (status, shown) = show(&app, &ada, &history, json!({"row": 0, "position": 0, "seenRows": 2})).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(texts(&shown["data"]["prompts"]), ["Capital of France?", "Paris.", "How many toes?", "Ten."]);
    assert_eq!(shown["data"]["prompts"][0]["branches"], json!({"shown": 0, "count": 2}));
    assert_eq!(shown["data"]["prompts"][1]["rating"], "up");

    // A reply further down, regenerated: a version inside a version.
    let again = app.prompt(&ada, json!({"historyId": history, "replaceFrom": 2, "seenRows": 4})).await;
    assert_eq!(streamed_text(&again), "Eleven.");
    let now = prompts(&app, &ada, &history).await;
    assert_eq!(texts(&now), ["Capital of France?", "Paris.", "How many toes?", "Eleven."]);
    assert_eq!(now[2]["branches"], json!({"shown": 1, "count": 2}));
    let replayed = &app.mock_log()[3]["messages"];
    assert_eq!(replayed.as_array().unwrap().len(), 3, "the model sees the first exchange and the message: {replayed}");

    // Away to the edit and back: the inner fork shows the version it showed.
    show(&app, &ada, &history, json!({"row": 0, "position": 1})).await;
    assert_eq!(texts(&prompts(&app, &ada, &history).await), ["Second city of France?", "Lyon."]);
    let (_, back) = show(&app, &ada, &history, json!({"row": 0, "position": 0})).await;
    assert_eq!(texts(&back["data"]["prompts"]), ["Capital of France?", "Paris.", "How many toes?", "Eleven."]);
    assert_eq!(back["data"]["prompts"][2]["branches"], json!({"shown": 1, "count": 2}));
    let (_, inner) = show(&app, &ada, &history, json!({"row": 2, "position": 0})).await;
    assert_eq!(texts(&inner["data"]["prompts"]), ["Capital of France?", "Paris.", "How many toes?", "Ten."]);

    // The conversation goes on from the version shown; the model sees that one only.
    let next = app.prompt(&ada, json!({"historyId": history, "prompt": "And on one foot?"})).await;
    assert_eq!(streamed_text(&next), "Still ten.");
    let replayed = &app.mock_log()[4]["messages"];
    assert_eq!(replayed[3], json!({"role": "assistant", "text": "Ten."}), "{replayed}");

    // Regenerating the last reply (the reference's replaceLast) keeps a version too.
    let third = app.prompt(&ada, json!({"historyId": history, "replaceLast": true})).await;
    assert_eq!(streamed_text(&third), "Marseille is third.");
    let now = prompts(&app, &ada, &history).await;
    assert_eq!(now[4]["branches"], json!({"shown": 1, "count": 2}));
    assert_eq!(now[0]["branches"], json!({"shown": 0, "count": 2}));
}

#[tokio::test]
async fn showing_a_version_is_refused_with_nothing_changed_when_it_cannot_be() {
    let ask = json!({"id": "call_c", "name": "ask_confirm", "input": {"prompt": "Book it?"}});
    let script = json!({"responses": [{"text": "Paris."}, {"text": "Lyon."}, {"toolCalls": [ask]}]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let first = app.prompt(&ada, json!({"prompt": "Capital of France?"})).await;
    let history = first.last().unwrap()["historyId"].as_str().unwrap().to_string();
    app.prompt(&ada, json!({"historyId": history, "replaceFrom": 0, "prompt": "Second city?"})).await;
    let before = prompts(&app, &ada, &history).await;

    for (body, why) in [
        (json!({"row": 0}), "no position"),
        (json!({"row": -1, "position": 0}), "a negative row"),
        (json!({"row": 0, "position": 0, "extra": true}), "an unknown key"),
        (json!({"row": 0, "position": 1}), "the version shown already"),
        (json!({"row": 0, "position": 7}), "no such version"),
        (json!({"row": 1, "position": 0}), "a reply is not a message"),
        (json!({"row": 9, "position": 0}), "no such row"),
    ] {
        let (status, problem) = show(&app, &ada, &history, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {problem}");
    }
    let (status, problem) = show(&app, &ada, &history, json!({"row": 0, "position": 0, "seenRows": 5})).await;
    assert_eq!(
        (status, problem["title"].clone()),
        (StatusCode::CONFLICT, json!("The conversation changed since you saw it. Reload it and try again."))
    );
    let grace = app.user("grace", Role::User).await;
    let (status, _) = show(&app, &grace, &history, json!({"row": 0, "position": 0})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let refused = app
        .call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"historyId": history, "replaceFrom": 1, "prompt": "x"})))
        .await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST, "only a message is replaced: {}", refused.text);
    assert_eq!(prompts(&app, &ada, &history).await, before, "nothing changed");

    // An ask waits: the versions stay as they are until it is answered or skipped.
    let asking = app.prompt(&ada, json!({"historyId": history, "prompt": "Book a table"})).await;
    assert!(!asked(&asking).is_empty());
    let (status, problem) = show(&app, &ada, &history, json!({"row": 0, "position": 0})).await;
    assert_eq!(
        (status, problem["title"].clone()),
        (StatusCode::CONFLICT, json!("A question waits for your answer here: answer or skip it first."))
    );
}
