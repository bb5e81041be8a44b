//! A running turn's draft: written as it streams, and read by the sweeper with what
//! `running_turns` says of its turn (the saves that replace it are with the turn's other rows,
//! in `turn::store`).

use crate::conversation::running::Holder;
use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::pending::held_call::HeldCall;
use palaver_wire::conversation::model::HistoryRow;

/// A running turn's draft: its rows as far as it got, the reply (marked interrupted) last.
pub struct Draft<'a> {
    pub turn_id: &'a str,
    pub history_id: &'a str,
    pub user_id: &'a str,
    /// Its row in `running_turns`.
    pub running_key: &'a str,
    pub rows: &'a [HistoryRow],
    /// The task a call of the turn follows now (see `turn::follow_on`).
    pub task: Option<&'a HeldCall>,
}

/// Stores a turn's draft: the first time as a new one, then over it. False when the draft is
/// not the turn's to write: its conversation is gone (deleted), or a sweeper took the turn for
/// dead and saved it, and then its save replaces what the sweeper stored, or says the reply was
/// cut off (`turn::store::in_place_of_draft`).
pub async fn write_draft(pool: &Pool, draft: &Draft<'_>, first: bool) -> AppResult<bool> {
    let backend = Backend::of(pool);
    if first {
        return insert_draft(pool, backend, draft).await;
    }
    let written = sqlx::query(&format!(
        "UPDATE turn_drafts SET rows_json = $2, followed_task = $3, updated_at = {}
         WHERE turn_id = $1 AND swept_first_seq IS NULL",
        backend.now()
    ))
    .bind(draft.turn_id)
    .bind(draft_json(backend, draft)?)
    .bind(task_json(draft)?)
    .execute(pool)
    .await?;
    Ok(written.rows_affected() == 1)
}

fn draft_json(backend: Backend, draft: &Draft<'_>) -> AppResult<String> {
    let rows = serde_json::to_string(draft.rows)?;
    Ok(backend.storable_text(&rows))
}

fn task_json(draft: &Draft<'_>) -> AppResult<Option<String>> {
    Ok(draft.task.map(serde_json::to_string).transpose()?)
}

/// Stores a turn's first draft while its conversation is there (false when it is not: a delete
/// that came before the turn could be stopped).
pub(in crate::turn) async fn insert_draft<'e>(
    db: impl sqlx::Executor<'e, Database = sqlx::Any>,
    backend: Backend,
    draft: &Draft<'_>,
) -> AppResult<bool> {
    let inserted = sqlx::query(
        "INSERT INTO turn_drafts (turn_id, history_id, user_id, running_key, rows_json, followed_task)
         SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM histories WHERE id = $2 AND deleted_at IS NULL)",
    )
    .bind(draft.turn_id)
    .bind(draft.history_id)
    .bind(draft.user_id)
    .bind(draft.running_key)
    .bind(draft_json(backend, draft)?)
    .bind(task_json(draft)?)
    .execute(db)
    .await?;
    Ok(inserted.rows_affected() == 1)
}

/// Whether a sweeper took the turn's draft over for a turn that follows its task on
/// (`turn::follow_on`), rather than saving it.
pub async fn taken_over(pool: &Pool, turn_id: &str) -> AppResult<bool> {
    let (taken,): (i64,) = sqlx::query_as(
        "SELECT COUNT(*) FROM turn_drafts WHERE turn_id = $1 AND swept_first_seq IS NOT NULL AND followed_task IS NOT NULL",
    )
    .bind(turn_id)
    .fetch_one(pool)
    .await?;
    Ok(taken > 0)
}

/// A stored draft, with what `running_turns` says of its turn.
pub struct StoredDraft {
    pub turn_id: String,
    pub history_id: String,
    pub user_id: String,
    pub running_key: String,
    /// What `running_turns` says of the turn, when it has its row (every turn has one from
    /// before its draft is written until it ends, or its lease lapses and it is forgotten).
    pub holder: Option<Holder>,
    /// A call of the turn follows a task: the turn is followed on, not saved as interrupted.
    pub follows_task: bool,
}

/// A draft as `drafts` reads it: turn, history, user, running key, holding instance, leased,
/// follows a task.
type DraftRow = (String, String, String, String, Option<String>, i64, i64);

/// Every draft no sweeper has saved, in the order their turns began (the running keys are
/// time-ordered ids), so a conversation's drafts are saved in the order its turns would have
/// stored their rows.
pub async fn drafts(pool: &Pool) -> AppResult<Vec<StoredDraft>> {
    let found: Vec<DraftRow> = sqlx::query_as(&format!(
        "SELECT d.turn_id, d.history_id, d.user_id, d.running_key, r.instance_id,
                CAST(CASE WHEN r.lease_until > {now} THEN 1 ELSE 0 END AS BIGINT),
                CAST(CASE WHEN d.followed_task IS NULL THEN 0 ELSE 1 END AS BIGINT)
         FROM turn_drafts d LEFT JOIN running_turns r ON r.id = d.running_key
         WHERE d.swept_first_seq IS NULL
         ORDER BY d.running_key",
        now = Backend::of(pool).now(),
    ))
    .fetch_all(pool)
    .await?;
    Ok(found
        .into_iter()
        .map(|(turn_id, history_id, user_id, running_key, instance, leased, follows_task)| StoredDraft {
            turn_id,
            history_id,
            user_id,
            running_key,
            holder: instance.map(|instance_id| Holder { instance_id, leased: leased == 1 }),
            follows_task: follows_task == 1,
        })
        .collect())
}

/// How long a swept draft waits for an owner that was alive after all.
const SWEPT_KEPT_SECONDS: i64 = 60 * 60;

/// Forgets the drafts swept over an hour ago: no turn runs that long without saving.
pub async fn forget_swept(pool: &Pool) -> AppResult<u64> {
    let forgotten = sqlx::query(&format!(
        "DELETE FROM turn_drafts WHERE swept_first_seq IS NOT NULL AND updated_at < {}",
        Backend::of(pool).seconds_from_now("$1")
    ))
    .bind(-SWEPT_KEPT_SECONDS)
    .execute(pool)
    .await?;
    Ok(forgotten.rows_affected())
}
