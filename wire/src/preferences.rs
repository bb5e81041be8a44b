//! What a person sets for themselves (custom instructions, a default model) and what an admin
//! sets for the server (open sign-up, the models on offer), as Settings and Admin show them.

use serde::{Deserialize, Serialize};

/// The most characters a person's custom instructions may have.
pub const INSTRUCTIONS_MAX_CHARS: usize = 4_000;

/// A person's own settings for their conversations.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserPreferences {
    /// Added to the system prompt of every turn of theirs (none: empty).
    pub instructions: String,
    /// The model a conversation of theirs runs on when it chose none (none: the server's).
    pub default_model: Option<String>,
}

/// One configured model as the admin sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelOffer {
    pub id: String,
    pub label: String,
    /// The server's default, always offered.
    pub default: bool,
    pub offered: bool,
}

/// The server's settings an admin changes at run time (the environment sets where they start).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerSettings {
    /// Anyone may create an account (the first account may always be created).
    pub open_signup: bool,
    pub models: Vec<ModelOffer>,
    /// Tools (by name) whose approvals never offer a grant.
    #[serde(default)]
    pub ungranted_tools: Vec<String>,
    /// Where approvals of given tools go instead of to the person who asked.
    #[serde(default)]
    pub approval_routes: Vec<crate::approvers::ApprovalRoute>,
}
