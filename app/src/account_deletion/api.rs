//! The server function that deletes the caller's account.

use leptos::prelude::*;

use super::DeletedAccount;
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server_fn;

/// Deletes the caller's account and everything it owns, once `password` is theirs; the
/// session cookie is cleared.
#[server(prefix = "/api", endpoint = "delete_account")]
pub async fn delete_account(password: String) -> Result<DeletedAccount, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let address = server_fn::client_address(&state).await;
    let deleted =
        super::delete_account(&state.accounts, &state.conversations, &state.uploads, &caller, &password, &address)
            .await?;
    server_fn::set_cookie(&crate::accounts::auth::clear_session_cookie(server_fn::secure_cookies(&state).await));
    Ok(deleted)
}
