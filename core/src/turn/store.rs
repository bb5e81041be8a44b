//! The turn runner's storage: appending a turn's rows, and the two atomic moves of asks —
//! pausing on an ask (claim the one pending slot) and resolving it (answer or cancel).
//!
//! Each move is one transaction whose first statement is a guarded write on the conversation's
//! `histories` row, so two racing requests serialise and exactly one of them changes the slot.
//! On SQLite the write takes the database's write lock at once. On PostgreSQL (read committed,
//! its default) it takes the row's lock; a racer waits on it, then re-reads the row as the
//! winner left it and its guard (`pending_ask IS NULL`, the expected `toolCallId`) no longer
//! matches. The same lock makes the rows' `MAX(seq) + 1` safe: every insert of rows comes after
//! such a write in its transaction, so no two transactions number rows of one conversation at
//! once.

use std::time::Duration;

use crate::db::{Backend, Pool, Tx, placeholders, seconds};
use serde_json::{Value, json};

use super::answered::store::{GivenAnswer, remember as remember_answer};
pub use super::pending::store::{
    OwnerAndPending, PendingAskListItem, claim_approved_run, owner_and_pending_ask, pending_ask, pending_asks_of,
    routed_to, set_first_approver,
};
pub use super::pending::{APPROVAL_PREFIX, StoredPendingAsk};
use crate::audit::store as audit;
use crate::error::AppResult;
use crate::grants::store as grants;
use palaver_contract::asks::AskResponse;
use palaver_wire::audit::Decider;
use palaver_wire::conversation::model::{AskOrigin, AskStatus, HistoryRow};
use palaver_wire::grants::GrantRequest;

async fn next_seq(tx: &mut Tx<'_>, history_id: &str) -> AppResult<i64> {
    let (seq,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(seq), -1) + 1 FROM history_rows WHERE history_id = $1")
        .bind(history_id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(seq)
}

/// The most rows one statement inserts: seven parameters each, well under SQLite's limit.
const ROWS_PER_INSERT: usize = 500;

/// Appends `rows` after the conversation's last, numbering them in the same statement; the
/// number the first of them got (the next free one when there are none).
pub(super) async fn insert_rows(tx: &mut Tx<'_>, history_id: &str, turn: &str, rows: &[HistoryRow]) -> AppResult<i64> {
    if rows.is_empty() {
        return next_seq(tx, history_id).await;
    }
    let mut first = None;
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let seq = insert_chunk(tx, history_id, turn, chunk).await?;
        first.get_or_insert(seq);
    }
    Ok(first.unwrap_or_default())
}

async fn insert_chunk(tx: &mut Tx<'_>, history_id: &str, turn: &str, rows: &[HistoryRow]) -> AppResult<i64> {
    let backend = Backend::of_tx(tx);
    // `v.column1` is each row's place among these: the rows take the numbers after the last one.
    let values: Vec<String> = (0..rows.len()).map(|row| format!("({})", placeholders(3 + row * 7, 7))).collect();
    let sql = format!(
        "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload, ask_kind, ask_status, ask_origin, ask_id)
         SELECT $1, next.seq + v.column1, $2, v.column2, {}, v.column4, v.column5, v.column6, v.column7
         FROM (SELECT COALESCE(MAX(seq), -1) + 1 AS seq FROM history_rows WHERE history_id = $1) next,
              (VALUES {}) v
         RETURNING seq",
        backend.json("v.column3"),
        values.join(", ")
    );
    let mut query = sqlx::query_as::<_, (i64,)>(&sql).bind(history_id).bind(turn);
    for (place, row) in (0_i64..).zip(rows) {
        let payload = serde_json::to_string(row).map_err(|err| {
            tracing::error!(%err, "cannot encode a history row");
            crate::error::AppError::Internal
        })?;
        let (ask, ask_id) = match row {
            HistoryRow::ToolCall { ask: Some(ask), tool_call_id, .. } => (Some(ask), Some(tool_call_id.clone())),
            _ => (None, None),
        };
        query = query
            .bind(place)
            .bind(row.row_type())
            .bind(backend.storable_json(payload))
            .bind(ask.map(|ask| ask.kind.as_str()))
            .bind(ask.map(|ask| ask.status.as_str()))
            .bind(ask.and_then(|ask| ask.origin).map(AskOrigin::as_str))
            .bind(ask_id);
    }
    let numbers = query.fetch_all(&mut **tx).await?;
    Ok(numbers.into_iter().map(|(seq,)| seq).min().unwrap_or_default())
}

