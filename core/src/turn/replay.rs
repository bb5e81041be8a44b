//! Rows to model messages: later turns replay messages and each ask's call and answer; host
//! tool rows and approval rows are for display only (but for an ask that expired).

use serde_json::Value;

use crate::llm::{ModelMessage, ToolCall};
use palaver_contract::asks::{AskKind, told_answer};
use palaver_wire::conversation::model::{AskStatus, Attachment, HistoryRow};

fn is_ask_tool(name: &str) -> bool {
    name.starts_with("ask_")
}

/// A reply as the model is shown it later: a document that stayed invalid carries its errors,
/// so the model sees what went wrong (reference-behaviour-notes Q.6 step 4).
fn told_text(text: &str, block_errors: &str) -> String {
    if block_errors.is_empty() {
        text.to_string()
    } else {
        format!("{text}\n\nBlock validation errors:\n{block_errors}")
    }
}

/// What the model is told of an ask nobody answered in time (on the turn after it expired).
const EXPIRED_NOTE: &str = "The user did not answer in time: the ask expired and nothing was done.";

fn told_expiry(result: &Value) -> Value {
    let mut told = result.clone();
    told["message"] = EXPIRED_NOTE.into();
    told
}

/// A message as the model is shown it later: the files it carried are named, not sent again.
fn with_attachment_notes(text: &str, attachments: &[Attachment]) -> String {
    if attachments.is_empty() {
        return text.to_string();
    }
    let named: Vec<String> = attachments.iter().map(Attachment::describe).collect();
    format!("{text}\n\n[Attached: {}]", named.join("; "))
}

/// A user message as the model reads it: one an MCP App sent for the person says so, so the
/// model does not take the app's words for the person's own.
pub(super) fn sent_by(text: &str, from_app: Option<&str>) -> String {
    match from_app {
        Some(server) => format!("{text}\n\n[Sent for the person by the app of the MCP server \"{server}\".]"),
        None => text.to_string(),
    }
}

/// What the model is told after a reply of its own that was cut off.
const TOLD_INTERRUPTED: &str = "[This reply was cut off before it finished; the user saw it as far as it got.]";

pub fn replay(rows: &[HistoryRow]) -> Vec<ModelMessage> {
    replay_rows(rows, false)
}

/// The rows of a turn that goes on where it stopped (the client ran its tools' calls): its
/// tool calls and their results too, as the model made and saw them in that turn.
pub fn replay_turn(rows: &[HistoryRow]) -> Vec<ModelMessage> {
    replay_rows(rows, true)
}

fn replay_rows(rows: &[HistoryRow], with_tools: bool) -> Vec<ModelMessage> {
    // Approvals and tools' questions are not replayed, except one that expired: the model
    // never saw it end, so it sees the call and its expiry.
    let mut expired: Vec<&str> = Vec::new();
    // The calls of tools (host or client) replayed, for replaying their results.
    let mut tool_calls: Vec<&str> = Vec::new();
    // The ask calls seen so far, for telling their answers as the model is told them.
    let mut asked: Vec<(&str, AskKind, &Value)> = Vec::new();
    let messages = rows.iter().filter_map(|row| match row {
        HistoryRow::User { text, attachments, from_app } => {
            let text = sent_by(&with_attachment_notes(text, attachments), from_app.as_deref());
            Some(ModelMessage::User { text, parts: Vec::new() })
        }
        HistoryRow::Assistant { text, block_errors, interrupted, .. } => {
            let mut told = told_text(text, block_errors);
            if *interrupted {
                if !told.is_empty() {
                    told.push_str("\n\n");
                }
                told.push_str(TOLD_INTERRUPTED);
            }
            Some(ModelMessage::Assistant { text: told, tool_calls: Vec::new() })
        }
        // A model's ask is told under the model's own id (its rows are keyed by the ask's).
        HistoryRow::ToolCall { tool_name, tool_call_id, args, ask, model_call_id, .. } => {
            let ended_by_time = ask.as_ref().is_some_and(|ask| ask.status == AskStatus::Expired);
            if ended_by_time {
                expired.push(tool_call_id);
            }
            if let Some(ask) = ask {
                asked.push((tool_call_id, ask.kind, args));
            }
            let tool_call = with_tools && ask.is_none() && !is_ask_tool(tool_name);
            if tool_call {
                tool_calls.push(tool_call_id);
            }
            (is_ask_tool(tool_name) || ended_by_time || tool_call).then(|| ModelMessage::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: model_call_id.as_ref().unwrap_or(tool_call_id).clone(),
                    name: tool_name.clone(),
                    input: args.clone(),
                }],
            })
        }
        HistoryRow::ToolResult { tool_name, tool_call_id, result, model_call_id } => {
            let ended_by_time = expired.contains(&tool_call_id.as_str());
            let told = match asked.iter().find(|(id, ..)| id == tool_call_id) {
                _ if ended_by_time => told_expiry(result),
                Some((_, kind, args)) => told_answer(*kind, args, result),
                None => result.clone(),
            };
            let tool_call = tool_calls.contains(&tool_call_id.as_str());
            (is_ask_tool(tool_name) || ended_by_time || tool_call).then(|| {
                ModelMessage::tool(model_call_id.as_ref().unwrap_or(tool_call_id).clone(), tool_name.clone(), told)
            })
        }
    });
    merge_calls_of_one_step(messages)
}

