//! The expiry's storage: the asks that are due, when one expired, and dating the asks stored
//! before asks expired.

use std::time::Duration;

use crate::db::{Backend, Pool, seconds};
use crate::error::AppResult;
use crate::turn::store::StoredPendingAsk;

/// When the ask `ask_id` expired, if it did.
pub async fn expired_at(pool: &Pool, history_id: &str, ask_id: &str) -> AppResult<Option<String>> {
    let backend = Backend::of(pool);
    let expired: Option<(Option<String>,)> = sqlx::query_as(&format!(
        "SELECT {} FROM history_rows WHERE history_id = $1 AND ask_id = $2 AND ask_status = 'expired'",
        backend.json_text("payload", "ask.expiredAt"),
    ))
    .bind(history_id)
    .bind(ask_id)
    .fetch_optional(pool)
    .await?;
    Ok(expired.and_then(|(at,)| at))
}

/// Pending asks whose `expiresAt` has passed, oldest first (at most `limit`).
pub async fn due_asks(pool: &Pool, limit: i64) -> AppResult<Vec<(String, StoredPendingAsk)>> {
    let backend = Backend::of(pool);
    let (expires_at, now) = (backend.json_text("pending_ask", "expiresAt"), backend.now());
    let rows: Vec<(String, String)> = sqlx::query_as(&format!(
        "SELECT id, CAST(pending_ask AS TEXT) FROM histories
         WHERE pending_ask IS NOT NULL AND {expires_at} <= {now} AND deleted_at IS NULL
         ORDER BY {expires_at} LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(history_id, json)| match serde_json::from_str(&json) {
            Ok(pending) => Some((history_id, pending)),
            Err(err) => {
                tracing::error!(%err, history = history_id, "unreadable pending ask left to expire later");
                None
            }
        })
        .collect())
}

/// Gives asks stored before asks expired an `expiresAt`: `ttl` (or `approval_ttl` for an
/// approval) after they were asked. Returns how many it dated.
pub async fn date_undated_asks(pool: &Pool, ttl: Duration, approval_ttl: Duration) -> AppResult<u64> {
    let backend = Backend::of(pool);
    let expires_at = format!(
        "COALESCE({}, {})",
        backend.seconds_after(&backend.json_text("pending_ask", "created"), "$1"),
        backend.seconds_from_now("$1")
    );
    let sql = format!(
        "UPDATE histories SET pending_ask = {}
         WHERE pending_ask IS NOT NULL AND {} IS NULL AND {} IS NOT DISTINCT FROM $2",
        backend.json_set("pending_ask", &[("expiresAt", &expires_at)]),
        backend.json_text("pending_ask", "expiresAt"),
        backend.json_text("pending_ask", "origin"),
    );
    let mut count = 0;
    for (origin, ttl) in [(None, ttl), (Some("elicitation"), ttl), (Some("approval"), approval_ttl)] {
        count += sqlx::query(&sql).bind(seconds(ttl)).bind(origin).execute(pool).await?.rows_affected();
    }
    Ok(count)
}
