//! App calls held for the person's approval (`app_approvals`).

use serde_json::Value;

use crate::db::{Backend, Pool, Tx};
use crate::error::AppResult;

/// How long a held call may wait for its card's answer.
const HELD_SECONDS: &str = "3600";

/// A call held until its card is answered.
#[derive(Debug, sqlx::FromRow)]
pub struct HeldAppCall {
    pub history_id: String,
    pub app_tool: String,
    /// The called tool's name on its server.
    pub tool_name: String,
    pub arguments: String,
}

impl HeldAppCall {
    pub fn arguments(&self) -> serde_json::Map<String, Value> {
        serde_json::from_str(&self.arguments).unwrap_or_default()
    }
}

/// Holds a call under `id`, and lets go of the person's calls held past their time; false (and
/// nothing held) when a call of the same app waits already.
pub async fn hold(pool: &Pool, id: &str, user_id: &str, call: &HeldAppCall) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query(&format!(
        "DELETE FROM app_approvals WHERE user_id = $1 AND created_at < {}",
        backend.seconds_from_now(&format!("-{HELD_SECONDS}"))
    ))
    .bind(user_id)
    .execute(&mut *tx)
    .await?;
    let (waiting,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM app_approvals WHERE user_id = $1 AND history_id = $2 AND app_tool = $3")
            .bind(user_id)
            .bind(&call.history_id)
            .bind(&call.app_tool)
            .fetch_one(&mut *tx)
            .await?;
    if waiting > 0 {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO app_approvals (id, user_id, history_id, app_tool, tool_name, arguments)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(user_id)
    .bind(&call.history_id)
    .bind(&call.app_tool)
    .bind(&call.tool_name)
    .bind(&call.arguments)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// Takes the person's call held under `id`, if it is still held, in a conversation not deleted
/// since: once.
pub async fn take(tx: &mut Tx<'_>, id: &str, user_id: &str) -> AppResult<Option<HeldAppCall>> {
    let backend = Backend::of_tx(tx);
    Ok(sqlx::query_as(&format!(
        "DELETE FROM app_approvals WHERE id = $1 AND user_id = $2 AND created_at >= {}
           AND history_id IN (SELECT id FROM histories WHERE deleted_at IS NULL)
         RETURNING history_id, app_tool, tool_name, arguments",
        backend.seconds_from_now(&format!("-{HELD_SECONDS}"))
    ))
    .bind(id)
    .bind(user_id)
    .fetch_optional(&mut **tx)
    .await?)
}
