//! The follow-on turn's storage: taking a cut-off turn's draft over, in one transaction.

use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::draft::interrupted_reply;
use crate::turn::draft::store::{Draft, insert_draft};
use crate::turn::pending::held_call::HeldCall;
use crate::turn::store::{claim_draft, insert_rows, touch};
use palaver_wire::conversation::model::HistoryRow;

/// The follow-on turn's place: its first draft is stored with the take-over.
pub struct NextDraft<'a> {
    pub turn_id: &'a str,
    pub history_id: &'a str,
    pub user_id: &'a str,
    pub running_key: &'a str,
}

/// What a take-over found.
pub enum TakeOver {
    /// The call and its task, and the reply so far.
    Taken(Box<HeldCall>, String),
    /// The draft is not to be taken: its turn runs still, or another sweeper took it first.
    Running,
    /// There is nothing to follow on: the conversation is gone, or the task is unreadable.
    Unfollowable,
}

/// Takes the draft of the cut-off `dead_turn` over when no instance holds its turn any more
/// (the check a sweeper's save makes, [`claim_draft`]): its rows are stored but for the reply
/// so far, which begins the follow-on turn's first draft, stored with the task. Nothing is
/// written unless all of it is.
pub async fn take_over_draft(
    pool: &Pool,
    dead_turn: &str,
    next: &NextDraft<'_>,
    instance_id: &str,
    other_instances: bool,
) -> AppResult<TakeOver> {
    let mut tx = crate::db::begin(pool).await?;
    if !touch(&mut tx, next.history_id).await? {
        return Ok(TakeOver::Unfollowable);
    }
    let Some(claimed) = claim_draft(&mut tx, next.history_id, dead_turn, instance_id, other_instances).await? else {
        return Ok(TakeOver::Running);
    };
    let task = match claimed.task_json.as_deref().map(serde_json::from_str::<HeldCall>) {
        Some(Ok(task)) => task,
        Some(Err(err)) => {
            tracing::error!(%err, history = next.history_id, "a cut-off turn's task is unreadable");
            return Ok(TakeOver::Unfollowable);
        }
        None => return Ok(TakeOver::Unfollowable),
    };
    let mut rows = claimed.rows(next.history_id);
    let reply = match rows.pop() {
        Some(HistoryRow::Assistant { text, interrupted: true, .. }) => text,
        other => {
            rows.extend(other);
            String::new()
        }
    };
    insert_rows(&mut tx, next.history_id, dead_turn, &rows).await?;
    let first = [interrupted_reply(reply.clone(), None)];
    let draft = Draft {
        turn_id: next.turn_id,
        history_id: next.history_id,
        user_id: next.user_id,
        running_key: next.running_key,
        rows: &first,
        task: Some(&task),
    };
    if !insert_draft(&mut *tx, Backend::of(pool), &draft).await? {
        return Ok(TakeOver::Unfollowable);
    }
    tx.commit().await?;
    Ok(TakeOver::Taken(Box::new(task), reply))
}
