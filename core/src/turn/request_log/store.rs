//! The request log's table: one row per turn, what the model was sent and sent back.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// One model call, as the request log keeps it.
pub struct AiRequestLog<'a> {
    pub history_id: &'a str,
    /// The turn the request was made for (its reply's rating is kept beside it).
    pub turn_id: &'a str,
    pub user_id: &'a str,
    pub model: &'a str,
    pub prompt: &'a str,
    pub response: &'a str,
    pub error: Option<&'a str>,
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub latency_ms: u64,
    /// What the turn asked or answered, how its document checked, whether it was stopped.
    pub metadata: &'a super::RequestLogMetadata,
}

pub async fn log_ai_request(pool: &Pool, entry: &AiRequestLog<'_>) -> AppResult<()> {
    let backend = Backend::of(pool);
    let metadata = serde_json::to_string(entry.metadata).unwrap_or_else(|_| "{}".into());
    sqlx::query(&format!(
        "INSERT INTO ai_requests (id, history_id, user_id, model, prompt, response, error, input_tokens, output_tokens, latency_ms, metadata, turn_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, {}, $12)",
        backend.json("$11")
    ))
    .bind(crate::db::new_id())
    .bind(entry.history_id)
    .bind(entry.user_id)
    .bind(entry.model)
    .bind(backend.storable_text(entry.prompt))
    .bind(backend.storable_text(entry.response))
    .bind(entry.error.map(|error| backend.storable_text(error)))
    .bind(i64::from(entry.input_tokens))
    .bind(i64::from(entry.output_tokens))
    .bind(i64::try_from(entry.latency_ms).unwrap_or(i64::MAX))
    .bind(backend.storable_json(metadata))
    .bind(entry.turn_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Empties the prompt and reply text of every request logged more than `kept_seconds` ago (its
/// model, tokens, timing, rating and metadata stay); returns how many it emptied.
pub async fn forget_old_text(pool: &Pool, kept_seconds: i64) -> AppResult<u64> {
    let cutoff = Backend::of(pool).seconds_from_now("$1");
    let forgotten = sqlx::query(&format!(
        "UPDATE ai_requests SET prompt = '', response = '' WHERE created_at < {cutoff} AND (prompt <> '' OR response <> '')"
    ))
    .bind(-kept_seconds)
    .execute(pool)
    .await?;
    Ok(forgotten.rows_affected())
}
