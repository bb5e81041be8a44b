//! The window's storage: one statement reads a window's rows with where they sit (how many rows
//! come before them, the turn of the row just before, the last message's seq), beside the
//! conversation's own columns and its versions, as a whole read has them.

use crate::conversation::branches;
use crate::conversation::store::{ROW_COLUMNS, ReadView, RowsStart, assemble_view, live_head};
use crate::db::Pool;
use crate::error::AppResult;
use palaver_wire::conversation::window::{RowWindow, RowsWanted};

/// A row of the window as `StoredRow` reads it, then how many rows come before the window, the
/// turn of the row just before it, and the seq of the window's last message.
type WindowRow =
    (String, Option<String>, String, String, i64, Option<String>, Option<String>, i64, Option<String>, Option<i64>);

/// The seq a window of `$3` rows ending before `$2` begins at: the message of the person's that
/// its first row follows (all the rows before `$2` when fewer than `$3` come before it).
const WINDOW_START: &str = "COALESCE((SELECT MAX(u.seq) FROM history_rows u
     WHERE u.history_id = $1 AND u.row_type = 'user' AND u.seq <= (SELECT n.seq FROM history_rows n
         WHERE n.history_id = $1 AND n.seq < $2 ORDER BY n.seq DESC LIMIT 1 OFFSET $3)), -1)";

/// The rows of conversation `id` a read wants (a window of about `rows` rows, or from a seq on),
/// with its own columns and versions, the window's place in `view.window`; `None` when the
/// conversation is deleted or none. Its columns, the rows, and its versions when it has any.
pub async fn read_rows(pool: &Pool, id: &str, wanted: RowsWanted, rows: u32) -> AppResult<Option<ReadView>> {
    let mut connection = pool.acquire().await?;
    let Some(head) = live_head(&mut connection, id).await? else { return Ok(None) };
    // `$3` is the window's size less one, or the seq a read from a window's last exchange starts at.
    let window_less_one = i64::from(rows.max(1)) - 1;
    let (start, end, third) = match wanted {
        RowsWanted::Newest => (WINDOW_START, i64::MAX, window_less_one),
        RowsWanted::Before(before) => (WINDOW_START, before, window_less_one),
        RowsWanted::From(from) => ("CAST($3 AS BIGINT)", i64::MAX, from.max(0)),
    };
    let sql = format!(
        "WITH place AS MATERIALIZED (SELECT first_seq,
             (SELECT COUNT(*) FROM history_rows c WHERE c.history_id = $1 AND c.seq < first_seq) AS rows_before,
             (SELECT p.turn_id FROM history_rows p WHERE p.history_id = $1 AND p.seq < first_seq
              ORDER BY p.seq DESC LIMIT 1) AS turn_before,
             (SELECT MAX(l.seq) FROM history_rows l WHERE l.history_id = $1 AND l.row_type = 'user' AND l.seq < $2)
                 AS last_message
           FROM (SELECT {start} AS first_seq) s)
         SELECT {ROW_COLUMNS}, CAST(place.rows_before AS BIGINT), place.turn_before, place.last_message
         FROM history_rows JOIN place ON history_rows.seq >= place.first_seq
         WHERE history_rows.history_id = $1 AND history_rows.seq < $2
         ORDER BY history_rows.seq"
    );
    let found: Vec<WindowRow> = sqlx::query_as(&sql).bind(id).bind(end).bind(third).fetch_all(&mut *connection).await?;
    let versions = if head.versioned() { branches::store::branches(&mut *connection, id).await? } else { Vec::new() };
    drop(connection); // given back before the rows are parsed
    let first = found.first().map(|row| (row.4, row.7, row.8.clone(), row.9));
    let stored = found
        .into_iter()
        .map(|(payload, rating, created, turn, seq, check, checked_with, ..)| {
            (payload, rating, created, turn, seq, check, checked_with)
        })
        .collect();
    let (window, start) = match first {
        Some((first_seq, before, turn_before, last_message)) => {
            let first_row = usize::try_from(before).unwrap_or_default();
            let window = RowWindow {
                first_row,
                earlier: (first_row > 0).then_some(first_seq),
                latest: last_message.unwrap_or(first_seq).max(first_seq),
            };
            (window, RowsStart { first_row, turn_before: turn_before.unwrap_or_default() })
        }
        // No rows (an empty conversation, or none after `from`): a later read starts where this
        // one would have.
        None => {
            let latest = match wanted {
                RowsWanted::From(from) => from.max(0),
                _ => 0,
            };
            (RowWindow { first_row: 0, earlier: None, latest }, RowsStart::default())
        }
    };
    let mut read = assemble_view(head, stored, &versions, &start);
    read.view.window = Some(window);
    Ok(Some(read))
}
