//! Server functions that keep conversations (pin, archive, share by a link) and read a shared
//! one; each is the conversations service behind the caller check.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{Reported, app_state, server_caller};
use palaver_wire::conversation::model::{HistorySummary, HistoryView};
#[cfg(feature = "ssr")]
use palaver_wire::conversation::page::PageRequest;
use palaver_wire::conversation::share::{ShareLink, ShareStatus};
use palaver_wire::error::AppError;

/// A page of the caller's archived conversations, as `list_histories` pages the others.
#[server(prefix = "/api", endpoint = "list_archived")]
pub async fn list_archived(
    #[server(default)] search: Option<String>,
    #[server(default)] before: Option<String>,
    #[server(default)] limit: Option<u32>,
) -> Result<Vec<HistorySummary>, AppError> {
    let (state, caller) = server_caller().await?;
    let page = PageRequest::new(limit, before.as_deref()).map_err(AppError::BadRequest)?;
    state.conversations.list_page(&caller, search.as_deref(), true, &page).await.map(|page| page.data).reported()
}

/// Pins or archives a conversation (or takes it back); `None` leaves that as it is.
#[server(prefix = "/api", endpoint = "keep_conversation")]
pub async fn keep_conversation(
    id: String,
    #[server(default)] pinned: Option<bool>,
    #[server(default)] archived: Option<bool>,
) -> Result<(), AppError> {
    let (state, caller) = server_caller().await?;
    let change = palaver_core::conversation::shelf::ShelfChange { pinned, archived };
    state.conversations.change_shelf(&caller, &id, change).await.reported()
}

/// Makes a read-only link to a conversation, in place of the one it had.
#[server(prefix = "/api", endpoint = "share_conversation")]
pub async fn share_conversation(id: String) -> Result<ShareLink, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.share(&caller, &id).await.reported()
}

/// Whether a conversation is shared, and since when.
#[server(prefix = "/api", endpoint = "sharing_state")]
pub async fn sharing_state(id: String) -> Result<ShareStatus, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.share_status(&caller, &id).await.reported()
}

/// Revokes a conversation's share link.
#[server(prefix = "/api", endpoint = "stop_sharing")]
pub async fn stop_sharing(id: String) -> Result<(), AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.stop_sharing(&caller, &id).await.map(|_| ()).reported()
}

/// The conversation a share link opens, as the link shows it; no sign-in needed.
#[server(prefix = "/api", endpoint = "shared_conversation")]
pub async fn shared_conversation(token: String) -> Result<HistoryView, AppError> {
    app_state()?.conversations.read_shared(&token).await.reported()
}
