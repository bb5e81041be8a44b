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
    Ok(row.and_then(|(json,)| json).and_then(|json| read_pending(history_id, &json)))
}

/// A stored pending ask from its JSON; an unreadable one is logged and left out.
fn read_pending(history_id: &str, json: &str) -> Option<StoredPendingAsk> {
    serde_json::from_str(json).map_err(|err| tracing::error!(%err, history = history_id, "unreadable pending ask")).ok()
}

/// A conversation's owner (`None`: it has none) and its pending ask.
pub type OwnerAndPending = (Option<String>, Option<StoredPendingAsk>);

/// A conversation's owner and its pending ask, read at once; `None` when it is deleted or none.
pub async fn owner_and_pending_ask(pool: &Pool, history_id: &str) -> AppResult<Option<OwnerAndPending>> {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT owner_id, CAST(pending_ask AS TEXT) FROM histories WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(history_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(owner, json)| (owner, json.and_then(|json| read_pending(history_id, &json)))))
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

/// One pending ask of a user, for `GET /gpt/histories/pendingAsks` (and, for an approver, one
/// routed to them, with who asked).
pub struct PendingAskListItem {
    pub history_id: String,
    pub title: Option<String>,
    /// The conversation's name as the chat shows it (`conversation_name`).
    pub name: String,
    pub pending: StoredPendingAsk,
    /// For an approval routed to the reader: the username of the person who asked.
    pub requester: Option<String>,
}

/// A pending ask as a list reads it, with its conversation.
#[derive(sqlx::FromRow)]
struct ListedRow {
    id: String,
    title: Option<String>,
    pending_ask: String,
    first_message: Option<String>,
    requester: Option<String>,
}

/// The rows as list items; an unreadable pending ask is left out (and logged).
fn listed(rows: Vec<ListedRow>) -> Vec<PendingAskListItem> {
    rows.into_iter()
        .filter_map(|row| match serde_json::from_str(&row.pending_ask) {
            Ok(pending) => Some(PendingAskListItem {
                name: conversation_name(row.title.as_deref(), row.first_message.as_deref()),
                history_id: row.id,
                title: row.title,
                pending,
                requester: row.requester,
            }),
            Err(err) => {
                tracing::error!(%err, history = row.id, "unreadable pending ask left out of the list");
                None
            }
        })
        .collect()
}

pub async fn pending_asks_of(pool: &Pool, owner_id: &str) -> AppResult<Vec<PendingAskListItem>> {
    let backend = Backend::of(pool);
    let rows: Vec<ListedRow> = sqlx::query_as(&format!(
        "SELECT id, title, CAST(pending_ask AS TEXT) AS pending_ask, {} AS first_message,
                CAST(NULL AS TEXT) AS requester
         FROM histories h
         WHERE owner_id = $1 AND pending_ask IS NOT NULL AND deleted_at IS NULL
         ORDER BY {} DESC, id DESC",
        first_message(backend),
        backend.json_text("pending_ask", "created")
    ))
    .bind(owner_id)
    .fetch_all(pool)
    .await?;
    Ok(listed(rows))
}

/// Records `user_id` (`username`) as the first approver of the two-person approval
/// `tool_call_id` of `history_id`; false when it is no longer pending or another approver was
/// first.
pub async fn set_first_approver(
    pool: &Pool,
    history_id: &str,
    tool_call_id: &str,
    user_id: &str,
    username: &str,
) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let approver = [("routed.firstApprover", "$3"), ("routed.firstApproverName", "$4")];
    let sql = format!(
        "UPDATE histories SET pending_ask = {} WHERE id = $1 AND deleted_at IS NULL AND {} = $2 AND {} IS NULL",
        backend.json_set("pending_ask", &approver),
        backend.json_text("pending_ask", "toolCallId"),
        backend.json_text("pending_ask", "routed.firstApprover"),
    );
    let updated =
        sqlx::query(&sql).bind(history_id).bind(tool_call_id).bind(user_id).bind(username).execute(pool).await?;
    Ok(updated.rows_affected() == 1)
}

/// The approvals waiting on others' conversations that an admin routed to `user_id` (or to any
/// admin, when `is_admin`), newest first.
pub async fn routed_to(pool: &Pool, user_id: &str, is_admin: bool) -> AppResult<Vec<PendingAskListItem>> {
    let backend = Backend::of(pool);
    let rows: Vec<ListedRow> = sqlx::query_as(&format!(
        "SELECT h.id, h.title, CAST(h.pending_ask AS TEXT) AS pending_ask, {} AS first_message,
                u.username AS requester
         FROM histories h JOIN users u ON u.id = h.owner_id
         WHERE h.pending_ask IS NOT NULL AND h.deleted_at IS NULL AND h.owner_id <> $1
           AND ({} = $1 OR ({} = 'admins' AND $2))
         ORDER BY {} DESC, h.id DESC",
        first_message(backend),
        backend.json_text("h.pending_ask", "routed.approver.id"),
        backend.json_text("h.pending_ask", "routed.approver.kind"),
        backend.json_text("h.pending_ask", "created"),
    ))
    .bind(user_id)
    .bind(is_admin)
    .fetch_all(pool)
    .await?;
    Ok(listed(rows))
}
