//! Files attached to an ordinary message: uploads of the sender only, checked before anything
//! is written, stored on the message by name and type, sent to the model as the files answer
//! sends them, named (not sent again) on later turns, and kept by a regenerate.

use crate::common::{TestApp, TestUser};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

async fn app() -> (TestApp, TestUser) {
    let script = json!({"responses": [{"text": "A receipt."}, {"text": "Still a receipt."}, {"text": "Again."}]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    (app, ada)
}

async fn uploaded(app: &TestApp, user: &TestUser, name: &str, mime_type: &str, bytes: &[u8]) -> String {
    let reply = app.upload(user, name, mime_type, bytes).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.json()["id"].as_str().unwrap().to_string()
}

fn user_messages(log: &Value) -> Vec<Value> {
    log["messages"].as_array().unwrap().iter().filter(|m| m["role"] == "user").cloned().collect()
}

#[tokio::test]
async fn attached_files_reach_the_model_and_the_message_keeps_their_names() {
    let (app, ada) = app().await;
    let png = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let notes = uploaded(&app, &ada, "notes.txt", "text/plain", b"lunch 12.50").await;
    let attachments = json!([{"fileId": png}, {"fileId": notes}]);
    let turn = app.prompt(&ada, json!({"prompt": "What is this?", "attachments": attachments})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();

    let sent = user_messages(&app.mock_log()[0]);
    assert_eq!(sent[0]["text"], "What is this?");
    let parts = sent[0]["parts"].as_array().unwrap();
    assert_eq!(parts[0]["text"], format!("File 1 of 2: receipt.png (image/png, {} bytes)", PNG.len()));
    assert_eq!(parts[1]["type"], "image-data");
    assert_eq!(parts[1]["mimeType"], "image/png");
    assert_eq!(parts[2]["text"], "File 2 of 2: notes.txt (text/plain, 11 bytes)");
    assert_eq!(parts[3], json!({"type": "text", "text": "lunch 12.50"}));

    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{history}"), None).await;
    assert_eq!(
        read["data"]["prompts"][0]["attachments"],
        json!([
            {"fileId": png, "filename": "receipt.png", "mimeType": "image/png", "size": PNG.len()},
            {"fileId": notes, "filename": "notes.txt", "mimeType": "text/plain", "size": 11}
        ])
    );
    let stored: (String,) = sqlx::query_as("SELECT CAST(payload AS TEXT) FROM history_rows WHERE row_type = 'user'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(!stored.0.contains("base64") && !stored.0.contains("lunch"), "no bytes are stored: {}", stored.0);

    // The next turn names the files; their bytes are not sent again.
    app.prompt(&ada, json!({"prompt": "And the total?", "historyId": history})).await;
    let replayed = user_messages(&app.mock_log()[1]);
    assert_eq!(
        replayed[0]["text"],
        format!(
            "What is this?\n\n[Attached: receipt.png (image/png, {} bytes); notes.txt (text/plain, 11 bytes)]",
            PNG.len()
        )
    );
    assert!(replayed[0].get("parts").is_none(), "{}", replayed[0]);
    assert!(replayed[1].get("parts").is_none());
}

#[tokio::test]
async fn a_regenerated_reply_sees_the_files_again() {
    let (app, ada) = app().await;
    let png = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let turn = app.prompt(&ada, json!({"prompt": "What is this?", "attachments": [{"fileId": png}]})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();
    app.prompt(&ada, json!({"historyId": history, "replaceLast": true})).await;
    let again = user_messages(&app.mock_log()[1]);
    assert_eq!(again.len(), 1, "the old exchange is gone: {again:?}");
    assert_eq!(again[0]["parts"][1]["type"], "image-data");
    let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{history}"), None).await;
    assert_eq!(read["data"]["prompts"][0]["attachments"][0]["fileId"], png.as_str());
}

#[tokio::test]
async fn bad_attachments_are_refused_before_anything_is_written() {
    let (app, ada) = app().await;
    let bob = app.user("bob", Role::User).await;
    let bobs = uploaded(&app, &bob, "secret.png", "image/png", PNG).await;
    let fake_png = uploaded(&app, &ada, "photo.png", "image/png", b"not a png at all").await;
    let own = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let cases = [
        (json!([{"fileId": bobs}]), format!("attachments[0]: there is no upload {bobs} of yours")),
        (json!([{"fileId": "missing"}]), "attachments[0]: there is no upload missing of yours".to_string()),
        (json!([{"fileId": fake_png}]), "attachments[0] (photo.png):".to_string()),
        (json!([{"fileId": own}, {"fileId": own}]), format!("attachments[1]: {own} is attached twice.")),
        (json!([own]), "attachments must be a list of {fileId}".to_string()),
        (json!({"fileId": own}), "attachments must be a list of {fileId}".to_string()),
    ];
    for (attachments, expected) in cases {
        let body = json!({"prompt": "Look", "attachments": attachments});
        let reply = app.call(Some(&ada), "POST", "/gpt/prompt", Some(body)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{attachments}: {}", reply.text);
        assert!(reply.text.contains(&expected), "{attachments}: wanted {expected:?} in {}", reply.text);
    }
    let too_many: Vec<Value> =
        (0..=palaver_core::turn::attachments::MAX_ATTACHMENTS).map(|n| json!({"fileId": n.to_string()})).collect();
    let reply =
        app.call(Some(&ada), "POST", "/gpt/prompt", Some(json!({"prompt": "Look", "attachments": too_many}))).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert!(reply.text.contains("at most"), "{}", reply.text);

    let (_, list) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(list["data"], json!([]), "no conversation was created");
    assert!(app.mock_log().is_empty(), "the model was never called");
}
