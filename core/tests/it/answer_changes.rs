//! Changing an answer (`turn::reopen`): taken back while nothing but its reply came after it,
//! the ask pending again as it was and answered anew; refused once the conversation went on (a
//! later message, an approved call that ran), after the window or the ask's expiry; and two
//! withdrawals at once change it once.

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness, text};
use palaver_core::turn::reopen::Unchangeable;
use palaver_wire::conversation::model::{AskStatus, HistoryRow};

fn choice(id: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

fn pick(option: &str) -> Value {
    json!({"action": "accept", "content": {"selected": [option]}})
}

fn replies(rows: &[HistoryRow]) -> Vec<&str> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::Assistant { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

fn ask_status(rows: &[HistoryRow], ask_id: &str) -> AskStatus {
    rows.iter()
        .find_map(|row| match row {
            HistoryRow::ToolCall { tool_call_id, ask: Some(ask), .. } if tool_call_id == ask_id => Some(ask.status),
            _ => None,
        })
        .expect("the ask's row")
}

fn answers(rows: &[HistoryRow], ask_id: &str) -> Vec<Value> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::ToolResult { tool_call_id, result, .. } if tool_call_id == ask_id => Some(result.clone()),
            _ => None,
        })
        .collect()
}

async fn decisions(h: &Harness) -> Vec<(String, String)> {
    let trail = palaver_core::audit::store::page(&h.pool, None, None, 20).await.unwrap().entries;
    trail.into_iter().rev().map(|entry| (entry.decision, entry.surface)).collect()
}

async fn reopen(h: &Harness, history: &str, ask: &str) -> Result<String, Unchangeable> {
    let reopened = h.runner.reopen_answer(&h.caller, history, ask).await.expect("no failure");
    reopened.map(|pending| pending.ask.tool_call_id)
}

/// A conversation whose ask was answered `solo` and replied to; its id and the ask's.
async fn answered(h: &Harness) -> (String, String) {
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask = asked(&events).expect("an ask");
    h.try_answer(&history, &ask, pick("solo")).await.unwrap();
    (history, ask)
}

