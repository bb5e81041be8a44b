//! The audit trail's table: an entry appended in the transaction that ends an ask, and pages
//! of entries read back newest first.

use crate::db::{Pool, Tx};

use crate::error::AppResult;
use palaver_wire::audit::{AuditEntry, AuditPage, Decider};

/// What ended, and how (beside who decided).
pub struct Ending<'a> {
    pub history_id: &'a str,
    pub tool_call_id: &'a str,
    pub kind: &'a str,
    pub origin: Option<&'a str>,
    pub tool_name: Option<&'a str>,
    /// `accept`, `decline`, `cancel`, `expired`, `reopened` (an answer undone when its reply
    /// failed), or `withdrawn` (an answer its person took back to change it).
    pub decision: &'a str,
    pub approved: Option<bool>,
    pub reason: Option<&'a str>,
    pub scope: Option<&'a str>,
    pub args_digest: Option<String>,
}

pub async fn record(tx: &mut Tx<'_>, decider: &Decider, ending: &Ending<'_>) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO ask_audit (owner_id, actor_id, surface, token_name, history_id, tool_call_id, kind, origin,
                                tool_name, decision, approved, reason, scope, args_digest)
         VALUES ((SELECT owner_id FROM histories WHERE id = $1), $2, $3, $4, $1, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(ending.history_id)
    .bind(decider.user_id.as_deref())
    .bind(decider.via.surface())
    .bind(decider.via.token())
    .bind(ending.tool_call_id)
    .bind(ending.kind)
    .bind(ending.origin)
    .bind(ending.tool_name)
    .bind(ending.decision)
    .bind(ending.approved.map(i64::from))
    .bind(ending.reason)
    .bind(ending.scope)
    .bind(ending.args_digest.as_deref())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

#[derive(sqlx::FromRow)]
struct EntryRow {
    id: i64,
    created_at: String,
    history_id: String,
    owner: Option<String>,
    actor: Option<String>,
    surface: String,
    token_name: Option<String>,
    tool_call_id: String,
    kind: String,
    origin: Option<String>,
    tool_name: Option<String>,
    decision: String,
    approved: Option<i64>,
    reason: Option<String>,
    scope: Option<String>,
    args_digest: Option<String>,
}

/// Up to `limit` entries older than `before`: of the conversations of `owner`, or of everyone.
pub async fn page(pool: &Pool, owner: Option<&str>, before: Option<i64>, limit: i64) -> AppResult<AuditPage> {
    let mut rows: Vec<EntryRow> = sqlx::query_as(
        "SELECT a.id, a.created_at, a.history_id, owner.username AS owner, actor.username AS actor, a.surface,
                a.token_name, a.tool_call_id, a.kind, a.origin, a.tool_name, a.decision, a.approved, a.reason,
                a.scope, a.args_digest
         FROM ask_audit a
         LEFT JOIN users owner ON owner.id = a.owner_id
         LEFT JOIN users actor ON actor.id = a.actor_id
         WHERE ($1 IS NULL OR a.owner_id = $1) AND ($2 IS NULL OR a.id < $2)
         ORDER BY a.id DESC
         LIMIT $3",
    )
    .bind(owner)
    .bind(before)
    .bind(limit + 1)
    .fetch_all(pool)
    .await?;
    let more = rows.len() > usize::try_from(limit).unwrap_or(usize::MAX);
    rows.truncate(usize::try_from(limit).unwrap_or(0));
    let next_before = more.then(|| rows.last().map(|row| row.id)).flatten();
    let entries = rows
        .into_iter()
        .map(|row| AuditEntry {
            id: row.id,
            created: row.created_at,
            history_id: row.history_id,
            owner: row.owner.unwrap_or_default(),
            actor: row.actor,
            surface: row.surface,
            token_name: row.token_name,
            tool_call_id: row.tool_call_id,
            kind: row.kind,
            origin: row.origin,
            tool_name: row.tool_name,
            decision: row.decision,
            approved: row.approved.map(|approved| approved != 0),
            reason: row.reason,
            scope: row.scope,
            args_digest: row.args_digest,
        })
        .collect();
    Ok(AuditPage { entries, next_before })
}
