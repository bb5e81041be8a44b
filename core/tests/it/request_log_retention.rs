//! The request log keeps what the model was sent and sent back only as long as the settings say;
//! the rest of each entry (model, tokens, timing, what the turn asked) stays.

use std::time::Duration;

use crate::common::harness_with;
use palaver_core::db::Backend;
use palaver_core::turn::TurnSettings;
use serde_json::json;

#[tokio::test]
async fn a_requests_text_is_emptied_once_older_than_kept_and_the_rest_stays() {
    let settings = TurnSettings { request_text_kept: Duration::from_secs(24 * 60 * 60), ..TurnSettings::default() };
    let harness = harness_with(json!([{"text": "Paris."}, {"text": "Lyon."}]), settings).await;
    let (history, _) = harness.prompt(None, "Capital of France?").await;
    harness.prompt(Some(&history), "Second city?").await;
    // The first turn was logged two days ago.
    let two_days_ago = Backend::of(&harness.pool).seconds_from_now("-172800");
    let (first,): (String,) = sqlx::query_as("SELECT id FROM ai_requests ORDER BY created_at, id LIMIT 1")
        .fetch_one(&harness.pool)
        .await
        .unwrap();
    sqlx::query(&format!("UPDATE ai_requests SET created_at = {two_days_ago} WHERE id = $1"))
        .bind(&first)
        .execute(&harness.pool)
        .await
        .unwrap();

    assert_eq!(harness.runner.forget_old_request_text().await.unwrap(), 1);
    assert_eq!(harness.runner.forget_old_request_text().await.unwrap(), 0, "once emptied, it is left alone");
    let logged: Vec<(String, String, String, String, i64)> =
        sqlx::query_as("SELECT id, prompt, response, model, output_tokens FROM ai_requests ORDER BY created_at, id")
            .fetch_all(&harness.pool)
            .await
            .unwrap();
    let (id, prompt, response, model, _) = &logged[0];
    assert_eq!((id, prompt.as_str(), response.as_str(), model.as_str()), (&first, "", "", "mock"));
    let (_, prompt, response, _, _) = &logged[1];
    assert!(prompt.contains("Second city?") && response.contains("Lyon."), "{prompt} / {response}");
    // The conversation itself is not the log: it keeps every message.
    assert_eq!(harness.rows(&history).await.len(), 4);
}
