//! Re-nudges, quiet hours and the settings behind them, against the local push service. The
//! passes run at moments the tests choose (`Push::nudge_due`), so no test waits for a clock.

use std::time::Duration;

use axum::http::StatusCode;
use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::http_push::{answer, ask, confirm, subscribed, subscribed_on};

/// Polls `sql` (one count) until it is `expected`, for up to 10 s: the pushes follow the live
/// events from a task of their own.
async fn settles(app: &TestApp, sql: &str, expected: i64) {
    for _ in 0..500 {
        let (count,): (i64,) = sqlx::query_as(sql).fetch_one(&app.pool).await.unwrap();
        if count == expected {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("`{sql}` never came to {expected}");
}

/// Waits up to 10 s for the resumed turn of `history` to store `reply`: an answer returns once
/// the turn resumed, before its model call.
async fn replied(app: &TestApp, user: &crate::common::TestUser, history: &str, reply: &str) {
    for _ in 0..500 {
        let (_, read) = app.json(user, "GET", &format!("/gpt/histories/{history}"), None).await;
        if read.to_string().contains(reply) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the conversation never got its reply {reply:?}");
}

fn after(minutes: i64) -> Timestamp {
    Timestamp::now() + SignedDuration::from_mins(minutes)
}

fn clock(moment: Timestamp) -> String {
    moment.strftime("%H:%M").to_string()
}

/// A settings body without the `requestId` every JSON answer carries.
fn settings(mut body: Value) -> Value {
    body.as_object_mut().map(|fields| fields.remove("requestId"));
    body
}

fn body(push: &Value) -> &str {
    push["payload"]["ask"]["body"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn an_unanswered_ask_is_pushed_again_at_each_moment_once_and_no_more_once_answered() {
    let script = json!({"responses": [confirm("call_1", "Ship the release?"), {"text": "Shipped."}, confirm("call_2", "Next?")]});
    let (app, ada, service, _) = subscribed(script, 201).await;
    let (history, ask_id) = ask(&app, &ada, "Ship it", None).await;
    service.received(1).await;
    let push = &app.state.push;

    push.nudge_due(after(5)).await.unwrap(); // before the first moment (10 minutes)
    push.nudge_due(after(11)).await.unwrap();
    push.nudge_due(after(11)).await.unwrap(); // taken already
    let received = service.received(2).await;
    let reminder = &received[1]["payload"]["ask"];
    assert_eq!(reminder["tag"], ask_id.as_str(), "it replaces the first notification");
    assert!(body(&received[1]).starts_with("Still waiting for your answer. Ship the release?"), "{reminder:#}");
    assert_eq!(reminder["actions"].as_array().map(Vec::len), Some(2), "its buttons, with new capabilities");

    push.nudge_due(after(61)).await.unwrap(); // an hour after
    push.nudge_due(after(23 * 60 + 1)).await.unwrap(); // an hour before the day-long ask expires
    push.nudge_due(after(23 * 60 + 30)).await.unwrap(); // none left
    let received = service.received(4).await;
    let token = received[3]["payload"]["ask"]["actions"][0]["token"].as_str().unwrap().to_string();
    assert_eq!(answer(&app, &token).await, StatusCode::OK, "a reminder's button answers");
    replied(&app, &ada, &history, "Shipped.").await;
    settles(&app, "SELECT COUNT(*) FROM push_nudges", 0).await;
    push.nudge_due(after(23 * 60 + 30)).await.unwrap();

    ask(&app, &ada, "Next one", None).await;
    let received = service.received(6).await;
    let kinds: Vec<&str> = received
        .iter()
        .map(|push| match &push["payload"] {
            payload if payload.get("closed").is_some() => "closed",
            _ if body(push).starts_with("Still waiting") => "reminder",
            payload if payload.get("ask").is_some() => "ask",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["ask", "reminder", "reminder", "reminder", "closed", "ask"]);
}

#[tokio::test]
async fn quiet_hours_hold_every_push_back_and_one_summary_follows_them() {
    let script = json!({"responses": [confirm("call_1", "Book the room?"), confirm("call_2", "Order lunch?")]});
    let (app, ada, service, _) = subscribed(script, 201).await;
    let quiet = json!({"quietHours": {"from": clock(after(-60)), "until": clock(after(60)), "timeZone": "UTC"}});
    let (status, saved) = app.json(&ada, "PUT", "/push/settings", Some(quiet.clone())).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(json!({"title": "Offsite"}))).await;
    ask(&app, &ada, "Book it", None).await;
    ask(&app, &ada, "Lunch", Some(&history)).await;
    settles(&app, "SELECT COUNT(*) FROM push_nudges", 2).await;
    settles(&app, "SELECT COUNT(*) FROM push_quiet_held", 1).await;

    let push = &app.state.push;
    push.nudge_due(after(11)).await.unwrap(); // the re-nudges fall in the quiet hours too
    settles(&app, "SELECT COUNT(*) FROM push_nudges WHERE sent = 1", 2).await;
    settles(&app, "SELECT COUNT(*) FROM push_quiet_held", 1).await;

    let (status, _) = app.json(&ada, "PUT", "/push/settings", Some(json!({}))).await;
    assert_eq!(status, StatusCode::OK);
    push.nudge_due(after(12)).await.unwrap();
    push.nudge_due(after(13)).await.unwrap(); // the summary is sent once
    let received = service.received(1).await;
    assert_eq!(received.len(), 1, "only the summary: {received:#?}");
    let summary = &received[0]["payload"]["summary"];
    assert_eq!(summary["title"], "2 questions wait for you", "{summary:#}");
    assert_eq!(summary["body"], "Held back during your quiet hours. The newest is in \u{201c}Offsite\u{201d}.");
    assert_eq!(summary["url"], "/");
}

#[tokio::test]
async fn notification_settings_are_kept_per_person_and_refused_with_each_path() {
    let (app, ada, _service, _) = subscribed(json!({"responses": []}), 201).await;
    let (status, defaults) = app.json(&ada, "GET", "/push/settings", None).await;
    let defaults = settings(defaults);
    assert_eq!((status, &defaults), (StatusCode::OK, &json!({"approvalsOpenOnly": false, "openOnlyTools": []})));

    let sent = json!({
        "quietHours": {"from": " 22:00", "until": "07:30", "timeZone": "Europe/Berlin"},
        "openOnlyTools": ["send_mail", " send_mail ", "", "create_directory"],
    });
    let (status, saved) = app.json(&ada, "PUT", "/push/settings", Some(sent)).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let expected = json!({
        "quietHours": {"from": "22:00", "until": "07:30", "timeZone": "Europe/Berlin"},
        "approvalsOpenOnly": false,
        "openOnlyTools": ["send_mail", "create_directory"],
    });
    assert_eq!(settings(saved), expected);
    assert_eq!(settings(app.json(&ada, "GET", "/push/settings", None).await.1), expected, "as saved");
    let grace = app.user("grace", palaver_wire::accounts::Role::User).await;
    assert_eq!(settings(app.json(&grace, "GET", "/push/settings", None).await.1), defaults, "each person's own");

    let bad = json!({"quietHours": {"from": "9pm", "until": "07:00", "timeZone": "Moon/Base"}});
    let (status, problem) = app.json(&ada, "PUT", "/push/settings", Some(bad)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let paths: Vec<&str> = problem["fields"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["quietHours.from", "quietHours.timeZone"], "{problem:#}");
    assert_eq!(settings(app.json(&ada, "GET", "/push/settings", None).await.1), expected, "nothing half-saved");
}

#[tokio::test]
async fn approvals_a_person_marks_only_open_palaver_from_a_notification() {
    let hub = crate::http_mcp::everything_approving("always").await;
    let echo = |id: &str| json!({"toolCalls": [{"id": id, "name": "everything__echo", "input": {"message": "hi"}}]});
    let script = json!({"responses": [echo("call_1"), {"text": "Not echoed."}, echo("call_2")]});
    let app = TestApp::with_mcp(&script.to_string(), hub).await;
    let (app, ada, service, _) = subscribed_on(app, 201).await;

    let (history, _) = ask(&app, &ada, "Echo it", None).await;
    let first = &service.received(1).await[0]["payload"]["ask"];
    let actions = first["actions"].as_array().expect("an approval answers from its notification");
    assert_eq!(actions.len(), 2, "{first:#}");
    let deny = actions.iter().find(|action| action["action"] == "deny").expect("a deny button");
    assert_eq!(answer(&app, deny["token"].as_str().unwrap()).await, StatusCode::OK);
    replied(&app, &ada, &history, "Not echoed.").await;

    let only_open = json!({"openOnlyTools": ["everything__echo"]});
    assert_eq!(app.json(&ada, "PUT", "/push/settings", Some(only_open)).await.0, StatusCode::OK);
    let (_, second_id) = ask(&app, &ada, "Echo it again", None).await;
    let received = service.received(3).await;
    let second = received.iter().find(|push| push["payload"]["ask"]["tag"] == second_id.as_str()).unwrap();
    assert!(second["payload"]["ask"].get("actions").is_none(), "only Open: {second:#}");
}
