//! A conversation's running summary: read, and written over the one before.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// The summary of a conversation's rows before `through_row`, with the fingerprint of the
/// messages it covers.
pub struct StoredSummary {
    pub through_row: i64,
    pub covered_hash: String,
    pub text: String,
}

pub async fn summary(pool: &Pool, history_id: &str) -> AppResult<Option<StoredSummary>> {
    let row: Option<(i64, String, String)> =
        sqlx::query_as("SELECT through_row, covered_hash, text FROM conversation_summaries WHERE history_id = $1")
            .bind(history_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(through_row, covered_hash, text)| StoredSummary { through_row, covered_hash, text }))
}

/// Stores `summary` in place of the conversation's last one.
pub async fn save_summary(pool: &Pool, history_id: &str, summary: &StoredSummary) -> AppResult<()> {
    let now = Backend::of(pool).now();
    sqlx::query(&format!(
        "INSERT INTO conversation_summaries (history_id, through_row, covered_hash, text, updated_at)
         VALUES ($1, $2, $3, $4, {now})
         ON CONFLICT (history_id) DO UPDATE
         SET through_row = excluded.through_row, covered_hash = excluded.covered_hash,
             text = excluded.text, updated_at = excluded.updated_at"
    ))
    .bind(history_id)
    .bind(summary.through_row)
    .bind(&summary.covered_hash)
    .bind(&summary.text)
    .execute(pool)
    .await?;
    Ok(())
}
