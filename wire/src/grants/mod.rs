//! Approval grants: "Allow in this conversation" and "Always allow <tool>", stored per user.
//! A grant lets later calls of its tool run without a card (the transcript says which grant
//! ran them) until the user revokes it in Settings; revoking takes effect on the next call. A
//! destructive approval, or a tool whose rule says every call must be approved, offers none.

use serde::{Deserialize, Serialize};

/// How far a grant reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GrantScope {
    /// Calls in the conversation the approval was given in.
    Conversation,
    /// Calls in every conversation of the user.
    Always,
}

impl GrantScope {
    pub fn as_str(self) -> &'static str {
        match self {
            GrantScope::Conversation => "conversation",
            GrantScope::Always => "always",
        }
    }

    pub fn parse(scope: &str) -> Option<Self> {
        [GrantScope::Conversation, GrantScope::Always].into_iter().find(|known| known.as_str() == scope)
    }

    /// How the transcript names a call the grant ran.
    pub fn words(self) -> &'static str {
        match self {
            GrantScope::Conversation => "allowed in this conversation",
            GrantScope::Always => "always allowed",
        }
    }
}

/// A live grant, as Settings lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grant {
    pub id: String,
    pub tool_name: String,
    pub scope: GrantScope,
    /// The conversation a `conversation` grant holds in, and its title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_title: Option<String>,
    pub created: String,
}
