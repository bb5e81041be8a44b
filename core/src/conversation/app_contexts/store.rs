//! Apps' model contexts (`app_contexts`).

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// The tool of the call `tool_call_id` in the conversation, when there is such a call.
pub async fn call_tool(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<Option<String>> {
    let backend = Backend::of(pool);
    let found: Option<(Option<String>,)> = sqlx::query_as(&format!(
        "SELECT {} FROM history_rows WHERE history_id = $1 AND row_type = 'tool-call' AND {} = $2 LIMIT 1",
        backend.json_text("payload", "toolName"),
        backend.json_text("payload", "toolCallId"),
    ))
    .bind(history_id)
    .bind(tool_call_id)
    .fetch_optional(pool)
    .await?;
    Ok(found.and_then(|(tool,)| tool))
}

/// Keeps `context` (JSON) as what the app of the call told the model last.
pub async fn keep(pool: &Pool, history_id: &str, tool_call_id: &str, tool_name: &str, context: &str) -> AppResult<()> {
    let now = Backend::of(pool).now();
    sqlx::query(&format!(
        "INSERT INTO app_contexts (history_id, tool_call_id, tool_name, context) VALUES ($1, $2, $3, $4)
         ON CONFLICT (history_id, tool_call_id) DO UPDATE SET context = $4, updated_at = {now}"
    ))
    .bind(history_id)
    .bind(tool_call_id)
    .bind(tool_name)
    .bind(context)
    .execute(pool)
    .await?;
    Ok(())
}

/// Forgets what the app of the call told the model.
pub async fn clear(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM app_contexts WHERE history_id = $1 AND tool_call_id = $2")
        .bind(history_id)
        .bind(tool_call_id)
        .execute(pool)
        .await?;
    Ok(())
}

/// What the app of the call told the model last (JSON), if anything.
pub async fn of_call(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<Option<String>> {
    let kept: Option<(String,)> =
        sqlx::query_as("SELECT context FROM app_contexts WHERE history_id = $1 AND tool_call_id = $2")
            .bind(history_id)
            .bind(tool_call_id)
            .fetch_optional(pool)
            .await?;
    Ok(kept.map(|(context,)| context))
}

/// Each app's context in the conversation, as `(tool call, tool, JSON)`, oldest first: of the
/// calls among its rows (a version set aside keeps its calls' contexts, unread until shown).
pub async fn of_history(pool: &Pool, history_id: &str) -> AppResult<Vec<(String, String, String)>> {
    let backend = Backend::of(pool);
    Ok(sqlx::query_as(&format!(
        "SELECT c.tool_call_id, c.tool_name, c.context FROM app_contexts AS c
         WHERE c.history_id = $1 AND EXISTS (
             SELECT 1 FROM history_rows AS r
             WHERE r.history_id = c.history_id AND r.row_type = 'tool-call' AND {} = c.tool_call_id)
         ORDER BY c.updated_at, c.tool_call_id",
        backend.json_text("r.payload", "toolCallId")
    ))
    .bind(history_id)
    .fetch_all(pool)
    .await?)
}
