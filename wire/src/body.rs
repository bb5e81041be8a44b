//! Bodies of the JSON API that the browser sends or reads and the server reads or builds: one
//! type each, so neither side writes them by hand. (The ask and block payloads inside them are
//! the contract's; `conversation::model` holds the conversation types and the turn's events.)

use serde::{Deserialize, Serialize};
use serde_json::Value;

use palaver_contract::asks::{AskKind, AskSurface, SimpleCard};
use palaver_contract::blocks::model::Block;

/// `{data}`: the body of every successful API response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Data<T> {
    pub data: T,
}

/// A model the picker offers (`GET /gpt/models`): its id is what a conversation stores.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ModelOption {
    pub id: String,
    pub label: String,
    pub default: bool,
}

/// An answer to the pending ask: the ask's tool call id beside the answer envelope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskAnswer {
    pub tool_call_id: String,
    #[serde(flatten)]
    pub response: Value,
}

/// The response header of `POST /gpt/prompt` that names the turn's stream (our addition): a tab
/// whose turn waits behind another one's has no event yet to read it from, and its Stop names it.
pub const STREAM_ID_HEADER: &str = "palaver-stream-id";

/// The header every request's id travels in: the caller's own, or one the server gives it; the
/// answer carries it back, and JSON answers quote it as `requestId`.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// The request header with which a client of `POST /gpt/prompt` asks for each event's id
/// (`id: <stream>.<n>`, our addition), to attach again from the last one it saw
/// (`GET /gpt/histories/{id}/stream` with `Last-Event-ID`). Without it the stream is `data:`
/// blocks only, as the reference sends it, so a client that keeps only the blocks starting
/// `data: ` sees every event.
pub const EVENT_IDS_HEADER: &str = "palaver-event-ids";

/// `POST /gpt/prompt`: a prompt, or an answer to the pending ask; with `replace_last` (or
/// `replace_from`, a message's index in the rows), the prompt (or, without one, the same
/// message again) replaces the last message (or that one) and what followed it, kept as a
/// version of the conversation, if the conversation still has `seen_rows` rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PromptBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_answer))]
    pub ask_response: Option<AskAnswer>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub replace_last: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace_from: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seen_rows: Option<usize>,
    /// The model the conversation runs on from now on (Palaver's addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Files sent with the prompt (Palaver's addition).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<FileRef>,
    /// The MCP server whose app sends the prompt for the person (`ui/message`), so it is shown as
    /// the app's; with `askResponse`, whose app drew the question and answered it (the answer is
    /// the app's `ElicitResult`, checked against what the server asked). Palaver's addition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_app: Option<String>,
    /// The system prompt for this turn, in place of Palaver's persona line; the asks, blocks and
    /// small-screen sections follow it (reference Q.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_surface))]
    pub surface: Option<AskSurface>,
}

/// An upload, by the id `POST /files/upload` returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FileRef {
    pub file_id: String,
}

/// `POST /gpt/histories/{id}/turn`: a prompt, or a button of the pending ask's simple card.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadlessTurnBody {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub button_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub surface: Option<AskSurface>,
}

/// Palaver's additions to the headless answers' asks (`expiresAt`, `locale`, `call`), sent
/// only to a client that names them in `?include=`: the reference's published schemas close
/// those objects, so a client validating against them must get exactly the reference's keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AskAdditions {
    pub expires_at: bool,
    pub locale: bool,
    pub call: bool,
    pub name: bool,
    pub routed: bool,
    /// A turn's answer names the MCP Apps its calls drew (`apps`), for a client that cannot
    /// draw them.
    pub apps: bool,
}

impl AskAdditions {
    /// The `include` value that asks for every addition.
    pub const ALL: &'static str = "expiresAt,locale,call,name,routed,apps";

