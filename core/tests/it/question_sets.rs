//! Question sets through the turn runner: Palaver mints the ids (and refuses the model's), the
//! stored ask carries them, the answer is checked against them, and the model is told the
//! labels picked, each after its question, on the turn that resumes and on every later one.

use serde_json::{Value, json};

use crate::common::{asked, harness, resolved, text};
use palaver_wire::conversation::model::HistoryRow;

fn logo(id: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_questions", "input": {
    "prompt": "Two quick questions about the logo.",
    "questions": [
        {"title": "Which shade?", "answers": [{"label": "#b49c54"}, {"label": "#d4af37"}]},
        {"title": "Where will it appear?", "multi": true, "allowCustom": true,
         "answers": [{"label": "Website"}, {"label": "Signage"}]}
    ]}}]})
}

fn stored_args(rows: &[HistoryRow], tool_call_id: &str) -> Option<Value> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolCall { tool_call_id: id, args, .. } if id == tool_call_id => Some(args.clone()),
        _ => None,
    })
}

#[tokio::test]
async fn a_question_set_is_stored_with_palaver_ids_and_told_back_as_labels() {
    let h = harness(json!([logo("call_logo"), {"text": "Gold it is."}, {"text": "Noted."}])).await;
    let (history, events) = h.prompt(None, "Design a logo").await;
    let ask_id = asked(&events).expect("an ask");
    let stored = stored_args(&h.rows(&history).await, &ask_id).expect("the ask's row");
    assert_eq!(stored["questions"][0]["id"], "q1");
    assert_eq!(stored["questions"][1]["id"], "q2");
    assert_eq!(stored["questions"][1]["answers"][1], json!({"id": "a2", "label": "Signage"}));

    let wrong = json!({"action": "accept", "content": {"answers": {"q1": {"picked": ["a1"]}}}});
    let refused = h.runner.start(h.request(
        Some(&history),
        palaver_core::turn::TurnInput::Answer { tool_call_id: ask_id.clone(), response: wrong },
    ));
    assert_eq!(refused.await.err().map(|err| err.kind().status_code()), Some(400), "q2 has no answer");

    let answer = json!({"action": "accept", "content": {"answers": {
        "q1": {"picked": ["a1"]},
        "q2": {"picked": ["a2"], "custom": "Embroidery"},
    }}});
    let events = h.answer(&history, &ask_id, answer.clone()).await;
    assert_eq!(resolved(&events), [(ask_id, "accept".to_string())]);
    assert_eq!(text(&events), "Gold it is.");
    let told = h.model_requests().last().expect("the resumed request").to_string();
    assert!(told.contains("Which shade? — #b49c54"), "{told}");
    assert!(told.contains(r#"Where will it appear? — Signage, their own answer \"Embroidery\""#), "{told}");
    assert!(!told.contains(r#""picked""#), "the model is not told ids it never wrote: {told}");
    let rows = h.rows(&history).await;
    let kept = rows.iter().any(|row| matches!(row, HistoryRow::ToolResult { result, .. } if *result == answer));
    assert!(kept, "the stored answer keeps its ids for the transcript: {rows:?}");

    let (_, _) = h.prompt(Some(&history), "Thanks").await;
    let replayed = h.model_requests().last().expect("the later request").to_string();
    assert!(replayed.contains("Which shade? — #b49c54"), "a later turn reads the same: {replayed}");
}

#[tokio::test]
async fn ids_the_model_writes_are_refused_and_it_is_told_why() {
    let with_ids = json!({"toolCalls": [{"id": "call_ids", "name": "ask_questions", "input": {
        "prompt": "One question", "questions": [{"id": "shade", "title": "Which shade?", "answers": [{"label": "Gold"}]}]}}]});
    let h = harness(json!([with_ids, {"text": "Let me ask again."}])).await;
    let (history, events) = h.prompt(None, "Design a logo").await;
    assert_eq!(asked(&events), None, "nothing was asked");
    assert_eq!(h.pending(&history).await, None);
    let told = h.model_requests().last().expect("the second request").to_string();
    assert!(told.contains("UNKNOWN_KEY") && told.contains("Palaver numbers them"), "{told}");
}
