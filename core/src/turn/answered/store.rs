//! The table of the answers a person may still change: the one written with the resolution.

use std::time::Duration;

use crate::db::{Backend, Tx, seconds};
use crate::error::AppResult;
use crate::turn::pending::StoredPendingAsk;

/// An answer just stored, to remember while it can be changed.
pub(in crate::turn) struct GivenAnswer<'a> {
    pub history_id: &'a str,
    /// The turn that resumed with the answer: the answer's rows and its reply are its rows.
    pub turn_id: &'a str,
    pub pending: &'a StoredPendingAsk,
    /// The answer's first row; the resumed turn's own output begins at `reply_seq`.
    pub first_seq: i64,
    pub reply_seq: i64,
}

/// Remembers `answer` for `window`, in place of the conversation's answer remembered before, in
/// the transaction that stores the answer.
pub(in crate::turn) async fn remember(tx: &mut Tx<'_>, answer: &GivenAnswer<'_>, window: Duration) -> AppResult<()> {
    let backend = Backend::of_tx(tx);
    let json = serde_json::to_string(answer.pending)?;
    sqlx::query(&format!(
        "INSERT INTO answered_asks
             (history_id, tool_call_id, turn_id, first_seq, reply_seq, pending_ask, expires_at, changeable_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, {})
         ON CONFLICT (history_id) DO UPDATE SET
             tool_call_id = excluded.tool_call_id, turn_id = excluded.turn_id, first_seq = excluded.first_seq,
             reply_seq = excluded.reply_seq, pending_ask = excluded.pending_ask, expires_at = excluded.expires_at,
             changeable_until = excluded.changeable_until",
        backend.seconds_from_now("$8")
    ))
    .bind(answer.history_id)
    .bind(&answer.pending.ask.tool_call_id)
    .bind(answer.turn_id)
    .bind(answer.first_seq)
    .bind(answer.reply_seq)
    .bind(backend.storable_text(&json))
    .bind(answer.pending.ask.expires_at.as_deref())
    .bind(seconds(window))
    .execute(&mut **tx)
    .await?;
    Ok(())
}
