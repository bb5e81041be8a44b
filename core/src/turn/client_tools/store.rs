//! The rows that answer the calls of a client's tools, stored as a resume is taken.

use crate::db::{Backend, Pool};
use crate::error::AppResult;
use crate::turn::store::{insert_rows, touch};
use palaver_wire::conversation::model::HistoryRow;

/// Stores the client's results of its tools' calls as the rows that answer them, at once: the
/// rows are the claim, so of two turns resumed by the same results one stores them and the
/// other is told they are there (`false`, nothing written). The conversation's row is locked
/// first (PostgreSQL), so the check and the insert are one step; SQLite runs writes one at a
/// time.
pub async fn append_client_results(
    pool: &Pool,
    history_id: &str,
    turn_id: &str,
    call_ids: &[&str],
    rows: &[HistoryRow],
) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    if !touch(&mut tx, history_id).await? {
        return Err(crate::error::AppError::HistoryNotFound.into());
    }
    let answered_by = Backend::of_tx(&tx).json_text("payload", "toolCallId");
    for call_id in call_ids {
        let (answered,): (i64,) = sqlx::query_as(&format!(
            "SELECT COUNT(*) FROM history_rows WHERE history_id = $1 AND row_type = 'tool-result' AND {answered_by} = $2"
        ))
        .bind(history_id)
        .bind(*call_id)
        .fetch_one(&mut *tx)
        .await?;
        if answered > 0 {
            return Ok(false);
        }
    }
    insert_rows(&mut tx, history_id, turn_id, rows).await?;
    tx.commit().await?;
    Ok(true)
}
