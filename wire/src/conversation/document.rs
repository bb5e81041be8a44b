//! A conversation as the reference's history routes serve it (`GET /gpt/histories/{id}`, the
//! list, create and update): its rows as `prompts` in their stored shapes, `_id` beside `id`,
//! and unset fields left out. Palaver's own fields (`model`, `running`, a message's `branches`) come
//! on top.

use serde::{Deserialize, Serialize};

use super::model::{AskOrigin, Branches, HistoryRow, HistoryView, PendingAskView, Rating};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryDocument {
    /// The id again, under the name the reference's documents carry it.
    #[serde(rename = "_id")]
    pub document_id: String,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub prompts: Vec<PromptRow>,
    /// Written by turns only: create and update bodies leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(read_only))]
    pub pending_ask: Option<DocumentPendingAsk>,
    pub created: String,
    pub updated: String,
    /// The model it runs on (Palaver's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// A turn ran on it when it was read (Palaver's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running: bool,
}

/// A row in its stored shape: tool rows carry the reference's `text` line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PromptRow {
    #[serde(flatten)]
    pub row: HistoryRow,
    /// `Tool call: <name>` or `Tool result: <name>` (user and assistant rows have their own).
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
    /// On a message with versions (Palaver's): which is shown, of how many.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branches: Option<Branches>,
}

impl PromptRow {
    fn new(row: HistoryRow, rating: Option<Rating>, branches: Option<Branches>) -> Self {
        let text = match &row {
            HistoryRow::ToolCall { tool_name, .. } => Some(format!("Tool call: {tool_name}")),
            HistoryRow::ToolResult { tool_name, .. } => Some(format!("Tool result: {tool_name}")),
            HistoryRow::User { .. } | HistoryRow::Assistant { .. } => None,
        };
        PromptRow { row, text, rating, branches }
    }
}

/// The pending ask as the document holds it: an approval's also names its `approvalId`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DocumentPendingAsk {
    #[serde(flatten)]
    pub view: PendingAskView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_id: Option<String>,
}

impl From<HistoryView> for HistoryDocument {
    fn from(view: HistoryView) -> Self {
        let pending_ask = view.pending_ask.map(|view| {
            let approval = view.ask.origin == Some(AskOrigin::Approval);
            DocumentPendingAsk { approval_id: approval.then(|| view.ask.tool_call_id.clone()), view }
        });
        HistoryDocument {
            document_id: view.id.clone(),
            id: view.id,
            user_id: view.user_id,
            title: view.title,
            prompts: view
                .rows
                .into_iter()
                .enumerate()
                .map(|(index, row)| {
                    PromptRow::new(row, view.ratings.get(&index).copied(), view.branches.get(&index).copied())
                })
                .collect(),
            pending_ask,
            created: view.created,
            updated: view.updated,
            model: view.model,
            running: view.running,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_document_has_the_references_shape() {
        let view = HistoryView {
            id: "h1".into(),
            user_id: Some("u1".into()),
            created: "2026-12-01T00:00:00.000Z".into(),
            updated: "2026-12-01T00:00:01.000Z".into(),
            rows: vec![
                HistoryRow::User { text: "Tidy up".into(), attachments: Vec::new(), from_app: None },
                HistoryRow::ToolCall {
                    tool_name: "listTodos".into(),
                    tool_call_id: "c1".into(),
                    args: json!({}),
                    ask: None,
                    allowed_by: None,
                    model_call_id: None,
                    client_tool: false,
                },
                HistoryRow::ToolResult {
                    tool_name: "listTodos".into(),
                    tool_call_id: "c1".into(),
                    result: json!([]),
                    model_call_id: None,
                },
            ],
            ..Default::default()
        };
        let document = serde_json::to_value(HistoryDocument::from(view)).unwrap();
        assert_eq!(
            document,
            json!({
                "_id": "h1", "id": "h1", "userId": "u1",
                "created": "2026-12-01T00:00:00.000Z", "updated": "2026-12-01T00:00:01.000Z",
                "prompts": [
                    {"type": "user", "text": "Tidy up"},
                    {"type": "tool-call", "toolName": "listTodos", "toolCallId": "c1", "args": {}, "text": "Tool call: listTodos"},
                    {"type": "tool-result", "toolName": "listTodos", "toolCallId": "c1", "result": [], "text": "Tool result: listTodos"}
                ]
            })
        );
        let read: HistoryDocument = serde_json::from_value(document).unwrap();
        assert!(matches!(&read.prompts[1].row, HistoryRow::ToolCall { tool_name, .. } if tool_name == "listTodos"));
    }
}
