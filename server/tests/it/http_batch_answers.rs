//! `POST /gpt/histories/pendingAsks/answers`: several approvals decided at once, each its own
//! guarded answer; one answered elsewhere meanwhile and one expired are reported, the rest taken.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{TestApp, asked};
use palaver_core::db::Backend;
use palaver_wire::accounts::Role;

/// The id of the button on an approval's simple card that approves (or denies) it.
fn button(entry: &Value, approve: bool) -> String {
    let buttons = entry["simple"]["buttons"].as_array().expect("buttons");
    let found = buttons.iter().find(|button| button["response"]["content"]["confirmed"] == approve);
    found.and_then(|button| button["id"].as_str()).expect("an approval's button").to_string()
}

#[tokio::test]
async fn ten_approvals_at_once_with_one_answered_elsewhere_and_one_expired_approve_eight_and_report_two() {
    let deletes = (0..10)
        .map(|n| json!({"toolCalls": [{"id": format!("call_{n}"), "name": "deleteCompletedTodos", "input": {}}]}));
    let replies = (0..12).map(|_| json!({"text": "Done."}));
    let app = TestApp::with_mock(&json!({"responses": deletes.chain(replies).collect::<Vec<_>>()}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    app.seed_completed_todo(&ada).await;
    let mut asks = Vec::new();
    for n in 0..10 {
        let turn = app.prompt(&ada, json!({"prompt": format!("Clean up {n}")})).await;
        asks.push((turn.last().unwrap()["historyId"].as_str().unwrap().to_string(), asked(&turn)));
    }
    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    let pending = pending["data"].as_array().unwrap().clone();
    assert_eq!(pending.len(), 10);
    let (approve, deny) = (button(&pending[0], true), button(&pending[0], false));

    // Meanwhile: the first is denied from another surface, the second runs out of time.
    let (elsewhere, expired) = (&asks[0], &asks[1]);
    let denied = json!({"toolCallId": elsewhere.1, "buttonId": deny});
    let reply = app.call(Some(&ada), "POST", &format!("/gpt/histories/{}/turn", elsewhere.0), Some(denied)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    let past = Backend::of(&app.pool).json_set("pending_ask", &[("expiresAt", "'2000-01-01T00:00:00.000Z'")]);
    sqlx::query(&format!("UPDATE histories SET pending_ask = {past} WHERE id = $1"))
        .bind(&expired.0)
        .execute(&app.pool)
        .await
        .unwrap();

    let answers: Vec<Value> = asks
        .iter()
        .map(|(history, ask)| json!({"historyId": history, "toolCallId": ask, "buttonId": approve}))
        .collect();
    // Bob cannot answer ada's asks, in a batch as anywhere.
    let (status, bobs) =
        app.json(&bob, "POST", "/gpt/histories/pendingAsks/answers", Some(json!({"answers": answers[2..3]}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (bobs["data"]["results"][0]["answered"].clone(), bobs["data"]["results"][0]["problem"]["status"].clone()),
        (json!(false), json!(403))
    );

    let (status, body) =
        app.json(&ada, "POST", "/gpt/histories/pendingAsks/answers", Some(json!({"answers": answers}))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let results = body["data"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 10, "one outcome each, in order");
    for (result, (history, ask)) in results.iter().zip(&asks) {
        assert_eq!(
            (result["historyId"].as_str(), result["toolCallId"].as_str()),
            (Some(history.as_str()), Some(ask.as_str()))
        );
    }
    assert_eq!(results.iter().filter(|result| result["answered"] == true).count(), 8, "{body}");
    assert_eq!(results[0]["problem"]["status"], 409, "answered elsewhere: {}", results[0]);
    assert_eq!(results[1]["problem"]["code"], "ASK_EXPIRED", "{}", results[1]);

    let trail = palaver_core::audit::store::page(&app.pool, None, None, 50).await.unwrap().entries;
    let approved = trail.iter().filter(|entry| entry.decision == "accept" && entry.approved == Some(true)).count();
    assert_eq!(approved, 8, "each taken answer audited once");
    let (_, left) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(left["data"], json!([]), "nothing waits any more");
}

#[tokio::test]
async fn a_batch_that_is_not_a_list_of_answers_is_refused_whole_and_a_bad_button_is_reported() {
    let app = TestApp::with_mock(
        r#"{"responses": [{"toolCalls": [{"id": "call_del", "name": "deleteCompletedTodos", "input": {}}]}]}"#,
    )
    .await;
    let ada = app.user("ada", Role::User).await;
    for (body, detail) in [
        (json!({"answers": []}), "between 1 and 50"),
        (
            json!({"answers": vec![json!({"historyId": "h", "toolCallId": "t", "buttonId": "b"}); 51]}),
            "this request has 51",
        ),
        (json!({"answer": []}), "Send {\"answers\""),
        (json!({"answers": [{"historyId": "h"}]}), "missing field"),
    ] {
        let reply = app.call(Some(&ada), "POST", "/gpt/histories/pendingAsks/answers", Some(body)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
        assert!(reply.json()["detail"].as_str().unwrap().contains(detail), "{}", reply.text);
    }
    app.seed_completed_todo(&ada).await;
    let turn = app.prompt(&ada, json!({"prompt": "Clean up"})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let answers = json!({"answers": [
        {"historyId": history, "toolCallId": asked(&turn), "buttonId": "no-such-button"},
        {"historyId": "no-such-conversation", "toolCallId": "t", "buttonId": "b"}]});
    let (_, body) = app.json(&ada, "POST", "/gpt/histories/pendingAsks/answers", Some(answers)).await;
    let results = &body["data"]["results"];
    assert_eq!(
        (results[0]["problem"]["status"].clone(), results[0]["problem"]["code"].clone()),
        (json!(400), json!("UNKNOWN_BUTTON"))
    );
    assert_eq!(results[1]["problem"]["status"], 404);
    let (_, pending) = app.json(&ada, "GET", "/gpt/histories/pendingAsks", None).await;
    assert_eq!(pending["data"].as_array().unwrap().len(), 1, "still waiting");
}
