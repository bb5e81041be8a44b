//! The asks waiting on each person and their re-nudges, and the people whose quiet hours held
//! a push back (migration 0034). Times are ISO 8601 UTC text with milliseconds, as everywhere.

use crate::db::Pool;
use crate::error::AppResult;

/// An ask waiting on a person, as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct NudgeRow {
    pub history_id: String,
    pub tool_call_id: String,
    pub user_id: String,
    pub asked_at: String,
    pub expires_at: Option<String>,
    pub sent: i32,
    pub next_at: Option<String>,
}

/// Records an ask as waiting on `row.user_id` (again, for an ask pending once more: its
/// nudges start over).
pub async fn follow(pool: &Pool, row: &NudgeRow) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO push_nudges (history_id, tool_call_id, user_id, asked_at, expires_at, sent, next_at)
         VALUES ($1, $2, $3, $4, $5, 0, $6)
         ON CONFLICT (history_id, tool_call_id, user_id) DO UPDATE
         SET asked_at = excluded.asked_at, expires_at = excluded.expires_at, sent = 0, next_at = excluded.next_at",
    )
    .bind(&row.history_id)
    .bind(&row.tool_call_id)
    .bind(&row.user_id)
    .bind(&row.asked_at)
    .bind(&row.expires_at)
    .bind(&row.next_at)
    .execute(pool)
    .await?;
    Ok(())
}

/// The nudges due at `now`, the most overdue first.
pub async fn due(pool: &Pool, now: &str, limit: i64) -> AppResult<Vec<NudgeRow>> {
    Ok(sqlx::query_as(
        "SELECT history_id, tool_call_id, user_id, asked_at, expires_at, sent, next_at
         FROM push_nudges WHERE next_at <= $1 ORDER BY next_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Takes a due nudge for this instance, moving its row on to the next one (`next_at`, NULL
/// when none is left); false when another instance took it first.
pub async fn take(pool: &Pool, row: &NudgeRow, next_at: Option<&str>) -> AppResult<bool> {
    let taken = sqlx::query(
        "UPDATE push_nudges SET sent = sent + 1, next_at = $5
         WHERE history_id = $1 AND tool_call_id = $2 AND user_id = $3 AND sent = $4",
    )
    .bind(&row.history_id)
    .bind(&row.tool_call_id)
    .bind(&row.user_id)
    .bind(row.sent)
    .bind(next_at)
    .execute(pool)
    .await?;
    Ok(taken.rows_affected() == 1)
}

/// The ask ended: nobody waits on it any more.
pub async fn forget(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM push_nudges WHERE history_id = $1 AND tool_call_id = $2")
        .bind(history_id)
        .bind(tool_call_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// Drops the rows of asks past their deadline by a day (their ending was never seen: an
/// instance stopped between the two).
pub async fn prune(pool: &Pool, day_ago: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM push_nudges WHERE expires_at <= $1").bind(day_ago).execute(pool).await?;
    Ok(())
}

/// How many asks wait on the person, and the title of the newest one's conversation.
pub async fn waiting(pool: &Pool, user_id: &str, now: &str) -> AppResult<(i64, Option<String>)> {
    let count: (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM push_nudges WHERE user_id = $1 AND (expires_at IS NULL OR expires_at > $2)",
    )
    .bind(user_id)
    .bind(now)
    .fetch_one(pool)
    .await?;
    let newest: Option<(Option<String>,)> = sqlx::query_as(
        "SELECT h.title FROM push_nudges n JOIN histories h ON h.id = n.history_id
         WHERE n.user_id = $1 AND (n.expires_at IS NULL OR n.expires_at > $2) AND h.deleted_at IS NULL
         ORDER BY n.asked_at DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    Ok((count.0, newest.and_then(|(title,)| title)))
}

/// Records that quiet hours held back a push to the person (once: the earliest is kept).
pub async fn hold(pool: &Pool, user_id: &str, now: &str) -> AppResult<()> {
    sqlx::query("INSERT INTO push_quiet_held (user_id, held_since) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING")
        .bind(user_id)
        .bind(now)
        .execute(pool)
        .await?;
    Ok(())
}

/// The people whose quiet hours held a push back.
pub async fn held(pool: &Pool) -> AppResult<Vec<String>> {
    let held: Vec<(String,)> =
        sqlx::query_as("SELECT user_id FROM push_quiet_held ORDER BY held_since").fetch_all(pool).await?;
    Ok(held.into_iter().map(|(user_id,)| user_id).collect())
}

/// Takes the person's hold for this instance, to send its summary; false when another
/// instance took it first.
pub async fn release(pool: &Pool, user_id: &str) -> AppResult<bool> {
    let released = sqlx::query("DELETE FROM push_quiet_held WHERE user_id = $1").bind(user_id).execute(pool).await?;
    Ok(released.rows_affected() == 1)
}
