//! The parts of a turn's stream events (`TurnEvent` in `model`): the tool calls, results and
//! statuses, the ask resolved or being written, the stream attached.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use palaver_contract::asks::AskKind;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskResolvedEvent {
    pub tool_call_id: String,
    pub action: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallEvent {
    pub tool_call_id: String,
    pub tool_name: String,
    pub args: Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolStatusEvent {
    pub tool_call_id: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultEvent {
    pub tool_call_id: String,
    pub tool_name: String,
    pub result: Value,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingAskRef {
    pub tool_call_id: String,
}

/// An ask while the model still writes it: its arguments so far, for a card shown inert and
/// marked as being prepared; or `withdrawn` when the finished ask was not made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskPreviewEvent {
    pub tool_call_id: String,
    pub kind: AskKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// A call of a host tool with an MCP App while the model still writes it (Palaver's addition):
/// its arguments so far, read as far as they go, for the app's `tool-input-partial`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolInputPartialEvent {
    pub tool_call_id: String,
    pub tool_name: String,
    pub arguments: Value,
}

/// The first event of a stream attached to a running turn (`GET /gpt/histories/{id}/stream`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachedEvent {
    /// The message the turn answers, when it answers one (not an ask's answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
}