/// Marks a conversation active; false when it is gone (deleted), and then nothing may be
/// written to it.
pub(super) async fn touch(tx: &mut Tx<'_>, history_id: &str) -> AppResult<bool> {
    let now = Backend::of_tx(tx).now();
    let touched = sqlx::query(&format!("UPDATE histories SET updated_at = {now} WHERE id = $1 AND deleted_at IS NULL"))
        .bind(history_id)
        .execute(&mut **tx)
        .await?;
    Ok(touched.rows_affected() == 1)
}

/// Marks the row of the ask `ask_id`, found by that id: Palaver minted it, and it is unique
/// in the conversation. An expired ask's row also says when it ended.
pub(super) async fn set_ask_status(
    tx: &mut Tx<'_>,
    history_id: &str,
    ask_id: &str,
    status: AskStatus,
) -> AppResult<()> {
    let backend = Backend::of_tx(tx);
    sqlx::query(&format!(
        "UPDATE history_rows SET ask_status = $3,
             payload = CASE WHEN $3 = 'expired' THEN {} ELSE {} END
         WHERE history_id = $1 AND ask_id = $2",
        backend.json_set("payload", &[("ask.status", "$3"), ("ask.expiredAt", backend.now())]),
        backend.json_set("payload", &[("ask.status", "$3")]),
    ))
    .bind(history_id)
    .bind(ask_id)
    .bind(status.as_str())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Where a turn's save left its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    /// Stored (or nothing to store: the conversation was deleted meanwhile).
    Stored,
    /// A sweeper took the turn for dead and saved its draft, and other rows came after it:
    /// the stored reply stays as far as the draft had it, and the turn must say it was cut off.
    CutOff,
}

/// Appends a finished turn's rows at once, in place of its draft (`drafted`: it stored one);
/// no rows when the conversation was deleted meanwhile.
pub async fn append_rows(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    rows: &[HistoryRow],
    drafted: bool,
) -> AppResult<Saved> {
    let mut tx = crate::db::begin(pool).await?;
    let open = touch(&mut tx, history_id).await?;
    if in_place_of_draft(&mut tx, history_id, turn_id, drafted).await? == Saved::CutOff {
        return Ok(Saved::CutOff);
    }
    if open {
        insert_rows(&mut tx, history_id, turn_id, rows).await?;
    }
    tx.commit().await?;
    Ok(Saved::Stored)
}

/// Removes a turn's draft (its rows are saved, or it ended with nothing to save); false when
/// there was none.
pub async fn forget_draft<'e>(db: impl sqlx::Executor<'e, Database = sqlx::Any>, turn_id: &str) -> AppResult<bool> {
    let forgotten = sqlx::query("DELETE FROM turn_drafts WHERE turn_id = $1").bind(turn_id).execute(db).await?;
    Ok(forgotten.rows_affected() == 1)
}

