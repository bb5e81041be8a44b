//! The pending asks as stored on their conversations, read for a conversation and for a user's
//! list, and the approved calls' run records.

use super::StoredPendingAsk;
use crate::conversation::store::first_message;
use crate::db::{Backend, Pool};
use crate::error::AppResult;
use palaver_wire::conversation::model::conversation_name;

pub async fn pending_ask(pool: &Pool, history_id: &str) -> AppResult<Option<StoredPendingAsk>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT CAST(pending_ask AS TEXT) FROM histories WHERE id = $1")
            .bind(history_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.and_then(|(json,)| json).and_then(|json| match serde_json::from_str(&json) {
        Ok(ask) => Some(ask),
        Err(err) => {
            tracing::error!(%err, history = history_id, "unreadable pending ask");
            None
        }
    }))
}

/// Records that the approved call `key` (`<history id>/<call id>`) runs, with the digest of its
/// arguments; false when it ran before (a replayed, retried or racing approval): it must not
/// run again.
pub async fn claim_approved_run(pool: &Pool, key: &str, tool_name: &str, args_digest: &str) -> AppResult<bool> {
    let claimed = sqlx::query(
        "INSERT INTO approved_runs (idempotency_key, tool_name, args_digest) VALUES ($1, $2, $3)
         ON CONFLICT (idempotency_key) DO NOTHING",
    )
    .bind(key)
    .bind(tool_name)
    .bind(args_digest)
    .execute(pool)
    .await?;
    Ok(claimed.rows_affected() == 1)
}

/// One pending ask of a user, for `GET /gpt/histories/pendingAsks`.
pub struct PendingAskListItem {
    pub history_id: String,
    pub title: Option<String>,
    /// The conversation's name as the chat shows it (`conversation_name`).
    pub name: String,
    pub pending: StoredPendingAsk,
}

pub async fn pending_asks_of(pool: &Pool, owner_id: &str) -> AppResult<Vec<PendingAskListItem>> {
    let backend = Backend::of(pool);
    let rows: Vec<(String, Option<String>, String, Option<String>)> = sqlx::query_as(&format!(
        "SELECT id, title, CAST(pending_ask AS TEXT), {} FROM histories h
         WHERE owner_id = $1 AND pending_ask IS NOT NULL AND deleted_at IS NULL
         ORDER BY {} DESC, id DESC",
        first_message(backend),
        backend.json_text("pending_ask", "created")
    ))
    .bind(owner_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(history_id, title, json, first)| match serde_json::from_str(&json) {
            Ok(pending) => {
                let name = conversation_name(title.as_deref(), first.as_deref());
                Some(PendingAskListItem { history_id, title, name, pending })
            }
            Err(err) => {
                tracing::error!(%err, history = history_id, "unreadable pending ask left out of the list");
                None
            }
        })
        .collect())
}
