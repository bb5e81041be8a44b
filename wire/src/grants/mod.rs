//! Approval grants, stored per user: made with an approval, they let later calls of its tool
//! run without a card while every argument matches the grant's patterns (`pattern`), within
//! its scope (this turn, this conversation, always) and until its lifetime runs out (the
//! transcript says which grant ran them). The user edits or revokes them in Settings; either
//! takes effect on the next call. A destructive approval, or a tool that never offers grants,
//! offers none.

pub mod pattern;

use serde::{Deserialize, Serialize};

pub use pattern::{ArgumentKind, ArgumentPattern, ArgumentPatterns, covers_call, patterns_words};

/// The lifetimes a card offers, in seconds, with their words.
pub const LIFETIMES: [(u32, &str); 3] = [(600, "10 minutes"), (3_600, "1 hour"), (86_400, "1 day")];

/// The shortest and the longest lifetime a grant may be given (a minute, thirty days).
pub const LIFETIME_SECONDS: std::ops::RangeInclusive<u32> = 60..=2_592_000;

/// How far a grant reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum GrantScope {
    /// Calls in the rest of the turn the approval was given in: it ends when the turn's reply
    /// is done (or stopped, or failed).
    Turn,
    /// Calls in the conversation the approval was given in.
    Conversation,
    /// Calls in every conversation of the user.
    Always,
}

impl GrantScope {
    pub fn as_str(self) -> &'static str {
        match self {
            GrantScope::Turn => "turn",
            GrantScope::Conversation => "conversation",
            GrantScope::Always => "always",
        }
    }

    pub fn parse(scope: &str) -> Option<Self> {
        [GrantScope::Turn, GrantScope::Conversation, GrantScope::Always]
            .into_iter()
            .find(|known| known.as_str() == scope)
    }

    /// How the transcript names a call the grant ran.
    pub fn words(self) -> &'static str {
        match self {
            GrantScope::Turn => "allowed for this turn",
            GrantScope::Conversation => "allowed in this conversation",
            GrantScope::Always => "always allowed",
        }
    }

    /// Where the grant holds, as a card or Settings says it.
    pub fn reach_words(self) -> &'static str {
        match self {
            GrantScope::Turn => "for the rest of this turn",
            GrantScope::Conversation => "in this conversation",
            GrantScope::Always => "in every conversation",
        }
    }
}

/// The grant that let a guarded call run without a card, as the call's row keeps it: its scope
/// alone (a grant of any arguments), or with what it covers of each argument.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AllowedBy {
    Scope(GrantScope),
    Patterns { scope: GrantScope, arguments: ArgumentPatterns },
}

impl AllowedBy {
    pub fn new(scope: GrantScope, arguments: Option<ArgumentPatterns>) -> Self {
        match arguments {
            Some(arguments) => AllowedBy::Patterns { scope, arguments },
            None => AllowedBy::Scope(scope),
        }
    }

    /// How the transcript says which grant ran the call: "allowed in this conversation (path
    /// in data/ or below)".
    pub fn words(&self) -> String {
        match self {
            AllowedBy::Scope(scope) => scope.words().into(),
            AllowedBy::Patterns { scope, arguments } => format!("{} ({})", scope.words(), patterns_words(arguments)),
        }
    }
}

/// A grant as an approval's answer asks for it (`grant` beside the answer): its scope, and
/// optionally its lifetime and what it covers of each argument (left out: any arguments).
/// `grant: "conversation"` is the same as `grant: {"scope": "conversation"}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GrantRequest {
    pub scope: GrantScope,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifetime_seconds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgumentPatterns>,
}

impl GrantRequest {
    /// What the grant will cover, in words: "write_file with path in data/shared/ or below, in
    /// this conversation, for 1 hour".
    pub fn words(&self, tool: &str) -> String {
        let arguments = self.arguments.as_ref().map_or_else(|| "any arguments".into(), patterns_words);
        let lasting = self.lifetime_seconds.map_or_else(|| "until you revoke it".into(), lifetime_words);
        format!("{tool} with {arguments}, {}, {lasting}", self.scope.reach_words())
    }
}

/// A lifetime in words: "for 1 hour", "for 90 minutes".
pub fn lifetime_words(seconds: u32) -> String {
    if let Some((_, words)) = LIFETIMES.iter().find(|(offered, _)| *offered == seconds) {
        return format!("for {words}");
    }
    match seconds {
        seconds if seconds % 86_400 == 0 => format!("for {} days", seconds / 86_400),
        seconds if seconds % 3_600 == 0 => format!("for {} hours", seconds / 3_600),
        seconds if seconds % 60 == 0 => format!("for {} minutes", seconds / 60),
        seconds => format!("for {seconds} seconds"),
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
    /// What it covers of each argument; `None`: any arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<ArgumentPatterns>,
    /// When it stops covering; `None`: when it is revoked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// How many calls it has run.
    pub uses: u32,
    pub created: String,
}
