//! A form's answer as it is stored and told: numbers as a person writes them.

use serde_json::json;

use crate::common::{asked, harness};
use palaver_wire::conversation::model::HistoryRow;

#[tokio::test]
async fn a_whole_number_sent_with_a_fraction_is_stored_and_told_without_it() {
    let form = json!({"toolCalls": [{"id": "call_form", "name": "ask_form", "input": {
        "prompt": "How many seats?",
        "fields": [{"id": "seats", "type": "number", "label": "Seats", "min": 1, "max": 500, "integer": true}]}}]});
    let h = harness(json!([form, {"text": "Noted."}])).await;
    let (history, events) = h.prompt(None, "seats please").await;
    let ask = asked(&events).expect("a form");
    h.answer(&history, &ask, json!({"action": "accept", "content": {"values": {"seats": 12.0}}})).await;

    let stored = h.rows(&history).await.into_iter().find_map(|row| match row {
        HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == ask => Some(result),
        _ => None,
    });
    assert_eq!(
        stored.expect("the answer's row").to_string(),
        r#"{"action":"accept","content":{"values":{"seats":12}}}"#
    );
    let told = h.model_requests().last().unwrap()["messages"].to_string();
    assert!(told.contains(r#""seats":12}"#) && !told.contains("12.0"), "{told}");
}
