//! A window of a long conversation: the chat reads its newest rows first, older ones as the
//! person scrolls up (`earlier`), and after a turn only its last exchange and the rows after it
//! (`latest`), so each read costs the same however long the conversation grows. A window
//! begins at a message of the person's, so an ask and its answer are never split between two.
//! How the windows read join into one view is `joined_rows`.

use serde::{Deserialize, Serialize};

/// How many rows a window holds at least, when that many came before its end (it reaches back
/// to the message their first row answers).
pub const WINDOW_ROWS: u32 = 40;

/// Where a view's rows sit in their conversation (Palaver's addition, only in the chat's view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RowWindow {
    /// The index among the conversation's rows of the view's first row.
    pub first_row: usize,
    /// The `before` that reads the rows just before these; `None` when they start the conversation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub earlier: Option<i64>,
    /// The `from` that reads these rows' last exchange again and every row stored after it.
    pub latest: i64,
}

/// Which rows of a conversation a read wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsWanted {
    /// The newest window.
    Newest,
    /// The window that ends before a window's `earlier`.
    Before(i64),
    /// A window's `latest` on: its last exchange again, and whatever came after it.
    From(i64),
}

impl RowsWanted {
    /// The rows a read asks for with `before` or `from` (both is a mistake the error names).
    pub fn new(before: Option<i64>, from: Option<i64>) -> Result<Self, String> {
        match (before, from) {
            (None, None) => Ok(RowsWanted::Newest),
            (Some(before), None) => Ok(RowsWanted::Before(before)),
            (None, Some(from)) => Ok(RowsWanted::From(from)),
            (Some(_), Some(_)) => Err("Send either before or from, not both.".into()),
        }
    }
}
