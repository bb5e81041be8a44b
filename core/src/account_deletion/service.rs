//! The deletion itself: confirm, stop, remove.

use super::store;
use crate::accounts::auth::Accounts;
use crate::accounts::auth::Caller;
use crate::accounts::service::confirm_account_deletion;
use crate::conversation::Conversations;
use crate::error::AppResult;
use crate::push::Push;
use crate::uploads::Uploads;
use crate::webhooks::Webhooks;
use palaver_wire::accounts::DeletedAccount;

/// The services an account's deletion reaches.
pub struct Reached<'a> {
    pub accounts: &'a Accounts,
    pub conversations: &'a Conversations,
    pub uploads: &'a Uploads,
    pub push: &'a Push,
    pub webhooks: &'a Webhooks,
}

/// Deletes the caller's account once their password is confirmed (and they are not the
/// last admin of an instance with other users). Their conversations close first and their
/// running turns stop, then the rows go in one transaction, then the files' bytes (a
/// failure there is logged: the account is gone either way), and what was kept in memory of
/// their devices and webhooks.
pub async fn delete_account(
    reached: Reached<'_>,
    caller: &Caller,
    password: &str,
    address: &str,
) -> AppResult<DeletedAccount> {
    let Reached { accounts, conversations, uploads, push, webhooks } = reached;
    confirm_account_deletion(accounts, caller, password, address).await?;
    let user_id = caller.user.id.as_str();
    for history_id in store::close_conversations(&accounts.pool, user_id).await? {
        conversations.running.stop(&history_id).await;
    }
    let removed = store::remove_everything(&accounts.pool, user_id).await?;
    if let Some(files) = &uploads.files {
        files.remove(&removed.file_ids).await;
    }
    push.account_deleted(user_id).await;
    webhooks.account_deleted(user_id).await;
    tracing::info!(user = user_id, conversations = removed.conversations, "account deleted");
    Ok(DeletedAccount { deleted: true, conversations: removed.conversations, files: removed.file_ids.len() as u64 })
}
