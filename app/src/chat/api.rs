//! Server functions the chat page calls; each is the chat service behind the caller check.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{Reported, server_caller};
use palaver_wire::body::ModelOption;
use palaver_wire::conversation::model::{HistorySummary, HistoryView};
#[cfg(feature = "ssr")]
use palaver_wire::conversation::page::PageRequest;
#[cfg(feature = "ssr")]
use palaver_wire::conversation::window::RowsWanted;
use palaver_wire::error::AppError;

/// A page of the caller's conversations, most recently active first: `limit` of them (50 when
/// left out, at most 200) after the `before` cursor (`PageCursor::encode`); with `search`, those
/// whose title or messages hold it. A page shorter than `limit` is the last.
#[server(prefix = "/api", endpoint = "list_histories")]
pub async fn list_histories(
    #[server(default)] search: Option<String>,
    #[server(default)] before: Option<String>,
    #[server(default)] limit: Option<u32>,
) -> Result<Vec<HistorySummary>, AppError> {
    let (state, caller) = server_caller().await?;
    let page = PageRequest::new(limit, before.as_deref()).map_err(AppError::BadRequest)?;
    state.conversations.list_page(&caller, search.as_deref(), false, &page).await.map(|page| page.data).reported()
}

/// A window of a conversation (`RowsWanted`): its newest rows; with `before` (a window's
/// `earlier`), the rows before that window; with `from` (a window's `latest`), its last exchange
/// again and every row after it.
#[server(prefix = "/api", endpoint = "get_history")]
pub async fn get_history(
    id: String,
    #[server(default)] before: Option<i64>,
    #[server(default)] from: Option<i64>,
) -> Result<HistoryView, AppError> {
    let (state, caller) = server_caller().await?;
    let wanted = RowsWanted::new(before, from).map_err(AppError::BadRequest)?;
    let mut view = state.conversations.read_window(&caller, &id, wanted).await.reported()?;
    // The chat offers to change the answer it may (Palaver's own view: the API's stays the reference's).
    view.changeable_answer = state.turns.changeable_answer(&caller, &id).await.reported()?;
    Ok(view)
}

/// Starts an empty conversation for the caller, on `model` or the default (the chat creates
/// one before its first message, so it always knows which conversation a running turn
/// belongs to).
#[server(prefix = "/api", endpoint = "create_conversation")]
pub async fn create_conversation(#[server(default)] model: Option<String>) -> Result<String, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.create(&caller, model.as_deref()).await.map(|history| history.id).reported()
}

#[server(prefix = "/api", endpoint = "rename_conversation")]
pub async fn rename_conversation(id: String, title: String) -> Result<HistorySummary, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.rename(&caller, &id, &title).await.reported()
}

/// The models a conversation may run on, the default first.
#[server(prefix = "/api", endpoint = "list_models")]
pub async fn list_models() -> Result<Vec<ModelOption>, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.model_options(&caller).await.reported()
}

/// Chooses the model a conversation runs on from its next turn.
#[server(prefix = "/api", endpoint = "choose_model")]
pub async fn choose_model(id: String, model: String) -> Result<HistorySummary, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.choose_model(&caller, &id, &model).await.reported()
}

#[server(prefix = "/api", endpoint = "delete_conversation")]
pub async fn delete_conversation(id: String) -> Result<(), AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.delete(&caller, &id).await.reported()
}

/// Stops the turns running on a conversation, or with `stream` (a stream id, as the turn's
/// event ids carry it) only that one: the model is not called again, what it produced is
/// kept. Returns whether a turn was running.
#[server(prefix = "/api", endpoint = "stop_turn")]
pub async fn stop_turn(id: String, #[server(default)] stream: Option<String>) -> Result<bool, AppError> {
    let (state, caller) = server_caller().await?;
    state.conversations.stop(&caller, &id, stream.as_deref()).await.reported()
}
