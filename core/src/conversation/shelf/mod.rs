//! How an owner keeps their conversations: pinned first, archived out of the list, or shared by
//! a read-only link. A share link's token is 32 random bytes (base64url) that only its hash is
//! kept of; it reads the conversation as it is now, and can answer nothing: no route takes an
//! answer or a message through it. Deleting the conversation or the account ends the link.

pub mod store;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::access::{HistoryAccess, authorize_history};
use super::service::Conversations;
use crate::accounts::auth::{Caller, secret_hash};
use crate::error::{AppError, AppResult};
use palaver_wire::conversation::model::HistoryView;
use palaver_wire::conversation::share::{ShareLink, ShareStatus, shared_view};
use palaver_wire::live::HistoryChange;
use store::Mark;

/// What an owner changes in how a conversation is kept; `None` leaves it as it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShelfChange {
    pub pinned: Option<bool>,
    pub archived: Option<bool>,
}

/// A new share link's token: 32 random bytes, base64url without padding.
fn new_share_token() -> AppResult<String> {
    let mut bytes = [0_u8; 32];
    getrandom::fill(&mut bytes).map_err(|err| {
        tracing::error!(%err, "no randomness available");
        AppError::Internal
    })?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

impl Conversations {
    /// Pins or archives a conversation the caller owns (or takes it back); each change is
    /// told to the owner's other tabs.
    pub async fn change_shelf(&self, caller: &Caller, id: &str, change: ShelfChange) -> AppResult<()> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        let marks = [
            (Mark::Pinned, change.pinned, HistoryChange::Pinned, HistoryChange::Unpinned),
            (Mark::Archived, change.archived, HistoryChange::Archived, HistoryChange::Unarchived),
        ];
        for (mark, wanted, on, off) in marks {
            let Some(wanted) = wanted else { continue };
            if !store::set_mark(&self.pool, id, mark, wanted).await? {
                return Err(AppError::HistoryNotFound.into());
            }
            self.tell(caller, id, if wanted { on } else { off }, None).await;
        }
        Ok(())
    }

    /// Makes a read-only link to a conversation the caller owns, in place of the one it had
    /// (an admin who may read it may not share it).
    pub async fn share(&self, caller: &Caller, id: &str) -> AppResult<ShareLink> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        let token = new_share_token()?;
        store::replace_share(&self.pool, id, &secret_hash(&token)).await?;
        self.tell(caller, id, HistoryChange::Shared, None).await;
        Ok(ShareLink::new(token))
    }

    /// Whether a conversation the caller owns is shared, and since when.
    pub async fn share_status(&self, caller: &Caller, id: &str) -> AppResult<ShareStatus> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        let since = store::shared_since(&self.pool, id).await?;
        Ok(ShareStatus { shared: since.is_some(), since })
    }

    /// Revokes the share link of a conversation the caller owns: it reads as not found at once.
    /// Returns whether it had one.
    pub async fn stop_sharing(&self, caller: &Caller, id: &str) -> AppResult<bool> {
        authorize_history(&self.pool, caller, id, HistoryAccess::Write).await?;
        let had_one = store::remove_share(&self.pool, id).await?;
        if had_one {
            self.tell(caller, id, HistoryChange::Unshared, None).await;
        }
        Ok(had_one)
    }

    /// Whether a share link's token opens a conversation now.
    pub async fn share_opens(&self, token: &str) -> AppResult<bool> {
        Ok(store::shared_history(&self.pool, &secret_hash(token)).await?.is_some())
    }

    /// The conversation a share link opens, as the link shows it (`shared_view`); not found
    /// for a token that opens nothing, however it is wrong.
    pub async fn read_shared(&self, token: &str) -> AppResult<HistoryView> {
        let history_id = store::shared_history(&self.pool, &secret_hash(token)).await?;
        let view = match history_id {
            Some(id) => self.view(&id).await?,
            None => None,
        };
        view.map(shared_view).ok_or_else(|| AppError::HistoryNotFound.into())
    }
}
