//! Approvals routed to someone else, over HTTP: the requester's own token cannot answer through
//! the headless turn, the batch or the approvals route; the approver sees who asked, where, with
//! the arguments, answers through `POST /gpt/approvals/answer`, and the call runs once.

use axum::http::StatusCode;
use serde_json::json;

use crate::common::{TestApp, asked};
use palaver_wire::accounts::Role;
use palaver_wire::approvers::{ApprovalRoute, Approver};

#[tokio::test]
async fn the_requester_cannot_answer_on_any_surface_and_the_approver_can_once() {
    let script = json!({"responses": [
        {"toolCalls": [{"id": "call_clean", "name": "deleteCompletedTodos", "input": {}}]},
        {"text": "Deleted."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let _admin = app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    app.seed_completed_todo(&ada).await;
    let approver = Approver::User { id: bob.id.clone(), username: "bob".into() };
    let route = ApprovalRoute { tool: Some("deleteCompletedTodos".into()), server: None, approver, approvals: 1 };
    app.state.turns.preferences().save_approval_routes(&[route]).await.unwrap();

    let turn = app.prompt(&ada, json!({"prompt": "Clean up"})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let ask = asked(&turn);
    let approve = json!({"historyId": history, "toolCallId": ask, "buttonId": "approve"});

    let headless = json!({"toolCallId": ask, "buttonId": "approve"});
    let own = app.call(Some(&ada), "POST", &format!("/gpt/histories/{history}/turn"), Some(headless)).await;
    assert_eq!(own.status, StatusCode::FORBIDDEN, "{}", own.text);
    assert!(own.text.contains("This approval waits for bob; you cannot answer it."), "{}", own.text);
    let (_, batch) =
        app.json(&ada, "POST", "/gpt/histories/pendingAsks/answers", Some(json!({"answers": [approve]}))).await;
    assert_eq!(batch["data"]["results"][0]["problem"]["status"], 403, "{batch}");
    let routed = app.call(Some(&ada), "POST", "/gpt/approvals/answer", Some(approve.clone())).await;
    assert_eq!(routed.status, StatusCode::FORBIDDEN, "{}", routed.text);
    let (_, mine) = app.json(&ada, "GET", "/gpt/approvals/waiting", None).await;
    assert_eq!(mine["data"], json!([]), "not the requester's to answer");

    let (status, waiting) = app.json(&bob, "GET", "/gpt/approvals/waiting", None).await;
    assert_eq!(status, StatusCode::OK);
    let entry = &waiting["data"][0];
    assert_eq!((entry["requester"].as_str(), entry["historyId"].as_str()), (Some("ada"), Some(history.as_str())));
    assert_eq!(entry["call"]["toolName"], "deleteCompletedTodos", "{entry}");
    assert_eq!(entry["routed"]["approver"]["username"], "bob");

    let (status, decided) = app.json(&bob, "POST", "/gpt/approvals/answer", Some(approve.clone())).await;
    assert_eq!((status, decided["data"]["decided"].clone()), (StatusCode::OK, json!(true)), "{decided}");
    let again = app.call(Some(&bob), "POST", "/gpt/approvals/answer", Some(approve)).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "once: {}", again.text);
    // The turn runs on by itself, as ada's: her conversation ends with its reply.
    let mut reply = None;
    for _ in 0..200 {
        let (_, read) = app.json(&ada, "GET", &format!("/gpt/histories/{history}"), None).await;
        reply = read["data"]["prompts"].as_array().and_then(|rows| rows.last().cloned());
        if reply.as_ref().is_some_and(|row| row["text"] == "Deleted.") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(reply.unwrap()["text"], "Deleted.");
    let left: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM todos WHERE owner_id = $1")
        .bind(&ada.id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(left.0, 0, "the call ran");
}

#[tokio::test]
async fn a_grants_patterns_are_edited_in_settings_within_their_kind() {
    use palaver_wire::grants::{ArgumentPattern, GrantRequest, GrantScope};
    let app = TestApp::with_mock(&json!({"responses": []}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let patterns = [
        ("path".to_string(), ArgumentPattern::Under { path: "data/".into() }),
        ("count".to_string(), ArgumentPattern::Range { min: Some(1.0), max: Some(5.0) }),
    ];
    let request = GrantRequest { scope: GrantScope::Always, lifetime_seconds: None, arguments: Some(patterns.into()) };
    let mut tx = palaver_core::db::begin(&app.pool).await.unwrap();
    palaver_core::grants::store::create(&mut tx, &ada.id, "write_file", &request, "unused").await.unwrap();
    tx.commit().await.unwrap();
    let id = palaver_core::grants::store::list(&app.pool, &ada.id).await.unwrap()[0].id.clone();
    let edit = |arguments: serde_json::Value| {
        let encoded = format!("id={id}&arguments={}", form_encoded(&arguments.to_string()));
        let (app, ada) = (&app, &ada);
        async move { app.server_fn(Some(ada), "/api/edit_grant_patterns", &encoded).await }
    };

    let climbs = edit(json!({"path": {"match": "under", "path": "data/../"}, "count": {"match": "any"}})).await;
    assert_eq!(climbs.status, StatusCode::BAD_REQUEST);
    assert!(climbs.text.contains("is not a plain folder"), "{}", climbs.text);
    let other_kind = edit(json!({"path": {"match": "startsWith", "text": "data"}, "count": {"match": "any"}})).await;
    assert!(other_kind.text.contains("path: edit the pattern, or allow any value."), "{}", other_kind.text);
    let fewer = edit(json!({"path": {"match": "any"}})).await;
    assert!(fewer.text.contains("A grant keeps the arguments it was given for."), "{}", fewer.text);

    let narrowed = edit(json!({"path": {"match": "under", "path": "data/shared/"}, "count": {"match": "any"}})).await;
    assert_eq!(narrowed.status, StatusCode::OK, "{}", narrowed.text);
    let grants = palaver_core::grants::store::list(&app.pool, &ada.id).await.unwrap();
    let words = palaver_wire::grants::patterns_words(grants[0].arguments.as_ref().unwrap());
    assert_eq!(words, "path in data/shared/ or below");
    let bob = app.user("bob", Role::User).await;
    let others = app.server_fn(Some(&bob), "/api/edit_grant_patterns", &format!("id={id}&arguments=%7B%7D")).await;
    assert_eq!(others.status, StatusCode::NOT_FOUND, "not bob's");
}

/// `text` as a form value: unreserved bytes as they are, every other one `%XX`.
fn form_encoded(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => char::from(byte).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}
