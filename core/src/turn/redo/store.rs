//! A redo's storage: the message it replaces, set aside with what followed it as a version of
//! the conversation, and the new turn's draft, in one transaction.

use crate::conversation::branches::store as branches;
use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::draft::store::{Draft, insert_draft};
use palaver_wire::conversation::model::HistoryRow;

/// The message a redo sends again (or its edit) takes the place of, and how many rows the
/// conversation has in all.
pub struct RedoneMessage {
    pub seq: i64,
    pub turn_id: String,
    pub text: String,
    /// The ids of the files it carried.
    pub attachments: Vec<String>,
    pub row_count: i64,
}

/// The message at index `from` of the conversation's rows, or its last message: `None` when
/// there is none, or the row there is not a message of the user's.
pub async fn message_at(pool: &Pool, history_id: &str, from: Option<i64>) -> AppResult<Option<RedoneMessage>> {
    let (filter, order, offset) = match from {
        Some(index) => ("", "seq", index),
        None => ("AND row_type = 'user'", "seq DESC", 0),
    };
    let row: Option<(i64, String, String, String, i64)> = sqlx::query_as(&format!(
        "SELECT seq, turn_id, row_type, CAST(payload AS TEXT),
                (SELECT COUNT(*) FROM history_rows WHERE history_id = $1)
         FROM history_rows WHERE history_id = $1 {filter} ORDER BY {order} LIMIT 1 OFFSET $2"
    ))
    .bind(history_id)
    .bind(offset)
    .fetch_optional(pool)
    .await?;
    Ok(row.and_then(|(seq, turn_id, row_type, payload, row_count)| {
        let Ok(HistoryRow::User { text, attachments, .. }) = serde_json::from_str(&payload) else { return None };
        (row_type == "user").then(|| RedoneMessage {
            seq,
            turn_id,
            text,
            attachments: attachments.into_iter().map(|file| file.file_id).collect(),
            row_count,
        })
    }))
}

/// Sets `message` and every row after it (the replies, tool calls and asks that followed)
/// aside as a version of the conversation. False, with nothing changed, when the rows are no
/// longer those the message was read with, an ask is pending, or the conversation is gone:
/// someone else moved first. The message sent in its place is stored as `draft` in the same
/// transaction, so a process killed after it loses neither.
pub async fn retract_from(
    pool: &Pool,
    history_id: &str,
    message: &RedoneMessage,
    draft: &Draft<'_>,
) -> AppResult<bool> {
    let backend = Backend::of(pool);
    let now = backend.now();
    let mut tx = crate::db::begin(pool).await?;
    let claimed = sqlx::query(&format!(
        "UPDATE histories SET updated_at = {now}
         WHERE id = $1 AND deleted_at IS NULL AND pending_ask IS NULL
           AND EXISTS (SELECT 1 FROM history_rows
                       WHERE history_id = $1 AND seq = $2 AND turn_id = $3 AND row_type = 'user')
           AND (SELECT COUNT(*) FROM history_rows WHERE history_id = $1 AND turn_id <> $5) = $4"
    ))
    .bind(history_id)
    .bind(message.seq)
    .bind(&message.turn_id)
    .bind(message.row_count)
    // The redo's own rows (an ask it cancelled on the way) are not someone else's move.
    .bind(draft.turn_id)
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() == 0 {
        return Ok(false);
    }
    branches::branch_from(&mut tx, history_id, message.seq).await?;
    // The conversation is there: the guarded write above found it.
    insert_draft(&mut *tx, backend, draft).await?;
    tx.commit().await?;
    Ok(true)
}

/// What showing another version came to.
#[derive(Debug, PartialEq, Eq)]
pub enum ShowOutcome {
    Shown,
    /// The conversation is not as the client saw it, waits on an ask, or is gone.
    Changed,
    /// The row is not a message with a version at `position`.
    NoSuchVersion,
}

/// Shows the version at `position` of the fork that begins with row `row` (an index of the
/// rows, as shown when the conversation had `seen_rows`), setting the rows shown there aside.
pub async fn show_version(
    pool: &Pool,
    history_id: &str,
    row: i64,
    position: i64,
    seen_rows: Option<i64>,
) -> AppResult<ShowOutcome> {
    let now = Backend::of(pool).now();
    let mut tx = crate::db::begin(pool).await?;
    let claimed = sqlx::query(&format!(
        "UPDATE histories SET updated_at = {now}
         WHERE id = $1 AND deleted_at IS NULL AND pending_ask IS NULL
           AND ($2 < 0 OR (SELECT COUNT(*) FROM history_rows WHERE history_id = $1) = $2)"
    ))
    .bind(history_id)
    .bind(seen_rows.unwrap_or(-1))
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() == 0 {
        return Ok(ShowOutcome::Changed);
    }
    let first: Option<(i64, String)> =
        sqlx::query_as("SELECT seq, row_type FROM history_rows WHERE history_id = $1 ORDER BY seq LIMIT 1 OFFSET $2")
            .bind(history_id)
            .bind(row)
            .fetch_optional(&mut *tx)
            .await?;
    let Some((first_seq, _)) = first.filter(|(_, row_type)| row_type == "user") else {
        return Ok(ShowOutcome::NoSuchVersion);
    };
    if !branches::show_branch(&mut tx, history_id, first_seq, position).await? {
        return Ok(ShowOutcome::NoSuchVersion);
    }
    tx.commit().await?;
    Ok(ShowOutcome::Shown)
}
