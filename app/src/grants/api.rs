//! The grants' server functions, for Settings.

use leptos::prelude::*;

use super::Grant;
use crate::error::AppError;
#[cfg(feature = "ssr")]
use crate::server_fn;

/// The caller's live grants.
#[server(prefix = "/api", endpoint = "list_grants")]
pub async fn list_grants() -> Result<Vec<Grant>, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    super::store::list(&state.pool, &caller.user.id).await
}

/// Revokes one of the caller's grants: the next call of its tool asks again.
#[server(prefix = "/api", endpoint = "revoke_grant")]
pub async fn revoke_grant(id: String) -> Result<(), AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if super::store::revoke(&state.pool, &caller.user.id, &id).await? { Ok(()) } else { Err(AppError::GrantNotFound) }
}
