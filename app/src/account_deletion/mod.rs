//! A user deletes their account and everything it owns: conversations and their messages,
//! files (index and bytes), grants, tokens, sessions, audit entries and the request log. It
//! sits above accounts, chat and uploads because it reaches into all three.

pub mod api;
mod components;
#[cfg(feature = "ssr")]
mod service;
#[cfg(feature = "ssr")]
mod store;

use serde::{Deserialize, Serialize};

pub use components::DeleteAccountSection;

/// What a deletion removed, as the API reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ssr", derive(utoipa::ToSchema))]
pub struct DeletedAccount {
    pub deleted: bool,
    pub conversations: u64,
    pub files: u64,
}

#[cfg(feature = "ssr")]
pub use service::delete_account;
