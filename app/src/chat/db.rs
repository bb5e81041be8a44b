//! Conversation storage in SQLite. Every function takes the pool; none keeps state.

use sqlx::SqlitePool;

use super::model::{HistorySummary, HistoryView};
use crate::error::AppResult;

/// A new random id: 32 lowercase hex digits, time-ordered (UUID v7).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

pub async fn create_history(pool: &SqlitePool, owner_id: &str) -> AppResult<String> {
    let id = new_id();
    sqlx::query("INSERT INTO histories (id, owner_id) VALUES (?1, ?2)").bind(&id).bind(owner_id).execute(pool).await?;
    Ok(id)
}

/// The owner's conversations, most recently active first.
pub async fn list_histories(pool: &SqlitePool, owner_id: &str) -> AppResult<Vec<HistorySummary>> {
    let rows: Vec<(String, Option<String>, String, String)> = sqlx::query_as(
        "SELECT id, title, created_at, updated_at FROM histories
         WHERE owner_id = ?1 AND deleted_at IS NULL ORDER BY updated_at DESC, id DESC",
    )
    .bind(owner_id)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|(id, title, created, updated)| HistorySummary { id, title, created, updated }).collect())
}

pub async fn load_history(pool: &SqlitePool, id: &str) -> AppResult<Option<HistoryView>> {
    let Some((title, pending_ask)): Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT title, pending_ask FROM histories WHERE id = ?1 AND deleted_at IS NULL")
            .bind(id)
            .fetch_optional(pool)
            .await?
    else {
        return Ok(None);
    };
    // The view leaves out the replay state (promptIndex, responseMessages) stored beside it.
    let pending_ask = pending_ask.and_then(|json| match serde_json::from_str(&json) {
        Ok(pending) => Some(pending),
        Err(err) => {
            tracing::error!(%err, history = id, "unreadable pending ask left out of the view");
            None
        }
    });
    let payloads: Vec<(String,)> =
        sqlx::query_as("SELECT payload FROM history_rows WHERE history_id = ?1 ORDER BY seq")
            .bind(id)
            .fetch_all(pool)
            .await?;
    let rows = payloads
        .into_iter()
        .filter_map(|(payload,)| match serde_json::from_str(&payload) {
            Ok(row) => Some(row),
            Err(err) => {
                tracing::error!(%err, history = id, "unreadable history row skipped");
                None
            }
        })
        .collect();
    Ok(Some(HistoryView { id: id.to_string(), title, rows, pending_ask }))
}

/// Sets the title only when the conversation has none yet; returns whether it did.
pub async fn set_title_if_unset(pool: &SqlitePool, history_id: &str, title: &str) -> AppResult<bool> {
    let result = sqlx::query("UPDATE histories SET title = ?1 WHERE id = ?2 AND title IS NULL")
        .bind(title)
        .bind(history_id)
        .execute(pool)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// One model call, as the request log keeps it.
pub struct AiRequestLog<'a> {
    pub history_id: &'a str,
    pub user_id: &'a str,
    pub model: &'a str,
    pub prompt: &'a str,
    pub response: &'a str,
    pub error: Option<&'a str>,
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub latency_ms: u64,
    /// `{ask?, nextAsk?}`: what the turn asked or answered.
    pub metadata: &'a serde_json::Value,
}

pub async fn log_ai_request(pool: &SqlitePool, entry: &AiRequestLog<'_>) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO ai_requests (id, history_id, user_id, model, prompt, response, error, input_tokens, output_tokens, latency_ms, metadata)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )
    .bind(new_id())
    .bind(entry.history_id)
    .bind(entry.user_id)
    .bind(entry.model)
    .bind(entry.prompt)
    .bind(entry.response)
    .bind(entry.error)
    .bind(entry.input_tokens)
    .bind(entry.output_tokens)
    .bind(i64::try_from(entry.latency_ms).unwrap_or(i64::MAX))
    .bind(entry.metadata.to_string())
    .execute(pool)
    .await?;
    Ok(())
}