    /// `GET /gpt/histories/pendingAsks` with every addition, as the watch and the inbox read it
    /// (they show the time left, the ask's language and what an approval would run).
    pub fn pending_asks_url() -> String {
        format!("/gpt/histories/pendingAsks?include={}", Self::ALL)
    }

    /// Reads `include`: addition names, comma-separated. An unknown name is an error that says
    /// which names there are.
    pub fn parse(include: Option<&str>) -> Result<Self, String> {
        let mut additions = Self::default();
        for name in include.unwrap_or_default().split(',').map(str::trim).filter(|name| !name.is_empty()) {
            match name {
                "expiresAt" => additions.expires_at = true,
                "locale" => additions.locale = true,
                "call" => additions.call = true,
                "name" => additions.name = true,
                "routed" => additions.routed = true,
                "apps" => additions.apps = true,
                other => {
                    return Err(format!(
                        "include names Palaver's additions, comma-separated: expiresAt, locale, call, name, routed, apps (it named \"{other}\")."
                    ));
                }
            }
        }
        Ok(additions)
    }

    pub fn entry(self, entry: PendingAskEntry) -> PendingAskEntry {
        PendingAskEntry {
            expires_at: entry.expires_at.filter(|_| self.expires_at),
            locale: entry.locale.filter(|_| self.locale),
            call: entry.call.filter(|_| self.call),
            name: entry.name.filter(|_| self.name),
            routed: entry.routed.filter(|_| self.routed),
            ..entry
        }
    }

    pub fn brief(self, brief: PendingAskBrief) -> PendingAskBrief {
        PendingAskBrief {
            expires_at: brief.expires_at.filter(|_| self.expires_at),
            locale: brief.locale.filter(|_| self.locale),
            call: brief.call.filter(|_| self.call),
            ..brief
        }
    }
}

/// One entry of `GET /gpt/histories/pendingAsks`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingAskEntry {
    pub created: String,
    pub history_id: String,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_kind))]
    pub kind: AskKind,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::simple_card))]
    pub simple: SimpleCard,
    pub tool_call_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// When the ask ends unanswered (Palaver's addition, with `?include=expiresAt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// The language the ask is written in (Palaver's addition, with `?include=locale`), for the
    /// card's words and direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// For an approval, the call it would run (Palaver's addition, with `?include=call`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<GuardedCall>,
    /// The conversation's name as the chat shows it: its title, else its first message's words
    /// (Palaver's addition, with `?include=name`; `title` stays the stored title, unset until
    /// the first reply names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// For an approval an admin routed to someone else, whom it waits for: its owner cannot
    /// answer it (Palaver's addition, with `?include=routed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routed: Option<crate::approvers::RoutedApproval>,
}

/// The ask a headless turn left pending.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingAskBrief {
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_kind))]
    pub kind: AskKind,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::simple_card))]
    pub simple: SimpleCard,
    pub tool_call_id: String,
    /// As on a pending asks entry: only with `?include=expiresAt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// As on a pending asks entry: only with `?include=locale`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// As on a pending asks entry: only with `?include=call`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<GuardedCall>,
}

/// The host tool call an approval guards, as its card shows it: every argument it was made
/// with, never cut.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GuardedCall {
    /// The tool's name as the model calls it.
    pub tool_name: String,
    /// The tool's title, when it has one (an MCP tool's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_title: Option<String>,
    /// The MCP server the tool is on (Palaver's name for it, from its configuration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    pub arguments: Vec<CallArgument>,
}

/// One argument of a guarded call. The arguments of a call come in the tool schema's order
/// (its `required` names first, as listed, then its other `properties`), then the ones the
/// schema does not name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CallArgument {
    pub key: String,
    pub value: Value,
    /// The tool's input schema does not name this key (its `properties` lack it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside_schema: bool,
    /// The kind of value it takes (its schema's and its name's): which patterns a grant may
    /// use for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::grants::ArgumentKind>,
    /// The values its schema's `enum` lists, for a choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<Value>,
}

