//! How owners keep their conversations: the pin and archive marks on `histories`, and the share
//! links in `history_shares` (each a token's hash; the token itself is never stored).

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A mark an owner sets on a conversation, as the moment it was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Pinned,
    Archived,
}

/// Sets (`on`: to now) or clears a mark of a conversation that is not deleted; false when it
/// is gone. Archiving again moves the moment on, so it stays after the last message.
pub async fn set_mark(pool: &Pool, history_id: &str, mark: Mark, on: bool) -> AppResult<bool> {
    let column = match mark {
        Mark::Pinned => "pinned_at",
        Mark::Archived => "archived_at",
    };
    let value = if on { Backend::of(pool).now() } else { "NULL" };
    let result = sqlx::query(&format!("UPDATE histories SET {column} = {value} WHERE id = $1 AND deleted_at IS NULL"))
        .bind(history_id)
        .execute(pool)
        .await?;
    Ok(result.rows_affected() == 1)
}

/// Stores a conversation's share link (by its token's hash) in place of the one it had;
/// returns when it was made.
pub async fn replace_share(pool: &Pool, history_id: &str, token_hash: &str) -> AppResult<String> {
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query("DELETE FROM history_shares WHERE history_id = $1").bind(history_id).execute(&mut *tx).await?;
    let (since,): (String,) =
        sqlx::query_as("INSERT INTO history_shares (history_id, token_hash) VALUES ($1, $2) RETURNING created_at")
            .bind(history_id)
            .bind(token_hash)
            .fetch_one(&mut *tx)
            .await?;
    tx.commit().await?;
    Ok(since)
}

/// When the conversation's share link was made, while it has one.
pub async fn shared_since(pool: &Pool, history_id: &str) -> AppResult<Option<String>> {
    let since: Option<(String,)> = sqlx::query_as("SELECT created_at FROM history_shares WHERE history_id = $1")
        .bind(history_id)
        .fetch_optional(pool)
        .await?;
    Ok(since.map(|(since,)| since))
}

/// Revokes the conversation's share link; false when it had none.
pub async fn remove_share(pool: &Pool, history_id: &str) -> AppResult<bool> {
    let result = sqlx::query("DELETE FROM history_shares WHERE history_id = $1").bind(history_id).execute(pool).await?;
    Ok(result.rows_affected() == 1)
}

/// The conversation a share link's token hash opens, while the link and the conversation last.
pub async fn shared_history(pool: &Pool, token_hash: &str) -> AppResult<Option<String>> {
    let found: Option<(String,)> = sqlx::query_as(
        "SELECT s.history_id FROM history_shares s JOIN histories h ON h.id = s.history_id
         WHERE s.token_hash = $1 AND h.deleted_at IS NULL",
    )
    .bind(token_hash)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|(id,)| id))
}
