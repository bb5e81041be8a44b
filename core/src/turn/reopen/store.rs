//! The answers that can still be changed: remembered when an answer is stored
//! (`turn::answered`), and withdrawn in one transaction whose first statement is the guarded
//! write on the conversation's `histories` row, as every move of an ask is (`turn::store`): two
//! withdrawals, or a withdrawal and a new message, serialise on it, and exactly one of them finds
//! its guard true.

use crate::audit::store as audit;
use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::store::{StoredPendingAsk, set_ask_status};
use palaver_wire::audit::{Decider, WITHDRAWN};
use palaver_wire::conversation::answer_change::ChangeableAnswer;
use palaver_wire::conversation::model::AskStatus;

/// Forgets the answers that can no longer be changed; how many.
pub async fn forget_lapsed(pool: &Pool) -> AppResult<u64> {
    let now = Backend::of(pool).now();
    let forgotten =
        sqlx::query(&format!("DELETE FROM answered_asks WHERE changeable_until < {now}")).execute(pool).await?;
    Ok(forgotten.rows_affected())
}

/// A turn runs on the conversation of the remembered answer `a`: its draft is stored.
const REPLY_RUNNING: &str = "EXISTS (SELECT 1 FROM turn_drafts d WHERE d.history_id = a.history_id)";

/// Something came after the answer `a` but the resumed turn's own replies: a row of another
/// turn (a later message), or of that turn anything but a reply (a tool call that ran, a new ask).
const WENT_ON: &str = "EXISTS (SELECT 1 FROM history_rows r
                WHERE r.history_id = a.history_id AND r.seq >= a.first_seq
                  AND (r.turn_id <> a.turn_id OR (r.seq >= a.reply_seq AND r.row_type <> 'assistant')))";

fn not_expired(now: &str) -> String {
    format!("(a.expires_at IS NULL OR a.expires_at > {now})")
}

fn window_open(now: &str) -> String {
    format!("a.changeable_until > {now}")
}

/// The remembered answer `a` of the conversation `histories` can be changed now.
fn changeable(histories: &str, now: &str) -> String {
    format!(
        "{histories}.pending_ask IS NULL AND {histories}.deleted_at IS NULL
         AND {} AND {} AND NOT {REPLY_RUNNING} AND NOT {WENT_ON}",
        not_expired(now),
        window_open(now)
    )
}

/// The conversation's answer that can be changed now, and until when.
pub async fn changeable_answer(pool: &Pool, history_id: &str) -> AppResult<Option<ChangeableAnswer>> {
    let now = Backend::of(pool).now();
    let found: Option<(String, String)> = sqlx::query_as(&format!(
        "SELECT a.tool_call_id, a.changeable_until FROM answered_asks a JOIN histories h ON h.id = a.history_id
         WHERE a.history_id = $1 AND {}",
        changeable("h", now)
    ))
    .bind(history_id)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|(tool_call_id, until)| ChangeableAnswer { tool_call_id, until }))
}

/// The remembered answer to `tool_call_id`: the ask as it was pending, the turn that resumed
/// with it and where its rows begin.
pub struct Remembered {
    pub pending: StoredPendingAsk,
    pub turn_id: String,
    pub first_seq: i64,
}

pub async fn remembered(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<Option<Remembered>> {
    let found: Option<(String, String, i64)> = sqlx::query_as(
        "SELECT pending_ask, turn_id, first_seq FROM answered_asks WHERE history_id = $1 AND tool_call_id = $2",
    )
    .bind(history_id)
    .bind(tool_call_id)
    .fetch_optional(pool)
    .await?;
    Ok(found.and_then(|(json, turn_id, first_seq)| match serde_json::from_str(&json) {
        Ok(pending) => Some(Remembered { pending, turn_id, first_seq }),
        Err(err) => {
            tracing::error!(%err, history = history_id, "an unreadable answered ask cannot be changed");
            None
        }
    }))
}

/// Withdraws the answer `remembered` in one transaction: the ask pending again as it was, the
/// rows from the answer on removed, the ask's row pending, the withdrawal in the audit trail.
/// False, with nothing changed, when it can no longer be changed (someone moved first).
pub async fn withdraw(pool: &Pool, history_id: &str, remembered: &Remembered, decider: &Decider) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let pending = &remembered.pending;
    let json = serde_json::to_string(pending)?;
    let mut tx = crate::db::begin(pool).await?;
    let reopened = sqlx::query(&format!(
        "UPDATE histories SET pending_ask = {}, updated_at = {now}
         WHERE id = $2 AND EXISTS (SELECT 1 FROM answered_asks a
                                   WHERE a.history_id = histories.id AND a.tool_call_id = $3 AND a.turn_id = $4
                                     AND a.first_seq = $5 AND {})",
        backend.json("$1"),
        changeable("histories", backend.now()),
        now = backend.now(),
    ))
    .bind(backend.storable_json(json))
    .bind(history_id)
    .bind(&pending.ask.tool_call_id)
    .bind(&remembered.turn_id)
    .bind(remembered.first_seq)
    .execute(&mut *tx)
    .await?;
    if reopened.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM history_rows WHERE history_id = $1 AND seq >= $2")
        .bind(history_id)
        .bind(remembered.first_seq)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM answered_asks WHERE history_id = $1").bind(history_id).execute(&mut *tx).await?;
    set_ask_status(&mut tx, history_id, &pending.ask.tool_call_id, AskStatus::Pending).await?;
    audit::record(&mut tx, decider, &pending.ending(history_id, WITHDRAWN, None, None)).await?;
    tx.commit().await?;
    Ok(true)
}

/// Where the remembered answer to `tool_call_id` stands, read after a withdrawal found it
/// unchangeable.
pub struct Standing {
    pub reply_running: bool,
    pub went_on: bool,
    pub expired: bool,
    pub window_closed: bool,
}

pub async fn standing(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<Option<Standing>> {
    let now = Backend::of(pool).now();
    let flag = |condition: &str| format!("CAST(CASE WHEN {condition} THEN 1 ELSE 0 END AS BIGINT)");
    let found: Option<(i64, i64, i64, i64)> = sqlx::query_as(&format!(
        "SELECT {}, {}, {}, {} FROM answered_asks a JOIN histories h ON h.id = a.history_id
         WHERE a.history_id = $1 AND a.tool_call_id = $2",
        flag(REPLY_RUNNING),
        flag(&format!("h.pending_ask IS NOT NULL OR h.deleted_at IS NOT NULL OR {WENT_ON}")),
        flag(&format!("NOT {}", not_expired(now))),
        flag(&format!("NOT {}", window_open(now))),
    ))
    .bind(history_id)
    .bind(tool_call_id)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|(running, went_on, expired, closed)| Standing {
        reply_running: running == 1,
        went_on: went_on == 1,
        expired: expired == 1,
        window_closed: closed == 1,
    }))
}