/// Removes the draft a turn's rows are saved in place of (`drafted`: it stored one). The draft
/// is the turn's fencing token: exactly one of its owner and a sweeper saves it. When a sweeper
/// saved it first (the owner's database was out of reach past its lease), the rows it stored
/// are removed for the owner's, as long as no other turn's rows came after them; otherwise the
/// owner's save is `CutOff`. Runs after the transaction's guarded write on the conversation,
/// so no other row is added meanwhile.
async fn in_place_of_draft(tx: &mut Tx<'_>, history_id: &str, turn_id: &str, drafted: bool) -> AppResult<Saved> {
    let removed: Option<(Option<i64>,)> =
        sqlx::query_as("DELETE FROM turn_drafts WHERE turn_id = $1 RETURNING swept_first_seq")
            .bind(turn_id)
            .fetch_optional(&mut **tx)
            .await?;
    match removed {
        Some((None,)) => Ok(Saved::Stored),
        None if !drafted => Ok(Saved::Stored),
        None => {
            tracing::warn!(history = history_id, turn = turn_id, "a turn taken for dead long ago was saved already");
            Ok(Saved::CutOff)
        }
        Some((Some(first_swept),)) => {
            let (later,): (i64,) = sqlx::query_as(
                "SELECT COUNT(*) FROM history_rows WHERE history_id = $1 AND seq >= $2 AND turn_id <> $3",
            )
            .bind(history_id)
            .bind(first_swept)
            .bind(turn_id)
            .fetch_one(&mut **tx)
            .await?;
            if later > 0 {
                tracing::warn!(
                    history = history_id,
                    turn = turn_id,
                    "a turn taken for dead was saved by a sweeper and the conversation went on: its reply stays cut off"
                );
                return Ok(Saved::CutOff);
            }
            sqlx::query("DELETE FROM history_rows WHERE history_id = $1 AND seq >= $2")
                .bind(history_id)
                .bind(first_swept)
                .execute(&mut **tx)
                .await?;
            tracing::info!(
                history = history_id,
                turn = turn_id,
                "a turn taken for dead replaced what a sweeper saved of it"
            );
            Ok(Saved::Stored)
        }
    }
}

