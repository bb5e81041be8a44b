//! Files: uploads, `files` answers by upload id or data URL, byte sniffing, ownership, what the
//! model receives, and what is stored (never bytes).

use crate::common::{TestApp, TestUser};
use axum::http::StatusCode;
use base64::Engine;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

fn files_call(id: &str) -> Value {
    json!({"id": id, "name": "ask_files", "input": {"prompt": "Upload the receipt.", "accept": ["image", "csv", "text"], "maxFiles": 3}})
}

/// A conversation waiting on a files ask.
struct Asking {
    history: Value,
    ask_id: String,
}

async fn asked(responses: Value) -> (TestApp, TestUser, Asking) {
    let app = TestApp::with_mock(&json!({"responses": responses}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let turn = app.prompt(&ada, json!({"prompt": "receipt"})).await;
    let asking = Asking { history: turn[0]["historyId"].clone(), ask_id: crate::common::asked(&turn) };
    (app, ada, asking)
}

fn answer(asking: &Asking, files: Value) -> Value {
    let response = json!({"toolCallId": asking.ask_id, "action": "accept", "content": {"files": files}});
    json!({"historyId": asking.history, "askResponse": response})
}

#[tokio::test]
async fn an_uploaded_png_and_a_csv_data_url_reach_the_model() {
    let (app, ada, asking) = asked(json!([{"toolCalls": [files_call("call_f")]}, {"text": "Got them."}])).await;
    let uploaded = app.upload(&ada, "receipt.png", "image/png", PNG).await;
    assert_eq!(uploaded.status, StatusCode::CREATED, "{}", uploaded.text);
    let upload = uploaded.json();
    assert_eq!(upload["mimeType"], "image/png");
    assert_eq!(upload["size"], PNG.len());
    let csv = "item,total\nlunch,12.50\n";
    let data_url = format!("data:text/csv;base64,{}", base64::engine::general_purpose::STANDARD.encode(csv));
    let files = json!([
        {"fileId": upload["id"], "filename": "receipt.png", "mimeType": "image/png", "size": PNG.len()},
        {"url": data_url, "filename": "totals.csv", "mimeType": "text/csv", "size": 1}
    ]);
    let turn = app.prompt(&ada, answer(&asking, files)).await;
    assert_eq!(turn[0]["askResolved"]["action"], "accept", "{turn:?}");

    let messages = app.mock_log()[1]["messages"].clone();
    let result = messages.as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap().clone();
    let parts = result["parts"].as_array().unwrap();
    assert_eq!(parts[0]["text"], format!("File 1 of 2: receipt.png (image/png, {} bytes)", PNG.len()));
    assert_eq!(parts[1]["type"], "image-data");
    assert_eq!(parts[1]["data"], base64::engine::general_purpose::STANDARD.encode(PNG));
    assert_eq!(parts[2]["text"], format!("File 2 of 2: totals.csv (text/csv, {} bytes)", csv.len()));
    assert_eq!(parts[3], json!({"type": "text", "text": csv}));
    assert_eq!(
        result["result"]["content"]["files"][1],
        json!({"filename": "totals.csv", "mimeType": "text/csv", "size": csv.len()})
    );

    let stored = app.json(&ada, "GET", &format!("/gpt/histories/{}", asking.history.as_str().unwrap()), None).await.1;
    let text = stored.to_string();
    assert!(!text.contains("base64"), "no data URL is stored");
    let (logged,): (String,) = sqlx::query_as("SELECT prompt FROM ai_requests ORDER BY created_at DESC, id DESC")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(!logged.contains("base64"), "nor logged");
}

/// Answers the pending files ask with one upload, as `user`.
async fn answer_with_upload(
    app: &TestApp,
    user: &TestUser,
    asking: &Asking,
    upload: &Value,
    filename: &str,
    size: usize,
) -> crate::common::Reply {
    let files = json!([{"fileId": upload["id"], "filename": filename, "mimeType": "image/png", "size": size}]);
    app.call(Some(user), "POST", "/gpt/prompt", Some(answer(asking, files))).await
}

#[tokio::test]
async fn spoofed_bytes_and_foreign_uploads_are_refused_and_the_ask_stays_pending() {
    let (app, ada, asking) = asked(json!([{"toolCalls": [files_call("call_f")]}, {"text": "ok"}])).await;
    let spoofed = app.upload(&ada, "photo.png", "image/png", b"just some text, not a picture").await.json();
    let reply = answer_with_upload(&app, &ada, &asking, &spoofed, "photo.png", 29).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST);
    assert_eq!(reply.json()["fields"][0]["code"], "MIME_MISMATCH");
    assert_eq!(reply.json()["fields"][0]["path"], "content.files[0].mimeType");

    let grace = app.user("grace", Role::User).await;
    let hers = app.upload(&grace, "hers.png", "image/png", PNG).await.json();
    let reply = answer_with_upload(&app, &ada, &asking, &hers, "hers.png", PNG.len()).await;
    assert_eq!(reply.json()["fields"][0]["code"], "FILE_NOT_OWNED");
    let data = app.json(&ada, "GET", &format!("/gpt/histories/{}", asking.history.as_str().unwrap()), None).await.1;
    assert_eq!(data["data"]["pendingAsk"]["toolCallId"], asking.ask_id.as_str(), "the ask is still pending");
    assert_eq!(app.mock_log().len(), 1, "the model was not called");
}

#[tokio::test]
async fn a_long_text_file_is_cut_for_the_model() {
    let (app, ada, asking) = asked(json!([{"toolCalls": [files_call("call_f")]}, {"text": "ok"}])).await;
    let long = "é".repeat(60_000);
    let upload = app.upload(&ada, "notes.txt", "text/plain", long.as_bytes()).await.json();
    app.prompt(
        &ada,
        answer(
            &asking,
            json!([{"fileId": upload["id"], "filename": "notes.txt", "mimeType": "text/plain", "size": long.len()}]),
        ),
    )
    .await;
    let messages = app.mock_log()[1]["messages"].clone();
    let result = messages.as_array().unwrap().iter().find(|m| m["role"] == "tool").unwrap().clone();
    let text = result["parts"][1]["text"].as_str().unwrap();
    assert!(text.ends_with("[The file is cut to its first 100000 of 120000 bytes.]"), "{}", &text[text.len() - 80..]);
}

#[tokio::test]
async fn uploads_over_the_cap_get_413() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let big = vec![b'a'; 10 * 1024 * 1024 + 10];
    let reply = app.upload(&ada, "big.txt", "text/plain", &big).await;
    assert_eq!(reply.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(reply.json()["title"], "File too large");
    let leftovers = std::fs::read_dir(app.dir.path().join("uploads")).map(|dir| dir.count()).unwrap_or(0);
    assert_eq!(leftovers, 0, "nothing is left on disk");
}
