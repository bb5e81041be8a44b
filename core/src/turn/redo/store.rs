//! A redo's storage: the conversation's last message, and its retraction with the new turn's
//! draft in one transaction.

use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::store::{Draft, insert_draft};
use palaver_wire::conversation::model::HistoryRow;

/// The last message the user sent on a conversation, and how many rows it has in all.
pub struct LastMessage {
    pub seq: i64,
    pub turn_id: String,
    pub text: String,
    /// The ids of the files it carried.
    pub attachments: Vec<String>,
    pub row_count: i64,
}

pub async fn last_message(pool: &Pool, history_id: &str) -> AppResult<Option<LastMessage>> {
    let row: Option<(i64, String, String, i64)> = sqlx::query_as(
        "SELECT seq, turn_id, CAST(payload AS TEXT), (SELECT COUNT(*) FROM history_rows WHERE history_id = $1)
         FROM history_rows WHERE history_id = $1 AND row_type = 'user' ORDER BY seq DESC LIMIT 1",
    )
    .bind(history_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.map(|(seq, turn_id, payload, row_count)| {
        let (text, attachments) = match serde_json::from_str(&payload) {
            Ok(HistoryRow::User { text, attachments }) => (text, attachments),
            _ => Default::default(),
        };
        LastMessage {
            seq,
            turn_id,
            text,
            attachments: attachments.into_iter().map(|file| file.file_id).collect(),
            row_count,
        }
    }))
}

/// Retracts the last exchange: the message `last` and every row after it (the reply, its
/// tool calls and asks). False, with nothing changed, when that message is no longer the last
/// one, an ask is pending, or the conversation is gone: someone else moved first. The message
/// sent in its place is stored as `draft` in the same transaction, so a process killed after
/// it loses neither.
pub async fn retract_exchange(pool: &Pool, history_id: &str, last: &LastMessage, draft: &Draft<'_>) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let mut tx = pool.begin().await?;
    let claimed = sqlx::query(&format!(
        "UPDATE histories SET updated_at = {now}
         WHERE id = $1 AND deleted_at IS NULL AND pending_ask IS NULL
           AND EXISTS (SELECT 1 FROM history_rows
                       WHERE history_id = $1 AND seq = $2 AND turn_id = $3 AND row_type = 'user')
           AND NOT EXISTS (SELECT 1 FROM history_rows WHERE history_id = $1 AND seq > $2 AND row_type = 'user')"
    ))
    .bind(history_id)
    .bind(last.seq)
    .bind(&last.turn_id)
    .execute(&mut *tx)
    .await?;
    if claimed.rows_affected() == 0 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM history_rows WHERE history_id = $1 AND seq >= $2")
        .bind(history_id)
        .bind(last.seq)
        .execute(&mut *tx)
        .await?;
    insert_draft(&mut tx, draft).await?;
    tx.commit().await?;
    Ok(true)
}
