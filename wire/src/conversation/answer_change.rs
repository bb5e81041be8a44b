//! The answer a conversation's owner may still change, as the chat's view tells it
//! (`palaver_core::turn::reopen` decides).

use serde::{Deserialize, Serialize};

/// An answer that can still be changed: nothing but its reply came after it, and its window
/// (`until`, ISO 8601 UTC) is open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeableAnswer {
    pub tool_call_id: String,
    pub until: String,
}
