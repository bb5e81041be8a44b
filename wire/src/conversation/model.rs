//! Wire types of conversations, shared by the server and the browser.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::body::{CallArgument, GuardedCall};
use palaver_contract::asks::{AskKind, FieldPattern, SimpleCard};
use palaver_contract::blocks::ShownCheck;

// A conversation's name and title rules have a file of their own; they are named here too,
// where both sides import a conversation's types.
pub use super::naming::{SET_TITLE_MAX_LENGTH, TITLE_MAX_LENGTH, check_title, conversation_name, words_title};
// So are the parts of a turn's events.
pub use super::turn_parts::{
    AskPreviewEvent, AskResolvedEvent, AttachedEvent, PendingAskRef, ToolCallEvent, ToolInputPartialEvent,
    ToolResultEvent, ToolStatusEvent,
};

/// A conversation in the list (the spec calls conversations histories).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistorySummary {
    pub id: String,
    pub title: Option<String>,
    pub created: String,
    pub updated: String,
    /// The first message's words, which the list shows until the first reply names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_message: Option<String>,
    /// A search result's: the words around where one of its messages matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub snippet: Option<super::snippet::Snippet>,
    /// How its owner keeps it: pinned, archived, shared by a link (each left out when not).
    #[serde(flatten)]
    pub shelf: super::shelf::Shelf,
}

impl HistorySummary {
    /// What the list calls it (`conversation_name`).
    pub fn label(&self) -> String {
        conversation_name(self.title.as_deref(), self.first_message.as_deref())
    }
}

/// Where an ask came from: the model (no origin), the server guarding a host tool, or a
/// running tool's own question (an MCP server's elicitation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AskOrigin {
    Approval,
    Elicitation,
    /// The values a step's tool calls need from the person (see `turn::arguments`).
    Arguments,
}

impl AskOrigin {
    pub fn as_str(self) -> &'static str {
        match self {
            AskOrigin::Approval => "approval",
            AskOrigin::Elicitation => "elicitation",
            AskOrigin::Arguments => "arguments",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AskStatus {
    Pending,
    Answered,
    Cancelled,
    /// Nobody answered before `expiresAt`: ended by time, never answered by it.
    Expired,
}

impl AskStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AskStatus::Pending => "pending",
            AskStatus::Answered => "answered",
            AskStatus::Cancelled => "cancelled",
            AskStatus::Expired => "expired",
        }
    }
}

/// A person's rating of a row (the reference's `prompts[i].rating`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Rating {
    Up,
    Down,
}

impl Rating {
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Up => "up",
            Rating::Down => "down",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "up" => Some(Rating::Up),
            "down" => Some(Rating::Down),
            _ => None,
        }
    }
}

/// The ask marker of an ask's `tool-call` row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RowAsk {
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_kind))]
    pub kind: AskKind,
    pub status: AskStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<AskOrigin>,
    /// When an `expired` ask ended.
    #[serde(default, rename = "expiredAt", skip_serializing_if = "Option::is_none")]
    pub expired_at: Option<String>,
}

/// A file sent with a message: an upload of its sender.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Attachment {
    pub file_id: String,
    pub filename: String,
    pub mime_type: String,
    pub size: u64,
}

impl Attachment {
    /// How the model hears of it once its bytes are no longer sent: name, type and size.
    pub fn describe(&self) -> String {
        format!("{} ({}, {} bytes)", self.filename, self.mime_type, self.size)
    }
}