/// Saves a draft's rows as the turn's, once, when no instance holds its turn any more (false
/// when its owner saved it, another sweeper did, or, with `other_instances`, an instance other
/// than `instance_id` renewed its lease since it was read): the check and the claim are one
/// statement. The draft stays, marked swept, for an owner that was alive after all
/// ([`in_place_of_draft`]). No rows when the conversation was deleted.
pub async fn save_draft(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    instance_id: &str,
    other_instances: bool,
) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    let open = touch(&mut tx, history_id).await?;
    let Some(claimed) = claim_draft(&mut tx, history_id, turn_id, instance_id, other_instances).await? else {
        return Ok(false);
    };
    let rows = claimed.rows(history_id);
    if open {
        insert_rows(&mut tx, history_id, turn_id, &rows).await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// A draft a sweeper claimed: its rows and the task a call of its turn followed, as stored.
pub(super) struct ClaimedDraft {
    rows_json: String,
    pub(super) task_json: Option<String>,
}

impl ClaimedDraft {
    /// The draft's rows; none when they cannot be read (logged).
    pub(super) fn rows(&self, history_id: &str) -> Vec<HistoryRow> {
        serde_json::from_str(&self.rows_json).unwrap_or_else(|err| {
            tracing::error!(%err, history = history_id, "an unreadable draft is dropped");
            Vec::new()
        })
    }
}

/// Marks the draft swept, its rows to be stored from the conversation's next seq on, when no
/// instance holds its turn any more (see [`save_draft`]); `None` when it is not to be taken.
pub(super) async fn claim_draft(
    tx: &mut Tx<'_>,
    history_id: &str,
    turn_id: &str,
    instance_id: &str,
    other_instances: bool,
) -> AppResult<Option<ClaimedDraft>> {
    let first = next_seq(tx, history_id).await?;
    let claimed: Option<(String, Option<String>)> = sqlx::query_as(&format!(
        "UPDATE turn_drafts SET swept_first_seq = $2, updated_at = {now}
         WHERE turn_id = $1 AND swept_first_seq IS NULL
           AND ($4 = 0 OR NOT EXISTS (SELECT 1 FROM running_turns r
                                      WHERE r.id = turn_drafts.running_key AND r.instance_id <> $3
                                        AND r.lease_until > {now}))
         RETURNING rows_json, followed_task",
        now = Backend::of_tx(tx).now()
    ))
    .bind(turn_id)
    .bind(first)
    .bind(instance_id)
    .bind(i64::from(other_instances))
    .fetch_optional(&mut **tx)
    .await?;
    Ok(claimed.map(|(rows_json, task_json)| ClaimedDraft { rows_json, task_json }))
}

/// The cancel answer a dropped ask is stored with.
pub fn one_ask_at_a_time() -> Value {
    json!({"action": "cancel", "reason": "one_ask_at_a_time"})
}

/// What another approval of a step ends with when the step pauses on an ask (reference Q.8).
pub fn approval_denied_one_ask_at_a_time() -> Value {
    json!({"approved": false, "reason": "one_ask_at_a_time"})
}

/// Pauses a turn: appends its rows and claims the pending slot for `ask`, all at once, dating
/// the ask (`created`, and `expiresAt` after `ttl`). When another turn already holds the slot,
/// the ask's row is stored cancelled with `one_ask_at_a_time` instead (its result, and the
/// step's other approvals' denials, after the rows), and the slot is `Taken`. A conversation deleted meanwhile gets nothing (`Taken`), and a turn
/// whose draft (`drafted`: it stored one) a sweeper saved, with rows of other turns after it,
/// nothing either (`CutOff`).
pub async fn pause(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    mut rows: Vec<HistoryRow>,
    ask: &mut StoredPendingAsk,
    ttl: Duration,
    drafted: bool,
) -> AppResult<Paused> {
    let backend = Backend::of(pool);
    let mut tx = crate::db::begin(pool).await?;
    let json = serde_json::to_string(&*ask)?;
    let now = backend.now();
    let dated: Option<(String, String)> = sqlx::query_as(&format!(
        "UPDATE histories SET pending_ask = {}, updated_at = {now}
         WHERE id = $2 AND pending_ask IS NULL AND deleted_at IS NULL
         RETURNING {}, {}",
        backend.json_set(&backend.json("$1"), &[("created", now), ("expiresAt", &backend.seconds_from_now("$3"))]),
        backend.json_text("pending_ask", "created"),
        backend.json_text("pending_ask", "expiresAt"),
    ))
    .bind(backend.storable_json(json))
    .bind(history_id)
    .bind(seconds(ttl))
    .fetch_optional(&mut *tx)
    .await?;
    let claimed = dated.is_some();
    let open = claimed || touch(&mut tx, history_id).await?;
    if in_place_of_draft(&mut tx, history_id, turn_id, drafted).await? == Saved::CutOff {
        return Ok(Paused::CutOff);
    }
    if !open {
        tx.commit().await?;
        return Ok(Paused::Taken);
    }
    if let Some((created, expires_at)) = dated {
        (ask.created, ask.ask.expires_at) = (created, Some(expires_at));
    } else {
        let ask_row = rows.iter_mut().find(|row| {
            matches!(row, HistoryRow::ToolCall { tool_call_id, ask: Some(_), .. } if *tool_call_id == ask.ask.tool_call_id)
        });
        if let Some(HistoryRow::ToolCall { ask: Some(row_ask), tool_name, tool_call_id, model_call_id, .. }) = ask_row {
            row_ask.status = AskStatus::Cancelled;
            let result = HistoryRow::ToolResult {
                tool_name: tool_name.clone(),
                tool_call_id: tool_call_id.clone(),
                result: one_ask_at_a_time(),
                model_call_id: model_call_id.clone(),
            };
            rows.push(result);
        }
        let denied = ask.waiting_approvals().into_iter().map(|call| HistoryRow::ToolResult {
            tool_name: call.name.clone(),
            tool_call_id: call.id.clone(),
            result: approval_denied_one_ask_at_a_time(),
            model_call_id: None,
        });
        rows.extend(denied.collect::<Vec<_>>());
    }
    insert_rows(&mut tx, history_id, turn_id, &rows).await?;
    tx.commit().await?;
    Ok(if claimed { Paused::Claimed } else { Paused::Taken })
}

/// Where a pause left the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paused {
    /// The turn holds the pending slot: its ask waits for an answer.
    Claimed,
    /// Another ask held the slot (this one is stored cancelled), or the conversation is gone.
    Taken,
    /// Nothing was stored: see [`Saved::CutOff`].
    CutOff,
}

/// Which side of its `expiresAt` an ask must be on to be resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// An answer or a cancel: only before the ask expires.
    Before,
    /// The expiry: only once it is due.
    Passed,
}

impl Deadline {
    fn condition(self, backend: Backend) -> String {
        let (expires_at, now) = (backend.json_text("pending_ask", "expiresAt"), backend.now());
        match self {
            Deadline::Before => format!("({expires_at} IS NULL OR {expires_at} > {now})"),
            Deadline::Passed => format!("{expires_at} <= {now}"),
        }
    }
}

