//! A conversation's rows as AG-UI messages (`MESSAGES_SNAPSHOT`), and which of a client's
//! messages are new to Palaver.
//!
//! Palaver is the source of truth: a row's message id is `<conversation>-<row index>`, so a
//! client that applied the last snapshot sends back only ids Palaver made, and its user
//! messages under other ids are what it says now.

use ag_ui::message::{AssistantMessage, InputContent, Message, ToolMessage, UserContent, UserMessage};
use ag_ui::tool::{FunctionCall, ToolCall};
use palaver_wire::conversation::model::{AskOrigin, HistoryRow};
use serde_json::Value;

/// A tool's result as AG-UI carries it, in `TOOL_CALL_RESULT` and in a tool message alike: a
/// text result as its text, anything else as its JSON.
pub fn result_text(result: &Value) -> String {
    match result {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The id of a conversation's row, as snapshots name it.
pub fn row_message_id(history_id: &str, index: usize) -> String {
    format!("{history_id}-{index}")
}

/// Whether `id` names a row of the conversation (whether or not it still exists).
fn is_row_id(history_id: &str, id: &str) -> bool {
    id.strip_prefix(history_id)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|index| !index.is_empty() && index.bytes().all(|byte| byte.is_ascii_digit()))
}

/// The conversation's rows as AG-UI messages: a user row is a user message, a reply an
/// assistant message, each run of tool-call rows one assistant message with those calls, and
/// a tool result a tool message (its result as JSON text). An approval is not a call of its
/// own (the call it guards is, with its result); another ask is a call of its kind's ask tool,
/// as the runs stream it.
pub fn snapshot(history_id: &str, rows: &[HistoryRow]) -> Vec<Message> {
    let approvals: Vec<&str> = rows
        .iter()
        .filter_map(|row| match row {
            HistoryRow::ToolCall { tool_call_id, ask: Some(ask), .. } if ask.origin == Some(AskOrigin::Approval) => {
                Some(tool_call_id.as_str())
            }
            _ => None,
        })
        .collect();
    let mut messages: Vec<Message> = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let id = row_message_id(history_id, index);
        match row {
            HistoryRow::ToolCall { tool_call_id, .. } | HistoryRow::ToolResult { tool_call_id, .. }
                if approvals.contains(&tool_call_id.as_str()) => {}
            HistoryRow::User { text, .. } => messages.push(Message::user(id, text.as_str())),
            HistoryRow::Assistant { text, .. } => messages.push(Message::assistant(id, text.as_str())),
            HistoryRow::ToolCall { tool_name, tool_call_id, args, ask, .. } => {
                let name = match ask {
                    Some(ask) if ask.origin.is_some() => ask.kind.tool_name(),
                    _ => tool_name.clone(),
                };
                let call = ToolCall {
                    id: tool_call_id.as_str().into(),
                    kind: Default::default(),
                    function: FunctionCall { name, arguments: args.to_string() },
                    encrypted_value: None,
                    metadata: None,
                };
                // Calls one after another are the calls of one step: one assistant message.
                if let Some(Message::Assistant(AssistantMessage { tool_calls: Some(calls), content: None, .. })) =
                    messages.last_mut()
                {
                    calls.push(call);
                } else {
                    messages.push(Message::Assistant(AssistantMessage {
                        id: id.into(),
                        tool_calls: Some(vec![call]),
                        ..Default::default()
                    }));
                }
            }
            HistoryRow::ToolResult { tool_call_id, result, .. } => messages.push(Message::Tool(ToolMessage {
                id: id.into(),
                content: result_text(result),
                tool_call_id: tool_call_id.as_str().into(),
                ..Default::default()
            })),
        }
    }
    messages
}

