//! Everything an account owns, removed from the database in one transaction.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// What the deletion removed from the database: the files' ids are for their bytes.
pub struct Removed {
    pub conversations: u64,
    pub file_ids: Vec<String>,
}

/// Marks the user's conversations deleted, so a turn still running on one writes nothing more
/// (every write of a turn checks that its conversation is not deleted).
pub async fn close_conversations(pool: &Pool, user_id: &str) -> AppResult<Vec<String>> {
    let now = Backend::of(pool).now();
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query(&format!("UPDATE histories SET deleted_at = {now} WHERE owner_id = $1 AND deleted_at IS NULL"))
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    let running: Vec<(String,)> = sqlx::query_as("SELECT DISTINCT history_id FROM running_turns WHERE user_id = $1")
        .bind(user_id)
        .fetch_all(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(running.into_iter().map(|(id,)| id).collect())
}

/// Removes the user and every row that is theirs or belongs to one of their conversations:
/// messages, block states, share links, the request log, grants, approved runs, turn streams
/// and drafts, audit entries, to-dos, file index rows, live events, push subscriptions and
/// capabilities, sessions and tokens. Where they acted on a conversation not theirs, the audit
/// keeps the entry without naming them. Children go before their parents, for the foreign keys.
pub async fn remove_everything(pool: &Pool, user_id: &str) -> AppResult<Removed> {
    const OWNED: &str = "SELECT id FROM histories WHERE owner_id = $1";
    let statements = [
        format!(
            "DELETE FROM turn_stream_events WHERE stream_id IN (
                 SELECT turn_id FROM history_rows WHERE history_id IN ({OWNED})
                 UNION SELECT stream_id FROM running_turns WHERE user_id = $1)"
        ),
        "DELETE FROM running_turns WHERE user_id = $1".to_string(),
        format!("DELETE FROM turn_drafts WHERE user_id = $1 OR history_id IN ({OWNED})"),
        format!("DELETE FROM history_rows WHERE history_id IN ({OWNED})"),
        format!("DELETE FROM conversation_branches WHERE history_id IN ({OWNED})"),
        format!("DELETE FROM block_states WHERE history_id IN ({OWNED})"),
        format!("DELETE FROM history_shares WHERE history_id IN ({OWNED})"),
        format!("DELETE FROM ai_requests WHERE user_id = $1 OR history_id IN ({OWNED})"),
        format!("DELETE FROM approval_grants WHERE user_id = $1 OR history_id IN ({OWNED})"),
        format!("DELETE FROM app_approvals WHERE user_id = $1 OR history_id IN ({OWNED})"),
        format!("DELETE FROM app_contexts WHERE history_id IN ({OWNED})"),
        "DELETE FROM approved_runs WHERE EXISTS (
             SELECT 1 FROM histories AS h
             WHERE h.owner_id = $1 AND approved_runs.idempotency_key LIKE h.id || '/%')"
            .to_string(),
        // Their chain goes whole, with its head and signatures; in others' chains they stay
        // as the digest the chain holds.
        "DELETE FROM ask_audit WHERE owner_id = $1 OR chain_owner = $1".to_string(),
        "DELETE FROM audit_heads WHERE chain_owner = $1".to_string(),
        "DELETE FROM audit_signatures WHERE chain_owner = $1".to_string(),
        "UPDATE ask_audit SET actor_id = NULL WHERE actor_id = $1".to_string(),
        "DELETE FROM todos WHERE owner_id = $1".to_string(),
        "DELETE FROM live_events WHERE user_id = $1".to_string(),
        "DELETE FROM sessions WHERE user_id = $1".to_string(),
        "DELETE FROM api_tokens WHERE user_id = $1".to_string(),
        "DELETE FROM user_preferences WHERE user_id = $1".to_string(),
        "DELETE FROM push_subscriptions WHERE user_id = $1".to_string(),
        "DELETE FROM push_presence WHERE user_id = $1".to_string(),
        "DELETE FROM answer_links WHERE user_id = $1".to_string(),
        "DELETE FROM mail_addresses WHERE user_id = $1".to_string(),
        "DELETE FROM mail_confirmations WHERE user_id = $1".to_string(),
        "DELETE FROM push_notified_asks WHERE user_id = $1".to_string(),
        "DELETE FROM webhook_deliveries WHERE webhook_id IN (SELECT id FROM webhooks WHERE user_id = $1)".to_string(),
        "DELETE FROM webhooks WHERE user_id = $1".to_string(),
        "DELETE FROM agui_taken_messages WHERE user_id = $1".to_string(),
        "DELETE FROM agui_threads WHERE user_id = $1".to_string(),
    ];
    let mut tx = crate::db::begin(pool).await?;
    for statement in &statements {
        sqlx::query(statement).bind(user_id).execute(&mut *tx).await?;
    }
    let files: Vec<(String,)> =
        sqlx::query_as("DELETE FROM files WHERE owner_id = $1 RETURNING id").bind(user_id).fetch_all(&mut *tx).await?;
    let conversations =
        sqlx::query("DELETE FROM histories WHERE owner_id = $1").bind(user_id).execute(&mut *tx).await?.rows_affected();
    sqlx::query("DELETE FROM users WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(Removed { conversations, file_ids: files.into_iter().map(|(id,)| id).collect() })
}
