//! Server functions the chat page calls.

use leptos::prelude::*;

use super::model::{HistorySummary, HistoryView};
use crate::error::AppError;

#[server(prefix = "/api", endpoint = "list_histories")]
pub async fn list_histories() -> Result<Vec<HistorySummary>, AppError> {
    let (state, caller) = crate::accounts::api::server_caller().await?;
    crate::accounts::api::with_status(super::db::list_histories(&state.pool, &caller.user.id).await)
}

#[server(prefix = "/api", endpoint = "get_history")]
pub async fn get_history(id: String) -> Result<HistoryView, AppError> {
    use super::access::{HISTORY_NOT_FOUND, HistoryAccess, authorize_history};
    let (state, caller) = crate::accounts::api::server_caller().await?;
    crate::accounts::api::with_status(
        async {
            authorize_history(&state.pool, &caller, &id, HistoryAccess::Read).await?;
            state.turns.history_view(&id).await?.ok_or_else(|| AppError::NotFound(HISTORY_NOT_FOUND.into()))
        }
        .await,
    )
}

/// Starts an empty conversation for the caller (the chat creates one before its first message,
/// so it always knows which conversation a running turn belongs to).
#[server(prefix = "/api", endpoint = "create_conversation")]
pub async fn create_conversation() -> Result<String, AppError> {
    let (state, caller) = crate::accounts::api::server_caller().await?;
    crate::accounts::api::with_status(super::db::create_history(&state.pool, &caller.user.id).await)
}

/// Stops the turn running on a conversation: the model is not called again, what it produced
/// is kept. Returns whether a turn was running.
#[server(prefix = "/api", endpoint = "stop_turn")]
pub async fn stop_turn(id: String) -> Result<bool, AppError> {
    use super::access::{HistoryAccess, authorize_history};
    let (state, caller) = crate::accounts::api::server_caller().await?;
    crate::accounts::api::with_status(authorize_history(&state.pool, &caller, &id, HistoryAccess::Write).await)?;
    Ok(state.turns.stop(&id))
}
