//! A conversation's view assembled from what its store read: its head, its rows, its versions.

use super::branches::branch_points;
use super::branches::store::StoredBranch;
use super::head::HeadRow;
use palaver_wire::conversation::model::{HistoryRow, HistoryView, Rating};

/// A row as stored: its JSON, rating, created, turn id, seq, the kept block check (JSON) and the
/// fingerprint of the settings it was made with.
pub(super) type StoredRow = (String, Option<String>, String, String, i64, Option<String>, Option<String>);

/// A conversation's view as read, and the block checks kept with its document replies.
pub struct ReadView {
    pub view: HistoryView,
    pub checks: Vec<KeptCheck>,
    /// Whether a grant for its current turn lives in the conversation.
    pub turn_granted: bool,
}

/// A document reply's block check as it was kept (none before its first read): the reply's
/// index in the view's rows, its row's seq and text (which a new check is kept against), the
/// fingerprint of the settings the check was made with, and the check as JSON.
pub struct KeptCheck {
    pub row: usize,
    pub seq: i64,
    pub payload: String,
    pub checked_with: Option<String>,
    pub check: Option<String>,
}

/// A check made on a read, to keep with its reply's row (`keep_block_checks`).
pub struct FreshCheck {
    pub history_id: String,
    pub seq: i64,
    pub payload: String,
    pub check: String,
}

/// Where the rows read begin: the index of the first among the conversation's rows, and the
/// turn of the row before it ("" at the conversation's start), which names a version there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowsStart {
    pub first_row: usize,
    pub turn_before: String,
}

/// The view of a conversation from its columns, its rows in order (from `start`) and its
/// version entries; ratings and versions are named by their index among all the conversation's
/// rows. The view leaves out the replay state (promptIndex, responseMessages) stored beside the
/// pending ask; an unreadable pending ask or row is left out and logged.
pub(super) fn assemble_view(
    head: HeadRow,
    stored: Vec<StoredRow>,
    versions: &[StoredBranch],
    start: &RowsStart,
) -> ReadView {
    let HeadRow {
        id,
        owner_id: user_id,
        title,
        pending_ask,
        model,
        created_at: created,
        updated_at: updated,
        summarised_before,
        turn_granted,
        ..
    } = head;
    let pending_ask = pending_ask.and_then(|json| match serde_json::from_str(&json) {
        Ok(pending) => Some(pending),
        Err(err) => {
            tracing::error!(%err, history = id, "unreadable pending ask left out of the view");
            None
        }
    });
    let mut rows = Vec::with_capacity(stored.len());
    let mut row_times = Vec::with_capacity(stored.len());
    let mut row_turns = Vec::with_capacity(stored.len());
    let mut ratings = std::collections::BTreeMap::new();
    let mut checks = Vec::new();
    for (payload, rating, created, turn_id, seq, check, checked_with) in stored {
        match serde_json::from_str(&payload) {
            Ok(row) => {
                if let Some(rating) = rating.as_deref().and_then(Rating::parse) {
                    ratings.insert(start.first_row + rows.len(), rating);
                }
                if let HistoryRow::Assistant { document: true, .. } = row {
                    checks.push(KeptCheck { row: rows.len(), seq, payload, checked_with, check });
                }
                rows.push(row);
                row_times.push(created);
                row_turns.push(turn_id);
            }
            Err(err) => tracing::error!(%err, history = id, "unreadable history row skipped"),
        }
    }
    let branches = branch_points(&start.turn_before, &row_turns, versions)
        .into_iter()
        .map(|(row, branches)| (start.first_row + row, branches))
        .collect();
    let view = HistoryView {
        id,
        user_id,
        title,
        created,
        updated,
        model,
        rows,
        row_times,
        ratings,
        branches,
        pending_ask,
        changeable_answer: None,
        running: false,
        summarised_before: summarised_before.and_then(|row| usize::try_from(row).ok()),
        window: None,
    };
    ReadView { view, checks, turn_granted: turn_granted == 1 }
}
