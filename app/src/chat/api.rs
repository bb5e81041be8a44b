//! Server functions the chat page calls.

use leptos::prelude::*;

use super::model::{HistorySummary, HistoryView};
use crate::error::AppError;

#[server(prefix = "/api", endpoint = "list_histories")]
pub async fn list_histories() -> Result<Vec<HistorySummary>, AppError> {
    let state = crate::state::app_state()?;
    super::db::list_histories(&state.pool).await
}

#[server(prefix = "/api", endpoint = "get_history")]
pub async fn get_history(id: String) -> Result<HistoryView, AppError> {
    let state = crate::state::app_state()?;
    super::db::load_history(&state.pool, &id).await?.ok_or_else(|| AppError::NotFound("History not found".into()))
}
