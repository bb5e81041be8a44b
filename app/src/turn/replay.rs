//! Rows to model messages: later turns replay messages and each ask's call and answer; host
//! tool rows and approval rows are for display only.

use crate::chat::model::HistoryRow;
use crate::llm::{ModelMessage, ToolCall};

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

pub fn replay(rows: &[HistoryRow]) -> Vec<ModelMessage> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::User { text } => Some(ModelMessage::User { text: text.clone() }),
            HistoryRow::Assistant { text, block_errors, .. } => {
                Some(ModelMessage::Assistant { text: told_text(text, block_errors), tool_calls: Vec::new() })
            }
            HistoryRow::ToolCall { tool_name, tool_call_id, args, .. } if is_ask_tool(tool_name) => {
                Some(ModelMessage::Assistant {
                    text: String::new(),
                    tool_calls: vec![ToolCall {
                        id: tool_call_id.clone(),
                        name: tool_name.clone(),
                        input: args.clone(),
                    }],
                })
            }
            HistoryRow::ToolResult { tool_name, tool_call_id, result } if is_ask_tool(tool_name) => {
                Some(ModelMessage::tool(tool_call_id.clone(), tool_name.clone(), result.clone()))
            }
            HistoryRow::ToolCall { .. } | HistoryRow::ToolResult { .. } => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::chat::model::{AskOrigin, AskStatus, RowAsk};
    use palaver_contract::asks::AskKind;

    #[test]
    fn replays_ask_pairs_and_skips_host_and_approval_rows() {
        let call = |name: &str, id: &str, origin| HistoryRow::ToolCall {
            tool_name: name.into(),
            tool_call_id: id.into(),
            args: json!({}),
            ask: Some(RowAsk { kind: AskKind::Confirm, status: AskStatus::Answered, origin }),
        };
        let result = |name: &str, id: &str| HistoryRow::ToolResult {
            tool_name: name.into(),
            tool_call_id: id.into(),
            result: json!({}),
        };
        let rows = vec![
            HistoryRow::User { text: "hi".into() },
            call("ask_confirm", "c1", None),
            result("ask_confirm", "c1"),
            HistoryRow::ToolCall {
                tool_name: "listTodos".into(),
                tool_call_id: "t1".into(),
                args: json!({}),
                ask: None,
            },
            result("listTodos", "t1"),
            call("deleteCompletedTodos", "approval_t2", Some(AskOrigin::Approval)),
            result("deleteCompletedTodos", "approval_t2"),
            HistoryRow::Assistant { text: "done".into(), document: false, block_errors: String::new(), blocks: None },
        ];
        let messages = replay(&rows);
        assert_eq!(messages.len(), 4);
        assert!(
            matches!(&messages[1], ModelMessage::Assistant { tool_calls, .. } if tool_calls[0].name == "ask_confirm")
        );
        assert!(matches!(&messages[2], ModelMessage::Tool { tool_call_id, .. } if tool_call_id == "c1"));
    }
}
