//! A conversation's read-only share link: what its owner is told when they make it and when
//! they look at it later, and what the link shows anyone who has it.

use serde::{Deserialize, Serialize};

use super::model::{HistoryRow, HistoryView};

/// Where the page of a share link is: `/s/{token}`.
pub const SHARED_PAGE_PREFIX: &str = "/s/";

/// A share link as it is made (`POST /gpt/histories/{id}/share`): its token is shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ShareLink {
    pub token: String,
    /// The page's path, `/s/{token}`.
    pub url: String,
}

impl ShareLink {
    pub fn new(token: String) -> Self {
        let url = format!("{SHARED_PAGE_PREFIX}{token}");
        ShareLink { token, url }
    }
}

/// Whether a conversation is shared, and since when (its token is kept only as a hash, so it
/// is never shown again: sharing again makes a new link in place of the old one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ShareStatus {
    pub shared: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
}

/// A conversation as its share link shows it: as it is now, without who owns it, its ratings,
/// the ask it waits on (nobody answers through a link) or the ids of its files.
pub fn shared_view(mut view: HistoryView) -> HistoryView {
    view.user_id = None;
    view.ratings.clear();
    view.pending_ask = None;
    view.running = false;
    for row in &mut view.rows {
        if let HistoryRow::User { attachments, .. } = row {
            for file in attachments {
                file.file_id.clear();
            }
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::model::{Attachment, Rating};

    #[test]
    fn a_shared_view_keeps_the_transcript_and_drops_what_is_the_owners() {
        let file = Attachment {
            file_id: "file_1".into(),
            filename: "receipt.png".into(),
            mime_type: "image/png".into(),
            size: 10,
        };
        let view = HistoryView {
            id: "h1".into(),
            user_id: Some("u1".into()),
            title: Some("Receipts".into()),
            rows: vec![HistoryRow::User { text: "Here".into(), attachments: vec![file], from_app: None }],
            ratings: [(0, Rating::Up)].into_iter().collect(),
            running: true,
            ..Default::default()
        };
        let shared = shared_view(view);
        assert_eq!((shared.user_id, shared.ratings.len(), shared.running), (None, 0, false));
        let HistoryRow::User { text, attachments, .. } = &shared.rows[0] else { panic!("a message") };
        assert_eq!(
            (text.as_str(), attachments[0].filename.as_str(), attachments[0].file_id.as_str()),
            ("Here", "receipt.png", "")
        );
        assert_eq!(ShareLink::new("abc".into()).url, "/s/abc");
    }
}