/// One stored row of a conversation, in the order the conversation happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum HistoryRow {
    User {
        text: String,
        /// Files sent with the message (uploads of its sender), by name and type.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<Attachment>,
        /// The MCP server whose app sent the message for the person (`ui/message`).
        #[serde(default, rename = "fromApp", skip_serializing_if = "Option::is_none")]
        from_app: Option<String>,
    },
    Assistant {
        text: String,
        /// The text is a block document (stored rows say so; views add its check).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        document: bool,
        /// A document that did not validate: its error lines as the model was told of them
        /// (`- <path> <code> <message>`), kept out of the text; the replay adds them back.
        #[serde(default, rename = "blockErrors", skip_serializing_if = "String::is_empty")]
        block_errors: String,
        /// Cut off before it finished (the process stopped, or the length cap). Shown with a
        /// Retry, and told to the model on the next turn.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        interrupted: bool,
        /// How the document checked, in views only (never stored).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
        blocks: Option<Box<ShownCheck>>,
        /// The model that wrote it (rows stored before models were recorded have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    ToolCall {
        tool_name: String,
        tool_call_id: String,
        args: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ask: Option<RowAsk>,
        /// A guarded call that ran without a card: the grant that allowed it.
        #[serde(default, rename = "allowedBy", skip_serializing_if = "Option::is_none")]
        allowed_by: Option<crate::grants::AllowedBy>,
        /// An ask's call: the id the model gave it (`toolCallId` is the one Palaver minted).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_call_id: Option<String>,
        /// A call of a tool the client offered (an AG-UI app's): the app runs it, and its
        /// result row comes when the app sends the result.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        client_tool: bool,
    },
    #[serde(rename_all = "camelCase")]
    ToolResult {
        tool_name: String,
        tool_call_id: String,
        result: Value,
        /// An ask's answer: the id of the model's call it answers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_call_id: Option<String>,
    },
}

impl HistoryRow {
    pub fn row_type(&self) -> &'static str {
        match self {
            HistoryRow::User { .. } => "user",
            HistoryRow::Assistant { .. } => "assistant",
            HistoryRow::ToolCall { .. } => "tool-call",
            HistoryRow::ToolResult { .. } => "tool-result",
        }
    }
}

/// The ask a conversation waits on, as clients see it (no replay state).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingAskView {
    #[serde(flatten)]
    pub ask: AskEvent,
    pub created: String,
}

/// A conversation with its rows, as the chat shows it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryView {
    pub id: String,
    /// Its owner (none for a conversation kept after its owner's account went).
    #[serde(default)]
    pub user_id: Option<String>,
    pub title: Option<String>,
    #[serde(default)]
    pub created: String,
    #[serde(default)]
    pub updated: String,
    /// The model it runs on (its own choice, or the server's default).
    #[serde(default)]
    pub model: Option<String>,
    pub rows: Vec<HistoryRow>,
    /// When each row was stored (ISO 8601, UTC), by its index in `rows`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub row_times: Vec<String>,
    /// The rated rows, by their index in `rows`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub ratings: std::collections::BTreeMap<usize, Rating>,
    /// Where the rows shown are one of several versions (a message edited, a reply
    /// regenerated), by the index in `rows` of the message each begins with.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub branches: std::collections::BTreeMap<usize, Branches>,
    #[serde(default)]
    pub pending_ask: Option<PendingAskView>,
    /// The answer its owner may still change (Palaver's addition, only in the chat's view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changeable_answer: Option<super::answer_change::ChangeableAnswer>,
    /// A turn ran on it when it was read (its reply is not saved yet).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub running: bool,
    /// The model is sent a summary of the rows before this index instead of the rows (they
    /// no longer fit its context budget). Palaver's addition, only in the chat's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summarised_before: Option<usize>,
    /// Where these rows sit when they are a window of the conversation (the rows before are
    /// read as the person scrolls up). Palaver's addition, only in the chat's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<super::window::RowWindow>,
}

/// The versions at one point of a conversation: which is shown (from 0) and how many there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Branches {
    pub shown: usize,
    pub count: usize,
}

impl HistoryView {
    /// Its name (`conversation_name`).
    pub fn name(&self) -> String {
        let first_message = self.rows.iter().find_map(|row| match row {
            HistoryRow::User { text, .. } => Some(text.as_str()),
            _ => None,
        });
        conversation_name(self.title.as_deref(), first_message)
    }
}

