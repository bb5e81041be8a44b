//! The grants' table: made in the transaction that stores the approval that gave them, looked
//! up before each guarded call, listed and revoked from Settings.

use crate::db::{Backend, Pool, Tx};

use crate::db::new_id;
use crate::error::AppResult;
use palaver_wire::grants::{Grant, GrantScope};

/// Stores a grant of `user_id` for `tool_name` (in `history_id`, for a conversation grant).
pub async fn create(
    tx: &mut Tx<'_>,
    user_id: &str,
    tool_name: &str,
    scope: GrantScope,
    history_id: &str,
) -> AppResult<()> {
    let history = (scope == GrantScope::Conversation).then_some(history_id);
    sqlx::query("INSERT INTO approval_grants (id, user_id, tool_name, scope, history_id) VALUES ($1, $2, $3, $4, $5)")
        .bind(new_id())
        .bind(user_id)
        .bind(tool_name)
        .bind(scope.as_str())
        .bind(history)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The live grant that covers a call of `tool_name` in `history_id` by `user_id`, if any (a
/// conversation's own first).
pub async fn covering(pool: &Pool, user_id: &str, tool_name: &str, history_id: &str) -> AppResult<Option<GrantScope>> {
    let scope: Option<(String,)> = sqlx::query_as(
        "SELECT scope FROM approval_grants
         WHERE user_id = $1 AND tool_name = $2 AND revoked_at IS NULL
           AND (scope = 'always' OR (scope = 'conversation' AND history_id = $3))
         ORDER BY scope = 'always', created_at LIMIT 1",
    )
    .bind(user_id)
    .bind(tool_name)
    .bind(history_id)
    .fetch_optional(pool)
    .await?;
    Ok(scope.and_then(|(scope,)| GrantScope::parse(&scope)))
}

#[derive(sqlx::FromRow)]
struct GrantRow {
    id: String,
    tool_name: String,
    scope: String,
    history_id: Option<String>,
    history_title: Option<String>,
    created_at: String,
}

/// A user's live grants, newest first (a conversation grant of a deleted conversation is gone).
pub async fn list(pool: &Pool, user_id: &str) -> AppResult<Vec<Grant>> {
    let rows: Vec<GrantRow> = sqlx::query_as(
        "SELECT g.id, g.tool_name, g.scope, g.history_id, h.title AS history_title, g.created_at
         FROM approval_grants g LEFT JOIN histories h ON h.id = g.history_id
         WHERE g.user_id = $1 AND g.revoked_at IS NULL AND (g.history_id IS NULL OR h.deleted_at IS NULL)
         ORDER BY g.created_at DESC, g.id",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            Some(Grant {
                id: row.id,
                tool_name: row.tool_name,
                scope: GrantScope::parse(&row.scope)?,
                history_id: row.history_id,
                history_title: row.history_title,
                created: row.created_at,
            })
        })
        .collect())
}

/// Revokes a grant of `user_id`; false when there is no such live grant.
pub async fn revoke(pool: &Pool, user_id: &str, id: &str) -> AppResult<bool> {
    let revoked = sqlx::query(&format!(
        "UPDATE approval_grants SET revoked_at = {} WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
        Backend::of(pool).now()
    ))
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(revoked.rows_affected() == 1)
}
