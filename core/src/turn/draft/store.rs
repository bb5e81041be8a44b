//! The drafts as the sweeper reads them: each with what `running_turns` says of its turn (the
//! writes are with the turn's other rows, in `turn::store`).

use crate::conversation::running::Holder;
use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A stored draft, with what `running_turns` says of its turn.
pub struct StoredDraft {
    pub turn_id: String,
    pub history_id: String,
    pub user_id: String,
    pub running_key: String,
    /// What `running_turns` says of the turn, when it has its row (every turn has one from
    /// before its draft is written until it ends, or its lease lapses and it is forgotten).
    pub holder: Option<Holder>,
}

/// A draft as `drafts` reads it: turn, history, user, running key, holding instance, leased.
type DraftRow = (String, String, String, String, Option<String>, i64);

/// Every draft no sweeper has saved, in the order their turns began (the running keys are
/// time-ordered ids), so a conversation's drafts are saved in the order its turns would have
/// stored their rows.
pub async fn drafts(pool: &Pool) -> AppResult<Vec<StoredDraft>> {
    let found: Vec<DraftRow> = sqlx::query_as(&format!(
        "SELECT d.turn_id, d.history_id, d.user_id, d.running_key, r.instance_id,
                CAST(CASE WHEN r.lease_until > {now} THEN 1 ELSE 0 END AS BIGINT)
         FROM turn_drafts d LEFT JOIN running_turns r ON r.id = d.running_key
         WHERE d.swept_first_seq IS NULL
         ORDER BY d.running_key",
        now = Backend::of(pool).now(),
    ))
    .fetch_all(pool)
    .await?;
    Ok(found
        .into_iter()
        .map(|(turn_id, history_id, user_id, running_key, instance, leased)| StoredDraft {
            turn_id,
            history_id,
            user_id,
            running_key,
            holder: instance.map(|instance_id| Holder { instance_id, leased: leased == 1 }),
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