/// A step's ask calls are stored one row each, its dropped asks' results after them (reference
/// Q.3), so the calls replay as one assistant message: a provider wants every call of a message
/// answered before the next message (OpenAI refuses it otherwise).
fn merge_calls_of_one_step(messages: impl Iterator<Item = ModelMessage>) -> Vec<ModelMessage> {
    let mut merged: Vec<ModelMessage> = Vec::new();
    for message in messages {
        if let (Some(ModelMessage::Assistant { tool_calls: step, .. }), ModelMessage::Assistant { text, tool_calls }) =
            (merged.last_mut(), &message)
            && !step.is_empty()
            && text.is_empty()
            && !tool_calls.is_empty()
        {
            step.extend(tool_calls.iter().cloned());
            continue;
        }
        merged.push(message);
    }
    merged
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use palaver_contract::asks::AskKind;
    use palaver_wire::conversation::model::{AskOrigin, RowAsk};

    #[test]
    fn replays_ask_pairs_and_skips_host_and_approval_rows() {
        let call = |name: &str, id: &str, model: Option<&str>, origin| HistoryRow::ToolCall {
            tool_name: name.into(),
            tool_call_id: id.into(),
            args: json!({}),
            ask: Some(RowAsk { kind: AskKind::Confirm, status: AskStatus::Answered, origin, expired_at: None }),
            allowed_by: None,
            model_call_id: model.map(Into::into),
            client_tool: false,
        };
        let result = |name: &str, id: &str, model: Option<&str>| HistoryRow::ToolResult {
            tool_name: name.into(),
            tool_call_id: id.into(),
            result: json!({}),
            model_call_id: model.map(Into::into),
        };
        let rows = vec![
            HistoryRow::User { text: "hi".into(), attachments: Vec::new(), from_app: None },
            call("ask_confirm", "ask_1", Some("c1"), None),
            result("ask_confirm", "ask_1", Some("c1")),
            HistoryRow::ToolCall {
                tool_name: "listTodos".into(),
                tool_call_id: "t1".into(),
                args: json!({}),
                ask: None,
                allowed_by: None,
                model_call_id: None,
                client_tool: false,
            },
            result("listTodos", "t1", None),
            call("deleteCompletedTodos", "approval_t2", None, Some(AskOrigin::Approval)),
            result("deleteCompletedTodos", "approval_t2", None),
            HistoryRow::Assistant {
                text: "done".into(),
                document: false,
                block_errors: String::new(),
                interrupted: false,
                blocks: None,
                model: None,
            },
        ];
        let messages = replay(&rows);
        assert_eq!(messages.len(), 4);
        // The model is told its ask under its own id.
        assert!(matches!(&messages[1], ModelMessage::Assistant { tool_calls, .. }
            if tool_calls[0].name == "ask_confirm" && tool_calls[0].id == "c1"));
        assert!(matches!(&messages[2], ModelMessage::Tool { tool_call_id, .. } if tool_call_id == "c1"));
    }

    #[test]
    fn a_steps_ask_and_its_dropped_second_replay_as_one_assistant_message() {
        let call = |id: &str, model: &str, status| HistoryRow::ToolCall {
            tool_name: "ask_confirm".into(),
            tool_call_id: id.into(),
            args: json!({"prompt": "Sure?"}),
            ask: Some(RowAsk { kind: AskKind::Confirm, status, origin: None, expired_at: None }),
            allowed_by: None,
            model_call_id: Some(model.into()),
            client_tool: false,
        };
        let result = |id: &str, model: &str, result| HistoryRow::ToolResult {
            tool_name: "ask_confirm".into(),
            tool_call_id: id.into(),
            result,
            model_call_id: Some(model.into()),
        };
        let rows = vec![
            HistoryRow::User { text: "two asks".into(), attachments: Vec::new(), from_app: None },
            call("ask_1", "c1", AskStatus::Answered),
            call("ask_2", "c2", AskStatus::Cancelled),
            result("ask_2", "c2", crate::turn::store::one_ask_at_a_time()),
            result("ask_1", "c1", json!({"action": "accept", "content": {"confirmed": true}})),
        ];
        let told: Vec<(String, Vec<String>)> = replay(&rows)
            .into_iter()
            .map(|message| match message {
                ModelMessage::User { .. } => ("user".into(), Vec::new()),
                ModelMessage::Assistant { tool_calls, .. } => {
                    ("assistant".into(), tool_calls.into_iter().map(|call| call.id).collect())
                }
                ModelMessage::Tool { tool_call_id, .. } => ("tool".into(), vec![tool_call_id]),
            })
            .collect();
        let expected = [("user", vec![]), ("assistant", vec!["c1", "c2"]), ("tool", vec!["c2"]), ("tool", vec!["c1"])];
        let expected: Vec<(String, Vec<String>)> = expected
            .into_iter()
            .map(|(role, ids)| (role.to_string(), ids.into_iter().map(String::from).collect()))
            .collect();
        assert_eq!(told, expected);
    }

    #[test]
    fn a_reply_cut_off_is_replayed_as_far_as_it_got_with_a_note() {
        let cut = |text: &str| HistoryRow::Assistant {
            text: text.into(),
            document: false,
            block_errors: String::new(),
            interrupted: true,
            blocks: None,
            model: None,
        };
        let told: Vec<String> = replay(&[cut("Half a"), cut("")])
            .into_iter()
            .map(|message| match message {
                ModelMessage::Assistant { text, .. } => text,
                other => panic!("not a reply: {other:?}"),
            })
            .collect();
        assert_eq!(told, [format!("Half a\n\n{TOLD_INTERRUPTED}"), TOLD_INTERRUPTED.to_string()]);
    }

    #[test]
    fn an_expired_ask_or_approval_is_replayed_with_a_note() {
        let expired = |name: &str, id: &str, origin| HistoryRow::ToolCall {
            tool_name: name.into(),
            tool_call_id: id.into(),
            args: json!({"prompt": "Go?"}),
            ask: Some(RowAsk {
                kind: AskKind::Confirm,
                status: AskStatus::Expired,
                origin,
                expired_at: Some("2026-12-01T10:00:00.000Z".into()),
            }),
            allowed_by: None,
            model_call_id: None,
            client_tool: false,
        };
        let cancel = |name: &str, id: &str| HistoryRow::ToolResult {
            tool_name: name.into(),
            tool_call_id: id.into(),
            result: json!({"action": "cancel", "reason": "expired"}),
            model_call_id: None,
        };
        let rows = vec![
            expired("ask_confirm", "c1", None),
            cancel("ask_confirm", "c1"),
            expired("deleteCompletedTodos", "approval_t2", Some(AskOrigin::Approval)),
            cancel("deleteCompletedTodos", "approval_t2"),
            HistoryRow::ToolResult {
                tool_name: "deleteCompletedTodos".into(),
                tool_call_id: "t2".into(),
                result: json!({"approved": false, "reason": "expired"}),
                model_call_id: None,
            },
        ];
        let messages = replay(&rows);
        assert_eq!(messages.len(), 4, "{messages:?}");
        for message in [&messages[1], &messages[3]] {
            let ModelMessage::Tool { result, .. } = message else { panic!("not a tool result: {message:?}") };
            assert_eq!(result["reason"], "expired");
            assert_eq!(result["message"], EXPIRED_NOTE);
        }
        assert!(
            matches!(&messages[2], ModelMessage::Assistant { tool_calls, .. } if tool_calls[0].id == "approval_t2")
        );
    }
}