/// The `{ask}` event's ask.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AskEvent {
    pub tool_call_id: String,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_kind))]
    pub kind: AskKind,
    pub input: Value,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::simple_card))]
    pub simple: SimpleCard,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<AskOrigin>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// That host tool's title, when it has one (an MCP tool's); a person reads the tool by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_title: Option<String>,
    /// The MCP server that asks (an elicitation) or whose tool an approval guards.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The link a URL-mode elicitation opens when the user taps to go on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The host of that link, as Palaver read it; the card shows it as Palaver's own line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_host: Option<String>,
    /// An approval's: every argument of the call it guards (see [`GuardedCall`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<CallArgument>>,
    /// An approval's: the id of the call it guards, streamed before it as a `toolCall`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guarded_call_id: Option<String>,
    /// When the ask ends as `expired` if nobody answers it (set when it is stored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    /// An argument form's: the patterns some of its text fields must match (the tool's
    /// schema's), for a client to check before it sends; the server checks them too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::field_patterns))]
    pub field_patterns: Vec<FieldPattern>,
    /// An approval the user may turn into a grant (`grant` beside the answer): neither
    /// destructive nor of a tool whose every call must be approved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grantable: bool,
    /// An approval's: what its host tool's check found the call will do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<crate::impact::Impact>,
    /// An MCP tool's approval: how its server describes the tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_hints: Option<crate::impact::ToolHints>,
    /// An approval an admin routed to someone other than the person who asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub routed: Option<crate::approvers::RoutedApproval>,
    /// An MCP server's question its own MCP App may draw instead of the card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<AppAsk>,
}

/// A question an MCP App draws (Palaver's addition, after ext-apps' draft of app-rendered
/// elicitations): the app's `ui://` resource on the asking server, and the server's
/// `elicitation/create` params, passed to the app unchanged. The app's `ElicitResult` comes
/// back as the answer with `fromApp` (the server's name); Palaver checks it against the
/// requested schema. A client that draws no apps answers the card as any other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppAsk {
    pub resource_uri: String,
    pub params: Value,
}

impl AskEvent {
    /// The language the ask is written in, when it names one.
    pub fn locale(&self) -> Option<String> {
        self.input["locale"].as_str().map(str::to_string)
    }

    /// An approval's call: its tool, server and arguments.
    pub fn guarded_call(&self) -> Option<GuardedCall> {
        if self.origin != Some(AskOrigin::Approval) {
            return None;
        }
        Some(GuardedCall {
            tool_name: self.tool_name.clone()?,
            tool_title: self.tool_title.clone(),
            server: self.server.clone(),
            arguments: self.arguments.clone()?,
        })
    }
}

/// The line Palaver adds under a URL-mode elicitation's message, naming the link's host.
pub fn link_host_line(host: &str) -> String {
    format!("\n\nThe link opens {host}.")
}

impl From<AskEvent> for crate::body::PendingAskBrief {
    fn from(ask: AskEvent) -> Self {
        let (locale, call) = (ask.locale(), ask.guarded_call());
        Self {
            kind: ask.kind,
            simple: ask.simple,
            tool_call_id: ask.tool_call_id,
            expires_at: ask.expires_at,
            locale,
            call,
        }
    }
}

