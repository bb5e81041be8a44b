//! The server function that deletes the caller's account.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{self, Reported};
use palaver_wire::accounts::DeletedAccount;
use palaver_wire::error::AppError;

/// Deletes the caller's account and everything it owns, once `password` is theirs; the
/// session cookie is cleared.
#[server(prefix = "/api", endpoint = "delete_account")]
pub async fn delete_account(password: String) -> Result<DeletedAccount, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let address = server_fn::client_address(&state).await;
    let reached = state.reached_by_account_deletion();
    let deleted =
        palaver_core::account_deletion::delete_account(reached, &caller, &password, &address).await.reported()?;
    server_fn::set_cookie(&palaver_core::accounts::auth::clear_session_cookie(server_fn::secure_cookies(&state).await));
    Ok(deleted)
}