/// What resolving the pending ask stores.
pub struct Resolution<'a> {
    pub expected: &'a StoredPendingAsk,
    pub status: AskStatus,
    /// The answer row, then any rows that follow from it (a denied tool's result).
    pub rows: Vec<HistoryRow>,
    pub deadline: Deadline,
    /// The answer (an expiry is a cancel with reason `expired`), and who gave it: both go
    /// into the audit trail in the same transaction.
    pub response: &'a AskResponse,
    pub decider: &'a Decider,
    /// The grant an approval gives with its answer, stored with it.
    pub grant: Option<GrantRequest>,
    /// For how long the person may change the answer (see `reopen`), remembered with it.
    pub changeable_for: Option<Duration>,
}

/// Resolves the pending ask `expected` (answer, cancel or expiry) in one transaction: clears
/// the slot only if it still holds that very ask, on the right side of its deadline, stores the
/// rows and marks the ask's row. Returns the number of rows the conversation had before and its
/// owner, or `None` when the ask was no longer pending (or not on that side of its deadline).
pub async fn resolve(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    resolution: Resolution<'_>,
) -> AppResult<Option<(i64, String)>> {
    let backend = Backend::of(pool);
    let mut tx = crate::db::begin(pool).await?;
    let cleared: Option<(Option<String>,)> = sqlx::query_as(&format!(
        "UPDATE histories SET pending_ask = NULL, updated_at = {}
         WHERE id = $1 AND {} = $2 AND deleted_at IS NULL AND {}
         RETURNING owner_id",
        backend.now(),
        backend.json_text("pending_ask", "toolCallId"),
        resolution.deadline.condition(backend)
    ))
    .bind(history_id)
    .bind(&resolution.expected.ask.tool_call_id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((owner,)) = cleared else { return Ok(None) };
    let before = insert_rows(&mut tx, history_id, turn_id, &resolution.rows).await?;
    set_ask_status(&mut tx, history_id, &resolution.expected.ask.tool_call_id, resolution.status).await?;
    if let Some(window) = resolution.changeable_for {
        let reply_seq = before + i64::try_from(resolution.rows.len()).unwrap_or(i64::MAX);
        let answer = GivenAnswer { history_id, turn_id, pending: resolution.expected, first_seq: before, reply_seq };
        remember_answer(&mut tx, &answer, window).await?;
    }
    let owner = owner.unwrap_or_default();
    if let (Some(request), Some(tool)) = (&resolution.grant, &resolution.expected.ask.tool_name) {
        grants::create(&mut tx, &owner, tool, request, history_id).await?;
    }
    let decision = if resolution.status == AskStatus::Expired { "expired" } else { resolution.response.action() };
    let ending = resolution.expected.ending(
        history_id,
        decision,
        Some(resolution.response),
        resolution.grant.as_ref().map(|grant| grant.scope),
    );
    audit::record(&mut tx, resolution.decider, &ending).await?;
    tx.commit().await?;
    Ok(Some((before, owner)))
}

/// Undoes an answer whose continuation failed before any output: the ask is pending again,
/// its answer rows are gone. Only while the conversation is as the answer left it.
pub async fn undo_resolution(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    ask: &StoredPendingAsk,
    rows_before: i64,
    rows_added: i64,
) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let mut tx = crate::db::begin(pool).await?;
    let json = serde_json::to_string(ask)?;
    let restored = sqlx::query(&format!(
        "UPDATE histories SET pending_ask = {}
         WHERE id = $2 AND pending_ask IS NULL
           AND (SELECT COUNT(*) FROM history_rows WHERE history_id = $2) = $3",
        backend.json("$1")
    ))
    .bind(backend.storable_json(json))
    .bind(history_id)
    .bind(rows_before + rows_added)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if restored {
        sqlx::query("DELETE FROM history_rows WHERE history_id = $1 AND seq >= $2")
            .bind(history_id)
            .bind(rows_before)
            .execute(&mut *tx)
            .await?;
        set_ask_status(&mut tx, history_id, &ask.ask.tool_call_id, AskStatus::Pending).await?;
        audit::record(&mut tx, &Decider::palaver(), &ask.ending(history_id, "reopened", None, None)).await?;
        forget_draft(&mut *tx, turn_id).await?;
    }
    tx.commit().await?;
    Ok(restored)
}
