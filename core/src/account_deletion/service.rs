//! The deletion itself: confirm, stop, remove.

use super::store;
use crate::accounts::auth::Accounts;
use crate::accounts::auth::Caller;
use crate::accounts::service::confirm_account_deletion;
use crate::conversation::Conversations;
use crate::error::AppResult;
use crate::uploads::Uploads;
use palaver_wire::accounts::DeletedAccount;

/// Deletes the caller's account once their password is confirmed (and they are not the
/// last admin of an instance with other users). Their conversations close first and their
/// running turns stop, then the rows go in one transaction, then the files' bytes (a
/// failure there is logged: the account is gone either way).
pub async fn delete_account(
    accounts: &Accounts,
    conversations: &Conversations,
    uploads: &Uploads,
    caller: &Caller,
    password: &str,
    address: &str,
) -> AppResult<DeletedAccount> {
    confirm_account_deletion(accounts, caller, password, address).await?;
    let user_id = caller.user.id.as_str();
    for history_id in store::close_conversations(&accounts.pool, user_id).await? {
        conversations.running.stop(&history_id).await;
    }
    let removed = store::remove_everything(&accounts.pool, user_id).await?;
    if let Some(files) = &uploads.files {
        files.remove(&removed.file_ids).await;
    }
    tracing::info!(user = user_id, conversations = removed.conversations, "account deleted");
    Ok(DeletedAccount { deleted: true, conversations: removed.conversations, files: removed.file_ids.len() as u64 })
}