#[tokio::test]
async fn a_changed_answer_takes_its_reply_away_and_the_turn_resumes_with_the_new_one() {
    let h = harness(json!([choice("call_plan"), {"text": "Solo it is."}, {"text": "Team it is."}])).await;
    let (history, events) = h.prompt(None, "Set up billing").await;
    let ask = asked(&events).expect("an ask");
    let pending_before = palaver_core::turn::store::pending_ask(&h.pool, &history).await.unwrap().unwrap();
    h.try_answer(&history, &ask, pick("solo")).await.unwrap();
    assert_eq!(replies(&h.rows(&history).await), ["Solo it is."]);
    let changeable = h.runner.changeable_answer(&h.caller, &history).await.unwrap().expect("changeable");
    assert_eq!(changeable.tool_call_id, ask);
    let other = h.another_user("grace").await;
    assert_eq!(h.runner.changeable_answer(&other, &history).await.unwrap(), None, "only for its owner");

    assert_eq!(reopen(&h, &history, &ask).await, Ok(ask.clone()));
    let pending = palaver_core::turn::store::pending_ask(&h.pool, &history).await.unwrap().expect("pending again");
    assert_eq!(pending, pending_before, "exactly as it was: same id, created and expiry");
    let rows = h.rows(&history).await;
    assert_eq!(replies(&rows), Vec::<&str>::new(), "the reply went with the answer");
    assert_eq!(ask_status(&rows, &ask), AskStatus::Pending);
    assert!(answers(&rows, &ask).is_empty());
    assert_eq!(h.runner.changeable_answer(&h.caller, &history).await.unwrap(), None);

    let events = h.answer(&history, &ask, pick("team")).await;
    assert_eq!(text(&events), "Team it is.");
    let rows = h.rows(&history).await;
    assert_eq!(replies(&rows), ["Team it is."]);
    assert_eq!(answers(&rows, &ask), [pick("team")]);
    assert_eq!(ask_status(&rows, &ask), AskStatus::Answered);
    let told = h.model_requests().last().expect("the resumed turn's request").to_string().replace('\\', "");
    let heard = |option: &str| told.contains(&format!(r#""selected":["{option}"]"#));
    assert!(heard("team") && !heard("solo") && !told.contains("Solo it is."), "only the new answer: {told}");
    let web = |decision: &str| (decision.to_string(), "web".to_string());
    assert_eq!(decisions(&h).await, [web("accept"), web("withdrawn"), web("accept")]);
}

#[tokio::test]
async fn an_answer_cannot_change_after_a_later_message() {
    let h = harness(json!([choice("call_plan"), {"text": "Solo it is."}, {"text": "Anything else?"}])).await;
    let (history, ask) = answered(&h).await;
    h.prompt(Some(&history), "Thanks").await;
    assert_eq!(h.runner.changeable_answer(&h.caller, &history).await.unwrap(), None);
    assert_eq!(reopen(&h, &history, &ask).await, Err(Unchangeable::WentOn));
    assert_eq!(replies(&h.rows(&history).await), ["Solo it is.", "Anything else?"], "nothing changed");
    assert_eq!(h.pending(&history).await, None);
}

#[tokio::test]
async fn a_denial_can_change_but_an_approved_call_that_ran_cannot() {
    let delete = json!({"toolCalls": [{"id": "call_delete", "name": "deleteCompletedTodos", "input": {}}]});
    let h = harness(json!([delete, {"text": "Kept them."}, {"text": "Deleted."}])).await;
    h.seed_completed_todo("old").await;
    let (history, events) = h.prompt(None, "Delete my completed todos").await;
    let approval = asked(&events).expect("an approval");
    h.try_answer(&history, &approval, json!({"action": "accept", "content": {"confirmed": false}})).await.unwrap();
    assert_eq!(reopen(&h, &history, &approval).await, Ok(approval.clone()), "a denial can change");

    h.try_answer(&history, &approval, json!({"action": "accept", "content": {"confirmed": true}})).await.unwrap();
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM todos").fetch_one(&h.pool).await.unwrap();
    assert_eq!(left, 0, "the approved call ran");
    assert_eq!(replies(&h.rows(&history).await), ["Deleted."]);
    assert_eq!(h.runner.changeable_answer(&h.caller, &history).await.unwrap(), None);
    assert_eq!(reopen(&h, &history, &approval).await, Err(Unchangeable::WentOn), "once it ran, it ran");
    assert_eq!(h.pending(&history).await, None);
}

#[tokio::test]
async fn an_answer_cannot_change_after_its_window_or_its_asks_expiry() {
    let h = harness(json!([choice("call_plan"), {"text": "Solo it is."}])).await;
    let (history, ask) = answered(&h).await;
    let long_ago = "2000-01-01T00:00:00.000Z";
    sqlx::query("UPDATE answered_asks SET expires_at = $1").bind(long_ago).execute(&h.pool).await.unwrap();
    assert_eq!(reopen(&h, &history, &ask).await, Err(Unchangeable::Expired));
    sqlx::query("UPDATE answered_asks SET expires_at = NULL, changeable_until = $1")
        .bind(long_ago)
        .execute(&h.pool)
        .await
        .unwrap();
    assert_eq!(h.runner.changeable_answer(&h.caller, &history).await.unwrap(), None);
    assert_eq!(reopen(&h, &history, &ask).await, Err(Unchangeable::WindowClosed));
    assert_eq!(replies(&h.rows(&history).await), ["Solo it is."], "nothing changed");
    assert_eq!(decisions(&h).await.len(), 1, "no withdrawal recorded");
    // The sweeper lets a lapsed answer go; the conversation stays as it was.
    assert_eq!(h.runner.forget_lapsed_answers().await.unwrap(), 1);
    assert_eq!(h.runner.forget_lapsed_answers().await.unwrap(), 0, "once");
    assert!(reopen(&h, &history, &ask).await.is_err());
    assert_eq!(replies(&h.rows(&history).await), ["Solo it is."]);
}

#[tokio::test]
async fn two_withdrawals_at_once_change_the_answer_once() {
    let h = harness(json!([choice("call_plan"), {"text": "Solo it is."}])).await;
    let (history, ask) = answered(&h).await;
    let (one, other) = tokio::join!(reopen(&h, &history, &ask), reopen(&h, &history, &ask));
    let mut outcomes = [one, other];
    outcomes.sort_by_key(Result::is_err);
    assert_eq!(outcomes, [Ok(ask.clone()), Err(Unchangeable::AlreadyOpen)]);
    assert_eq!(h.pending(&history).await, Some(ask));
    let withdrawn = decisions(&h).await.into_iter().filter(|(decision, _)| decision == "withdrawn").count();
    assert_eq!(withdrawn, 1);
}

#[tokio::test]
async fn a_withdrawal_racing_a_new_message_leaves_one_consistent_conversation() {
    let h = harness(json!([choice("call_plan"), {"text": "Solo it is."}, {"text": "Anything else?"}])).await;
    let (history, ask) = answered(&h).await;
    let (withdrawn, _) = tokio::join!(reopen(&h, &history, &ask), h.prompt(Some(&history), "Thanks"));
    let rows = h.rows(&history).await;
    // Either the withdrawal came first and the message cancelled the ask it reopened, or the
    // message came first and the answer stands: never an ask waiting under a later message.
    assert_eq!(h.pending(&history).await, None);
    match withdrawn {
        Ok(_) => {
            assert_eq!(ask_status(&rows, &ask), AskStatus::Cancelled);
            assert_eq!(replies(&rows), ["Anything else?"], "the reply to the answer went");
        }
        Err(refused) => {
            assert!(matches!(refused, Unchangeable::WentOn | Unchangeable::ReplyRunning), "{refused:?}");
            assert_eq!(ask_status(&rows, &ask), AskStatus::Answered);
            assert_eq!(replies(&rows), ["Solo it is.", "Anything else?"]);
        }
    }
}