/// The client's user messages Palaver has not taken in: neither rows of the conversation nor
/// messages an earlier run took (`taken`). Their ids and texts, in order.
pub fn new_user_messages(history_id: Option<&str>, messages: &[Message], taken: &[String]) -> Vec<(String, String)> {
    messages
        .iter()
        .filter_map(|message| match message {
            Message::User(UserMessage { id, content, .. }) => Some((id.as_str(), content)),
            _ => None,
        })
        .filter(|(id, _)| !history_id.is_some_and(|history_id| is_row_id(history_id, id)))
        .filter(|(id, _)| !taken.iter().any(|taken| taken == id))
        .map(|(id, content)| (id.to_string(), user_text(content)))
        .collect()
}

/// A user message's text: its text parts, one after another (Palaver's prompts are text;
/// files come through its own upload route).
fn user_text(content: &UserContent) -> String {
    match content {
        UserContent::Text(text) => text.clone(),
        UserContent::Parts(parts) => parts
            .iter()
            .filter_map(|part| match part {
                InputContent::Text(text) => Some(text.text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n\n"),
    }
}

/// The results the client sent as tool messages, by the call each answers: a result that reads
/// as JSON is taken as it, any other as its text.
pub fn tool_results(messages: &[Message]) -> Vec<(String, Value)> {
    messages
        .iter()
        .filter_map(|message| match message {
            Message::Tool(tool) => {
                let result =
                    serde_json::from_str(&tool.content).unwrap_or_else(|_| Value::String(tool.content.clone()));
                Some((tool.tool_call_id.as_str().to_string(), result))
            }
            _ => None,
        })
        .collect()
}

/// The ids of the client's user messages, to look up among those taken before.
pub fn user_message_ids(messages: &[Message]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|message| match message {
            Message::User(user) => Some(user.id.as_str().to_string()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rows() -> Vec<HistoryRow> {
        vec![
            HistoryRow::User { text: "Book a table".into(), attachments: vec![], from_app: None },
            HistoryRow::ToolCall {
                tool_name: "ask_choice".into(),
                tool_call_id: "call_1".into(),
                args: json!({"prompt": "When?"}),
                ask: None,
                allowed_by: None,
                model_call_id: None,
                client_tool: false,
            },
            HistoryRow::ToolResult {
                tool_name: "ask_choice".into(),
                tool_call_id: "call_1".into(),
                result: json!({"action": "accept"}),
                model_call_id: None,
            },
            HistoryRow::Assistant {
                text: "Booked.".into(),
                document: false,
                block_errors: String::new(),
                interrupted: false,
                blocks: None,
                model: None,
            },
        ]
    }

    #[test]
    fn rows_become_messages_with_ids_palaver_made() {
        let messages = serde_json::to_value(snapshot("h1", &rows())).unwrap();
        assert_eq!(
            messages,
            json!([
                {"id": "h1-0", "role": "user", "content": "Book a table"},
                {"id": "h1-1", "role": "assistant", "toolCalls": [
                    {"id": "call_1", "type": "function", "function": {"name": "ask_choice", "arguments": "{\"prompt\":\"When?\"}"}}]},
                {"id": "h1-2", "role": "tool", "content": "{\"action\":\"accept\"}", "toolCallId": "call_1"},
                {"id": "h1-3", "role": "assistant", "content": "Booked."},
            ])
        );
    }

    #[test]
    fn only_messages_palaver_has_not_taken_are_new() {
        let messages: Vec<Message> = serde_json::from_value(json!([
            {"id": "h1-0", "role": "user", "content": "Book a table"},
            {"id": "h1-3", "role": "assistant", "content": "Booked."},
            {"id": "u-old", "role": "user", "content": "Sent before"},
            {"id": "u-new", "role": "user", "content": [{"type": "text", "text": "And"}, {"type": "text", "text": "wine"}]},
            {"id": "h2-4", "role": "user", "content": "Another conversation's id is the client's own"},
        ]))
        .unwrap();
        let new = new_user_messages(Some("h1"), &messages, &["u-old".to_string()]);
        assert_eq!(
            new,
            vec![
                ("u-new".to_string(), "And\n\nwine".to_string()),
                ("h2-4".to_string(), "Another conversation's id is the client's own".to_string()),
            ]
        );
        assert_eq!(new_user_messages(None, &messages, &[]).len(), 4);
    }
}
