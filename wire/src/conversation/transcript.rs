//! A conversation's rows as the transcript shows them: messages, tool lines, and asks with
//! their answers joined to them.

use serde_json::Value;

use super::model::{AppAsk, AskOrigin, AskStatus, Attachment, Branches, HistoryRow, HistoryView, Rating};
use crate::approvers::RoutedApproval;
use crate::body::CallArgument;
use crate::grants::AllowedBy;
use crate::impact::{Impact, ToolHints};
use palaver_contract::asks::{AskKind, FieldPattern};
use palaver_contract::blocks::ShownCheck;

/// What the transcript and the export say under a reply that was cut off.
pub const INTERRUPTED: &str = "This reply was cut off before it finished.";

#[derive(Clone, Debug, PartialEq)]
pub struct AskItem {
    pub tool_call_id: String,
    pub kind: AskKind,
    pub input: Value,
    pub status: AskStatus,
    pub response: Option<Value>,
    pub origin: Option<AskOrigin>,
    /// The ask tool, or for an approval the host tool it guards.
    pub tool_name: String,
    /// Whether this is the ask the conversation waits on (then it can be answered).
    pub waiting: bool,
    /// The link a waiting URL-mode elicitation opens when the user goes on.
    pub link: Option<String>,
    /// When the waiting ask expires.
    pub expires_at: Option<String>,
    /// When an expired ask ended.
    pub expired_at: Option<String>,
    /// A waiting approval that offers grants (allow in this conversation, always allow).
    pub grantable: bool,
    /// The MCP server of a waiting elicitation or MCP tool's approval.
    pub server: Option<String>,
    /// The host a waiting URL-mode elicitation's link opens.
    pub link_host: Option<String>,
    /// A waiting approval's call arguments, every one.
    pub arguments: Option<Vec<CallArgument>>,
    /// A waiting approval's: what the call will do, as its tool's check found.
    pub impact: Option<Impact>,
    /// A waiting MCP tool's approval: how its server describes the tool.
    pub tool_hints: Option<ToolHints>,
    /// A waiting approval routed to someone else: its owner cannot answer it.
    pub routed: Option<RoutedApproval>,
    /// A waiting argument form's field patterns.
    pub field_patterns: Vec<FieldPattern>,
    /// The title of the host tool a waiting approval or argument form is for.
    pub tool_title: Option<String>,
    /// Until when its answer can be changed: only the answer the view says can be.
    pub change_until: Option<String>,
    /// A waiting MCP server's question its app may draw.
    pub app: Option<AppAsk>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TranscriptItem {
    User {
        text: String,
        attachments: Vec<Attachment>,
        /// The MCP server whose app sent it for the person.
        from_app: Option<String>,
        /// Its index among the conversation's rows (what an edit or a version names).
        row: usize,
        /// When it was sent.
        at: Option<String>,
        /// Its versions, when an edit or a regenerate kept some.
        branches: Option<Branches>,
    },
    /// A reply: markdown, or a block document with its check.
    Assistant {
        text: String,
        blocks: Option<Box<ShownCheck>>,
        /// Cut off before it finished.
        interrupted: bool,
        /// Its index among the conversation's rows (what a rating names), and its rating.
        row: usize,
        rating: Option<Rating>,
        /// When it was stored.
        at: Option<String>,
    },
    Tool {
        tool_call_id: String,
        tool_name: String,
        args: Value,
        result: Option<Value>,
        /// A guarded call a grant let run without a card.
        allowed_by: Option<AllowedBy>,
    },
    Ask(Box<AskItem>),
}

pub fn transcript(view: &HistoryView) -> Vec<TranscriptItem> {
    let pending = view.pending_ask.as_ref().map(|pending| &pending.ask);
    let changeable = view.changeable_answer.as_ref();
    let mut items: Vec<TranscriptItem> = Vec::new();
    // A window's rows are named by their index among all the conversation's rows.
    let first_row = view.window.map_or(0, |window| window.first_row);
    for (at, row) in view.rows.iter().enumerate() {
        let index = first_row + at;
        match row {
            HistoryRow::User { text, attachments, from_app } => items.push(TranscriptItem::User {
                text: text.clone(),
                attachments: attachments.clone(),
                from_app: from_app.clone(),
                row: index,
                at: view.row_times.get(at).cloned(),
                branches: view.branches.get(&index).copied(),
            }),
            HistoryRow::Assistant { text, blocks, interrupted, .. } => items.push(TranscriptItem::Assistant {
                text: text.clone(),
                blocks: blocks.clone(),
                interrupted: *interrupted,
                row: index,
                rating: view.ratings.get(&index).copied(),
                at: view.row_times.get(at).cloned(),
            }),
            HistoryRow::ToolCall { tool_name, tool_call_id, args, ask: Some(ask), .. } => {
                // What only the ask the conversation waits on carries.
                let waiting =
                    pending.filter(|pending| ask.status == AskStatus::Pending && pending.tool_call_id == *tool_call_id);
                items.push(TranscriptItem::Ask(Box::new(AskItem {
                    tool_call_id: tool_call_id.clone(),
                    kind: ask.kind,
                    input: args.clone(),
                    status: ask.status,
                    response: None,
                    origin: ask.origin,
                    tool_name: tool_name.clone(),
                    waiting: waiting.is_some(),
                    link: waiting.and_then(|pending| pending.url.clone()),
                    expires_at: waiting.and_then(|pending| pending.expires_at.clone()),
                    expired_at: ask.expired_at.clone(),
                    grantable: waiting.is_some_and(|pending| pending.grantable),
                    server: waiting.and_then(|pending| pending.server.clone()),
                    link_host: waiting.and_then(|pending| pending.link_host.clone()),
                    arguments: waiting.and_then(|pending| pending.arguments.clone()),
                    impact: waiting.and_then(|pending| pending.impact.clone()),
                    tool_hints: waiting.and_then(|pending| pending.tool_hints),
                    routed: waiting.and_then(|pending| pending.routed.clone()),
                    field_patterns: waiting.map(|pending| pending.field_patterns.clone()).unwrap_or_default(),
                    tool_title: waiting.and_then(|pending| pending.tool_title.clone()),
                    app: waiting.and_then(|pending| pending.app.clone()),
                    change_until: changeable
                        .filter(|answer| answer.tool_call_id == *tool_call_id)
                        .map(|answer| answer.until.clone()),
                })))
            }
            HistoryRow::ToolCall { tool_name, tool_call_id, args, ask: None, allowed_by, .. } => {
                items.push(TranscriptItem::Tool {
                    tool_call_id: tool_call_id.clone(),
                    tool_name: tool_name.clone(),
                    args: args.clone(),
                    result: None,
                    allowed_by: allowed_by.clone(),
                })
            }
            HistoryRow::ToolResult { tool_call_id, result, .. } => {
                for item in items.iter_mut().rev() {
                    match item {
                        TranscriptItem::Ask(ask) if &ask.tool_call_id == tool_call_id => {
                            ask.response = Some(result.clone());
                            break;
                        }
                        TranscriptItem::Tool { tool_call_id: id, result: slot, .. } if id == tool_call_id => {
                            *slot = Some(result.clone());
                            break;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::conversation::model::RowAsk;

    #[test]
    fn joins_answers_to_their_asks_and_results_to_their_tools() {
        let rows = vec![
            HistoryRow::User { text: "hi".into(), attachments: Vec::new(), from_app: None },
            HistoryRow::ToolCall {
                tool_name: "listTodos".into(),
                tool_call_id: "t1".into(),
                args: json!({}),
                ask: None,
                allowed_by: None,
                model_call_id: None,
                client_tool: false,
            },
            HistoryRow::ToolResult {
                tool_name: "listTodos".into(),
                tool_call_id: "t1".into(),
                result: json!({"todos": []}),
                model_call_id: None,
            },
            HistoryRow::ToolCall {
                tool_name: "ask_choice".into(),
                tool_call_id: "c1".into(),
                args: json!({"prompt": "p"}),
                ask: Some(RowAsk {
                    kind: AskKind::Choice,
                    status: AskStatus::Answered,
                    origin: None,
                    expired_at: None,
                }),
                allowed_by: None,
                model_call_id: None,
                client_tool: false,
            },
            HistoryRow::ToolResult {
                tool_name: "ask_choice".into(),
                tool_call_id: "c1".into(),
                result: json!({"action": "decline"}),
                model_call_id: None,
            },
        ];
        let view = HistoryView { id: "h".into(), rows, ..Default::default() };
        let items = transcript(&view);
        assert_eq!(items.len(), 3);
        assert!(matches!(&items[1], TranscriptItem::Tool { result: Some(_), .. }));
        assert!(
            matches!(&items[2], TranscriptItem::Ask(ask) if ask.response == Some(json!({"action": "decline"})) && !ask.waiting)
        );
    }
}
