//! The answer links' table (migration 0033, `answer_links`): each capability by its hash,
//! bound to one ask, one button and the surface it was issued for.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A capability as stored, with whether it was used and whether its ask's deadline has passed
/// (each 0 or 1).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct LinkRow {
    pub token_hash: String,
    pub surface: String,
    pub user_id: String,
    pub history_id: String,
    pub tool_call_id: String,
    pub button_id: String,
    pub used: i32,
    pub past_deadline: i32,
}

/// One ask's capabilities for `user_id` through `surface` (`(hash, button id)`), valid until
/// `expires_at`.
pub async fn store_links(
    pool: &Pool,
    surface: &str,
    user_id: &str,
    history_id: &str,
    tool_call_id: &str,
    expires_at: &str,
    links: &[(String, String)],
) -> AppResult<()> {
    let mut tx = crate::db::begin(pool).await?;
    for (hash, button_id) in links {
        sqlx::query(
            "INSERT INTO answer_links (token_hash, surface, user_id, history_id, tool_call_id, button_id, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(hash)
        .bind(surface)
        .bind(user_id)
        .bind(history_id)
        .bind(tool_call_id)
        .bind(button_id)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

pub async fn link(pool: &Pool, hash: &str) -> AppResult<Option<LinkRow>> {
    let now = Backend::of(pool).now();
    Ok(sqlx::query_as(&format!(
        "SELECT token_hash, surface, user_id, history_id, tool_call_id, button_id,
                CASE WHEN used_at IS NULL THEN 0 ELSE 1 END AS used,
                CASE WHEN expires_at <= {now} THEN 1 ELSE 0 END AS past_deadline
         FROM answer_links WHERE token_hash = $1"
    ))
    .bind(hash)
    .fetch_optional(pool)
    .await?)
}

/// Marks a capability used; false when it was already (a racing second use).
pub async fn use_link(pool: &Pool, hash: &str) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let used =
        sqlx::query(&format!("UPDATE answer_links SET used_at = {now} WHERE token_hash = $1 AND used_at IS NULL"))
            .bind(hash)
            .execute(pool)
            .await?;
    Ok(used.rows_affected() == 1)
}

/// Gives a capability back after its answer failed for a reason of the server's own.
pub async fn release_link(pool: &Pool, hash: &str) -> AppResult<()> {
    sqlx::query("UPDATE answer_links SET used_at = NULL WHERE token_hash = $1").bind(hash).execute(pool).await?;
    Ok(())
}

/// Drops the capabilities whose asks ended a day ago or more.
pub async fn prune_links(pool: &Pool) -> AppResult<()> {
    let day_ago = Backend::of(pool).seconds_from_now("-86400");
    sqlx::query(&format!("DELETE FROM answer_links WHERE expires_at <= {day_ago}")).execute(pool).await?;
    Ok(())
}