/// The `data` of `POST /gpt/histories/{id}/turn`: the whole turn, once it has finished.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TurnResult {
    pub history_id: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_ask: Option<PendingAskBrief>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The MCP servers whose apps the turn's calls drew, in order (with `?include=apps`;
    /// Palaver's addition): a client that cannot draw them can say they are there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apps: Vec<String>,
}

/// `POST /gpt/actions`: a host action a document's block or button called.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HostActionBody {
    pub history_id: String,
    pub name: String,
    #[serde(default)]
    pub payload: Value,
    /// The stepper or checklist that called (built-in actions need it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_id: Option<String>,
}

/// The `data` of `POST /gpt/actions`: the blocks that replace their namesakes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HostActionResult {
    /// Blocks of the block catalog (`blocksDocument.schema.json`).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Object>))]
    pub blocks: Vec<Block>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Where an MCP server's connection stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum McpServerState {
    #[default]
    Connecting,
    Connected,
    /// Not connected; it is tried again after a pause (`lastError` says why).
    Failed,
    /// Palaver is shutting down.
    Stopped,
}

/// One MCP server as the admin page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpServerStatus {
    pub name: String,
    /// `stdio: <command>` or `http: <url>`.
    pub transport: String,
    pub state: McpServerState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// The MCP revision the connection speaks (`2026-07-28`, `2025-11-25`, …), once connected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// `always`, `never` or `unless-read-only`.
    pub approval: String,
    pub tools: Vec<McpToolStatus>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct McpToolStatus {
    /// The tool's name on its server.
    pub name: String,
    /// The name the model calls it by.
    pub model_name: String,
    pub needs_approval: bool,
}

/// The MCP servers Palaver is configured with, and what in the configuration could not be used.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct McpStatus {
    pub servers: Vec<McpServerStatus>,
    pub problems: Vec<String>,
}

/// An approval waiting for the reader on someone else's conversation
/// (`GET /gpt/approvals/waiting`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WaitingApproval {
    pub history_id: String,
    pub tool_call_id: String,
    /// The conversation's name as its owner's chat shows it.
    pub name: String,
    /// Who asked: the conversation's owner.
    pub requester: String,
    /// What the approval asks, in the model's or the tool's words.
    pub prompt: String,
    /// The call it would run: the tool and every argument.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<GuardedCall>,
    /// What its tool's check found the call will do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<crate::impact::Impact>,
    /// How the tool's MCP server describes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_hints: Option<crate::impact::ToolHints>,
    /// The card's buttons (approve and deny), by id.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::simple_card))]
    pub simple: palaver_contract::asks::SimpleCard,
    pub routed: crate::approvers::RoutedApproval,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    pub created: String,
}

/// What an approver's answer did (`POST /gpt/approvals/answer`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApprovalDecision {
    pub history_id: String,
    pub tool_call_id: String,
    /// False when the answer was the first of two approvals: the call waits for a second
    /// approver.
    pub decided: bool,
}

#[cfg(test)]
mod tests {
    use super::AskAdditions;

    #[test]
    fn include_names_the_additions_and_refuses_any_other_name() {
        assert_eq!(AskAdditions::parse(None), Ok(AskAdditions::default()));
        assert_eq!(AskAdditions::parse(Some("")), Ok(AskAdditions::default()));
        assert_eq!(
            AskAdditions::parse(Some(AskAdditions::ALL)),
            Ok(AskAdditions { expires_at: true, locale: true, call: true, name: true, routed: true, apps: true })
        );
        assert_eq!(
            AskAdditions::parse(Some(" locale ,")),
            Ok(AskAdditions { locale: true, ..AskAdditions::default() })
        );
        let refused = AskAdditions::parse(Some("expiresAt,origin")).unwrap_err();
        assert!(
            refused.contains("expiresAt, locale, call, name, routed, apps") && refused.contains("\"origin\""),
            "{refused}"
        );
    }
}
