//! Who may use a conversation: its owner; admins may also read other people's.

use crate::db::Pool;

use crate::accounts::auth::Caller;
use crate::error::{AppError, AppResult};

/// What the caller wants to do with a conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryAccess {
    Read,
    /// Send a turn, rename or delete: a turn speaks as the owner, so only the owner may.
    Write,
}

/// Checks that `caller` may use the conversation `id`: 404 when there is none, 403 when it is
/// someone else's (also for an admin who wants to write to it).
pub async fn authorize_history(pool: &Pool, caller: &Caller, id: &str, access: HistoryAccess) -> AppResult<()> {
    let Some(owner) = super::store::history_owner(pool, id).await? else {
        return Err(AppError::HistoryNotFound.into());
    };
    authorize_owned(caller, owner.as_deref(), access)
}

/// Checks that `caller` may use a conversation of `owner` (read already): 403 when it is
/// someone else's (also for an admin who wants to write to it).
pub fn authorize_owned(caller: &Caller, owner: Option<&str>, access: HistoryAccess) -> AppResult<()> {
    let is_owner = owner == Some(caller.user.id.as_str());
    if is_owner || (access == HistoryAccess::Read && caller.is_admin()) {
        Ok(())
    } else {
        Err(AppError::NotHistoryOwner.into())
    }
}
