//! Argument asks through the turn runner: the demo's `scheduleReminder` takes its time only
//! from the person. The calls of a step wait on one form; an answer that does not fit the
//! argument's schema is refused at its field and the form keeps waiting; a skipped form
//! refuses the calls.

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness, text, tool_result};
use palaver_core::error::AppError;
use palaver_core::turn::store::pending_ask;

fn reminders(calls: &[(&str, Value)]) -> Value {
    let calls: Vec<Value> =
        calls.iter().map(|(id, input)| json!({"id": id, "name": "scheduleReminder", "input": input})).collect();
    json!({ "toolCalls": calls })
}

async fn pending_input(h: &Harness, history: &str) -> Value {
    pending_ask(&h.pool, history).await.unwrap().expect("a pending ask").ask.input
}

async fn titles(h: &Harness) -> Vec<String> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT title FROM todos WHERE owner_id = $1 ORDER BY title")
        .bind(&h.caller.user.id)
        .fetch_all(&h.pool)
        .await
        .unwrap();
    rows.into_iter().map(|(title,)| title).collect()
}

fn values(time: &str) -> Value {
    json!({"action": "accept", "content": {"values": {"f1": time}}})
}

#[tokio::test]
async fn two_calls_that_need_the_same_argument_get_one_field_and_the_model_never_sees_its_guess() {
    let step = reminders(&[
        ("call_a", json!({"title": "Call Ada", "time": "07:00"})),
        ("call_b", json!({"title": "Water the plants"})),
    ]);
    let h = harness(json!([step, {"text": "Both are set."}])).await;
    let (history, events) = h.prompt(None, "Remind me of two things").await;
    let ask_id = asked(&events).expect("the step waits on a form");
    assert!(ask_id.starts_with("arguments_") && ask_id.len() > 20, "an id of its own: {ask_id}");
    let form = pending_input(&h, &history).await;
    assert_eq!(
        form["prompt"],
        "Before the next step can run, a few values are needed. Each field says what it is for."
    );
    let fields = form["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1, "one field for the argument both calls need: {form}");
    assert_eq!(fields[0]["id"], "f1");
    assert_eq!(fields[0]["label"], "Time");
    assert_eq!(fields[0]["helperText"], "When to remind you, as HH:mm on a 24-hour clock (such as 09:30)");
    assert_eq!(form["title"], "Schedule reminder needs a value", "the inbox's heading for it");
    let pending = pending_ask(&h.pool, &history).await.unwrap().unwrap();
    assert_eq!(pending.ask.field_patterns[0].field, "f1", "the card can check the time before Submit");
    assert!(!form.to_string().contains("07:00"), "the model's guess is neither shown nor filled in");
    assert!(titles(&h).await.is_empty(), "no call ran before the answer");
    let tools = h.model_requests()[0]["tools"].clone();
    let offered = tools.as_array().unwrap().iter().find(|tool| tool["name"] == "scheduleReminder").unwrap();
    assert_eq!(offered["inputSchema"]["required"], json!(["title"]), "the model is offered no time: {offered}");
    assert!(offered["inputSchema"]["properties"].get("time").is_none());

    let events = h.answer(&history, &ask_id, values("09:30")).await;
    assert_eq!(text(&events), "Both are set.");
    assert_eq!(titles(&h).await, ["Call Ada (at 09:30)", "Water the plants (at 09:30)"]);
    assert_eq!(tool_result(&events, "call_b").unwrap()["reminder"]["time"], "09:30");
    let told = h.model_requests().last().unwrap().to_string();
    assert!(told.contains("09:30") && !told.contains("07:00"), "the model sees its calls as they ran: {told}");
}

#[tokio::test]
async fn an_answer_that_does_not_fit_is_refused_at_its_field_and_the_form_keeps_waiting() {
    let step = reminders(&[("call_a", json!({"title": "Call Ada"}))]);
    let h = harness(json!([step, {"text": "Set."}])).await;
    let (history, events) = h.prompt(None, "Remind me to call Ada").await;
    let ask_id = asked(&events).unwrap();
    for unfit in ["half past nine", "25:00", "9.30"] {
        let refused = h.try_answer(&history, &ask_id, values(unfit)).await;
        let Err(AppError::InvalidAnswer { fields }) = refused else { panic!("{unfit} is refused: {refused:?}") };
        assert_eq!((fields[0].path.as_str(), fields[0].code.as_str()), ("content.values.f1", "INVALID_FORMAT"));
        assert!(fields[0].message.contains("\"time\""), "{fields:?}");
    }
    let pending = pending_ask(&h.pool, &history).await.unwrap().expect("still waiting");
    assert_eq!(pending.ask.tool_call_id, ask_id, "the same ask: what was typed stays on its card");
    assert_eq!(h.model_requests().len(), 1, "the model is not called for a refused answer");
    assert!(titles(&h).await.is_empty());

    let events = h.answer(&history, &ask_id, values("18:45")).await;
    assert_eq!(text(&events), "Set.");
    assert_eq!(titles(&h).await, ["Call Ada (at 18:45)"]);
}

#[tokio::test]
async fn a_skipped_form_refuses_the_calls_and_a_later_answer_that_fits_runs_them() {
    let step = reminders(&[("call_a", json!({"title": "Call Ada"}))]);
    let again = reminders(&[("call_b", json!({"title": "Call Ada"}))]);
    let h = harness(json!([step, {"text": "Skipped."}, again, {"text": "Set."}])).await;
    let (history, events) = h.prompt(None, "Remind me").await;
    let events_after = h.answer(&history, &asked(&events).unwrap(), json!({"action": "decline"})).await;
    assert!(tool_result(&events_after, "call_a").unwrap()["error"].as_str().unwrap().contains("chose not to give it"));
    let (_, events) = h.prompt(Some(&history), "Try again").await;
    let ask_id = asked(&events).unwrap();
    let events = h.answer(&history, &ask_id, values("18:45")).await;
    assert_eq!(text(&events), "Set.");
    assert_eq!(titles(&h).await, ["Call Ada (at 18:45)"]);
}
