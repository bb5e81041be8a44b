//! The drafts as the sweeper reads them: each with what `running_turns` says of its turn (the
//! writes are with the turn's other rows, in `turn::store`).

use crate::chat::running::Holder;
use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A stored draft, with what `running_turns` says of its turn.
pub struct StoredDraft {
    pub turn_id: String,
    pub history_id: String,
    pub user_id: String,
    pub running_key: String,
    /// What `running_turns` says of the turn, when it has its row.
    pub holder: Option<Holder>,
    /// Written within the last `fresh_seconds`.
    pub fresh: bool,
}

/// A draft as `drafts` reads it: turn, history, user, running key, holding instance, leased,
/// fresh.
type DraftRow = (String, String, String, String, Option<String>, i64, i64);

/// Every draft, in the order their turns began (the running keys are time-ordered ids), so a
/// conversation's drafts are saved in the order its turns would have stored their rows.
pub async fn drafts(pool: &Pool, fresh_seconds: i64) -> AppResult<Vec<StoredDraft>> {
    let backend = Backend::of(pool);
    let found: Vec<DraftRow> = sqlx::query_as(&format!(
        "SELECT d.turn_id, d.history_id, d.user_id, d.running_key, r.instance_id,
                CAST(CASE WHEN r.lease_until > {now} THEN 1 ELSE 0 END AS BIGINT),
                CAST(CASE WHEN d.updated_at > {fresh} THEN 1 ELSE 0 END AS BIGINT)
         FROM turn_drafts d LEFT JOIN running_turns r ON r.id = d.running_key
         ORDER BY d.running_key",
        now = backend.now(),
        fresh = backend.seconds_from_now("$1"),
    ))
    .bind(-fresh_seconds)
    .fetch_all(pool)
    .await?;
    Ok(found
        .into_iter()
        .map(|(turn_id, history_id, user_id, running_key, instance, leased, fresh)| StoredDraft {
            turn_id,
            history_id,
            user_id,
            running_key,
            holder: instance.map(|instance_id| Holder { instance_id, leased: leased == 1 }),
            fresh: fresh == 1,
        })
        .collect())
}
