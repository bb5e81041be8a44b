//! How an owner keeps a conversation: pinned, archived, shared by a link.

use serde::{Deserialize, Serialize};

/// How the owner keeps a conversation. Each is left out of JSON when false, so a reference
/// client sees nothing new.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shelf {
    /// Listed first, in the Pinned group.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pinned: bool,
    /// Out of the main list, in the Archived section, until a message is sent into it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub archived: bool,
    /// Readable by anyone with its share link.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shared: bool,
}
