//! The audit trail of asks: every ending of an ask or an approval — who decided, when, from
//! which surface, what, and for an approval the tool and a digest of the arguments it was
//! asked for — and the automatic endings (expired, superseded by a message, stopped). Each
//! entry is written in the transaction that ends the ask, so there is exactly one per ending.

use serde::{Deserialize, Serialize};

/// Where a decision was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecidedVia {
    /// The chat in a browser.
    Web,
    /// The watch preview (a signed-in browser on the compact surface).
    Watch,
    /// A headless client with an API token.
    Api { token: String },
    /// A notification's button (`POST /push/answer`).
    Push,
    /// A mail's answer link, confirmed on its page (`POST /mail/answer/{token}`).
    Mail,
    /// Palaver itself: an expiry, or a server withdrawing its question.
    Palaver,
}

impl DecidedVia {
    pub fn surface(&self) -> &'static str {
        match self {
            DecidedVia::Web => "web",
            DecidedVia::Watch => "watch",
            DecidedVia::Api { .. } => "api",
            DecidedVia::Push => "push",
            DecidedVia::Mail => "mail",
            DecidedVia::Palaver => "palaver",
        }
    }

    pub fn token(&self) -> Option<&str> {
        match self {
            DecidedVia::Api { token } => Some(token),
            _ => None,
        }
    }
}

/// Who ended an ask: a person (by user id) through a surface, or Palaver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decider {
    pub user_id: Option<String>,
    pub via: DecidedVia,
}

impl Decider {
    pub fn person(user_id: &str, via: DecidedVia) -> Self {
        Self { user_id: Some(user_id.to_string()), via }
    }

    pub fn palaver() -> Self {
        Self { user_id: None, via: DecidedVia::Palaver }
    }
}

/// One entry of the trail, as `GET /gpt/audit` and the pages show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditEntry {
    /// Entries count up; pages go back from `before`.
    pub id: i64,
    pub created: String,
    pub history_id: String,
    /// The conversation's owner (username).
    pub owner: String,
    /// Who decided (username); absent for Palaver's own endings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// `web`, `watch`, `api`, `push` or `palaver`.
    pub surface: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_name: Option<String>,
    pub tool_call_id: String,
    pub kind: String,
    /// `approval` or `elicitation`; absent for the model's own asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// The guarded tool (approvals) or the asking tool (elicitations).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// `accept`, `decline`, `cancel` or `expired`; `reopened` when Palaver undid an answer
    /// whose reply failed, `withdrawn` when the person took an answer back to change it.
    pub decision: String,
    /// For an approval accepted: whether it approved (`true`) or denied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How far an approval reaches (`once`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// SHA-256 of the guarded call's arguments as canonical JSON (approvals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args_digest: Option<String>,
}

/// The decision of an answer its person took back to change it: the ask is pending again.
pub const WITHDRAWN: &str = "withdrawn";

/// The decision of a guarded call a grant of its person's ran without a card (`scope` says
/// which grant).
pub const GRANTED: &str = "granted";

/// A page of the trail, newest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    /// Pass as `before` for the next (older) page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_before: Option<i64>,
}

/// The most entries one page holds.
pub const AUDIT_PAGE_MAX: i64 = 200;