/// One event of a turn, as `POST /gpt/prompt` streams it (`data: {…}`, first with an `id:` for a client that asks). Order,
/// as the reference has it: `askResolved?` → (`text` | `toolCall` | `toolResult` | `error`)* →
/// `ask?` → `replace?` → `blocks?` → `done`; Palaver's additions (`delta`, `retract`,
/// `askPreview`, `toolStatus`, `toolInputPartial`) come between, where a reference client
/// ignores them.
/// A stream attached to a running turn starts with `attached`, then the same events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TurnEvent {
    /// The whole reply text so far, replacing what was streamed (text from a step that ended
    /// in a tool call is taken back this way).
    Replace {
        replace: String,
        text: String,
    },
    /// A step's text, at the step's end: only for a step that made no tool call.
    Text {
        text: String,
    },
    /// Text as the model streams it (Palaver's addition; reference clients ignore it).
    Delta {
        delta: String,
    },
    /// The running step's `{delta}` text is not part of the reply (a tool step's reasoning, or
    /// a step that failed): take it off the screen (Palaver's addition).
    Retract {
        retract: String,
    },
    #[serde(rename_all = "camelCase")]
    ToolCall {
        tool_call: ToolCallEvent,
    },
    #[serde(rename_all = "camelCase")]
    ToolResult {
        tool_result: ToolResultEvent,
    },
    /// What a running host tool call says it is doing (an MCP task's `statusMessage`), as it
    /// changes (Palaver's addition).
    #[serde(rename_all = "camelCase")]
    ToolStatus {
        tool_status: ToolStatusEvent,
    },
    #[serde(rename_all = "camelCase")]
    Ask {
        ask: Box<AskEvent>,
        history_id: String,
    },
    #[serde(rename_all = "camelCase")]
    AskResolved {
        ask_resolved: AskResolvedEvent,
    },
    Error {
        error: String,
    },
    Attached {
        attached: AttachedEvent,
    },
    #[serde(rename_all = "camelCase")]
    AskPreview {
        ask_preview: AskPreviewEvent,
    },
    /// The arguments so far of a call the model is writing, of a host tool with an MCP App.
    #[serde(rename_all = "camelCase")]
    ToolInputPartial {
        tool_input_partial: ToolInputPartialEvent,
    },
    /// How the finished reply checked as a block document (before `done`).
    Blocks {
        blocks: Box<ShownCheck>,
    },
    #[serde(rename_all = "camelCase")]
    Done {
        done: bool,
        history_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pending_ask: Option<PendingAskRef>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_has_one_name_its_title_else_its_first_words() {
        assert_eq!(conversation_name(Some("Send the report"), Some("please send it")), "Send the report");
        assert_eq!(conversation_name(Some("  "), Some("  send   the\nreport  ")), "send the report");
        assert_eq!(conversation_name(None, None), "New conversation");
        let view = HistoryView {
            rows: vec![HistoryRow::User { text: "Plan?".into(), attachments: Vec::new(), from_app: None }],
            ..HistoryView::default()
        };
        assert_eq!(view.name(), "Plan?");
    }

    #[test]
    fn events_have_the_spec_shapes() {
        let done = TurnEvent::Done { done: true, history_id: "h1".into(), title: None, pending_ask: None };
        assert_eq!(serde_json::to_string(&done).unwrap(), r#"{"done":true,"historyId":"h1"}"#);
        let text: TurnEvent = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
        assert_eq!(text, TurnEvent::Text { text: "hi".into() });
        let replace: TurnEvent = serde_json::from_str(r#"{"replace":"text","text":""}"#).unwrap();
        assert!(matches!(replace, TurnEvent::Replace { .. }));
        let resolved: TurnEvent =
            serde_json::from_str(r#"{"askResolved":{"action":"accept","toolCallId":"call_1"}}"#).unwrap();
        assert!(matches!(resolved, TurnEvent::AskResolved { .. }));
        let row = serde_json::to_value(HistoryRow::ToolCall {
            tool_name: "ask_choice".into(),
            tool_call_id: "call_1".into(),
            args: serde_json::json!({}),
            ask: Some(RowAsk { kind: AskKind::Choice, status: AskStatus::Pending, origin: None, expired_at: None }),
            allowed_by: None,
            model_call_id: None,
            client_tool: false,
        })
        .unwrap();
        assert_eq!(
            row,
            serde_json::json!({"type": "tool-call", "toolName": "ask_choice", "toolCallId": "call_1", "args": {},
                               "ask": {"kind": "choice", "status": "pending"}})
        );
    }
}
