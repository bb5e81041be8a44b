//! The grants' table: made in the transaction that stores the approval that gave them, looked
//! up before each guarded call, listed, edited and revoked from Settings.

use crate::db::{Backend, Pool, Tx};

use crate::db::new_id;
use crate::error::AppResult;
use palaver_wire::grants::{ArgumentPatterns, Grant, GrantRequest, GrantScope, covers_call};
use serde_json::Value;

/// Stores the grant `request` of `user_id` for `tool_name` (a turn or conversation grant holds
/// in `history_id`).
pub async fn create(
    tx: &mut Tx<'_>,
    user_id: &str,
    tool_name: &str,
    request: &GrantRequest,
    history_id: &str,
) -> AppResult<()> {
    let history = (request.scope != GrantScope::Always).then_some(history_id);
    let arguments = request.arguments.as_ref().map(serde_json::to_string).transpose()?;
    let expires = expires_sql(Backend::of_tx(tx), request.lifetime_seconds);
    sqlx::query(&format!(
        "INSERT INTO approval_grants (id, user_id, tool_name, scope, history_id, arguments, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, {expires})"
    ))
    .bind(new_id())
    .bind(user_id)
    .bind(tool_name)
    .bind(request.scope.as_str())
    .bind(history)
    .bind(arguments)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The grant that ran a call: which one, and how far it reaches.
#[derive(Clone, Debug, PartialEq)]
pub struct Covering {
    pub id: String,
    pub scope: GrantScope,
    pub arguments: Option<ArgumentPatterns>,
}

#[derive(sqlx::FromRow)]
struct CandidateRow {
    id: String,
    scope: String,
    arguments: Option<String>,
}

/// The live grant of `user_id` that covers a call of `tool_name` with `input` in `history_id`,
/// if any: the narrowest first (this turn's, then the conversation's, then the always ones).
pub async fn covering(
    pool: &Pool,
    user_id: &str,
    tool_name: &str,
    history_id: &str,
    input: &Value,
) -> AppResult<Option<Covering>> {
    let now = Backend::of(pool).now();
    let candidates: Vec<CandidateRow> = sqlx::query_as(&format!(
        "SELECT id, scope, arguments FROM approval_grants
         WHERE user_id = $1 AND tool_name = $2 AND revoked_at IS NULL
           AND (expires_at IS NULL OR expires_at > {now})
           AND (scope = 'always' OR history_id = $3)
         ORDER BY CASE scope WHEN 'turn' THEN 0 WHEN 'conversation' THEN 1 ELSE 2 END, created_at, id"
    ))
    .bind(user_id)
    .bind(tool_name)
    .bind(history_id)
    .fetch_all(pool)
    .await?;
    for row in candidates {
        let Some(scope) = GrantScope::parse(&row.scope) else { continue };
        let arguments: Option<ArgumentPatterns> = row.arguments.as_deref().map(serde_json::from_str).transpose()?;
        if arguments.as_ref().is_none_or(|patterns| covers_call(patterns, input)) {
            return Ok(Some(Covering { id: row.id, scope, arguments }));
        }
    }
    Ok(None)
}

/// Counts a call the grant `id` ran.
pub async fn count_use(pool: &Pool, id: &str) -> AppResult<()> {
    sqlx::query("UPDATE approval_grants SET uses = uses + 1 WHERE id = $1").bind(id).execute(pool).await?;
    Ok(())
}

/// Ends the turn grants held in `history_id`: its turn is over.
pub async fn end_turn_grants(pool: &Pool, history_id: &str) -> AppResult<()> {
    sqlx::query(&format!(
        "UPDATE approval_grants SET revoked_at = {} WHERE history_id = $1 AND scope = 'turn' AND revoked_at IS NULL",
        Backend::of(pool).now()
    ))
    .bind(history_id)
    .execute(pool)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct GrantRow {
    id: String,
    tool_name: String,
    scope: String,
    history_id: Option<String>,
    history_title: Option<String>,
    arguments: Option<String>,
    expires_at: Option<String>,
    uses: i64,
    created_at: String,
}

/// A user's live grants, newest first (a grant of a deleted conversation is gone, and so is one
/// that ran out).
pub async fn list(pool: &Pool, user_id: &str) -> AppResult<Vec<Grant>> {
    let now = Backend::of(pool).now();
    let rows: Vec<GrantRow> = sqlx::query_as(&format!(
        "SELECT g.id, g.tool_name, g.scope, g.history_id, h.title AS history_title, g.arguments, g.expires_at,
                g.uses, g.created_at
         FROM approval_grants g LEFT JOIN histories h ON h.id = g.history_id
         WHERE g.user_id = $1 AND g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > {now})
           AND (g.history_id IS NULL OR h.deleted_at IS NULL)
         ORDER BY g.created_at DESC, g.id"
    ))
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
                arguments: row.arguments.as_deref().and_then(|patterns| serde_json::from_str(patterns).ok()),
                expires: row.expires_at,
                uses: u32::try_from(row.uses).unwrap_or(u32::MAX),
                created: row.created_at,
            })
        })
        .collect())
}

/// Gives a live grant of `user_id` a new lifetime from now (`None`: until revoked); false when
/// there is no such live grant.
pub async fn set_lifetime(pool: &Pool, user_id: &str, id: &str, lifetime_seconds: Option<u32>) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let (expires, now) = (expires_sql(backend, lifetime_seconds), backend.now());
    let changed = sqlx::query(&format!(
        "UPDATE approval_grants SET expires_at = {expires}
         WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > {now})"
    ))
    .bind(id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(changed.rows_affected() == 1)
}

/// What a live grant of `user_id` covers of each argument: `None` when there is no such grant,
/// `Some(None)` for one that covers any arguments.
pub async fn arguments_of(pool: &Pool, user_id: &str, id: &str) -> AppResult<Option<Option<ArgumentPatterns>>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT arguments FROM approval_grants WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL")
            .bind(id)
            .bind(user_id)
            .fetch_optional(pool)
            .await?;
    let Some((arguments,)) = row else { return Ok(None) };
    Ok(Some(arguments.as_deref().map(serde_json::from_str).transpose()?))
}

/// Gives a live grant of `user_id` new patterns; false when there is no such live grant.
pub async fn set_arguments(pool: &Pool, user_id: &str, id: &str, arguments: &ArgumentPatterns) -> AppResult<bool> {
    let changed =
        sqlx::query("UPDATE approval_grants SET arguments = $3 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL")
            .bind(id)
            .bind(user_id)
            .bind(serde_json::to_string(arguments)?)
            .execute(pool)
            .await?;
    Ok(changed.rows_affected() == 1)
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

/// The SQL for when a grant given `lifetime_seconds` now runs out (NULL: never).
fn expires_sql(backend: Backend, lifetime_seconds: Option<u32>) -> String {
    lifetime_seconds.map_or_else(|| "NULL".into(), |seconds| backend.seconds_from_now(&seconds.to_string()))
}
