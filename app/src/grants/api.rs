//! The grants' server functions, for Settings.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{self, Reported};
use palaver_wire::error::AppError;
use palaver_wire::grants::Grant;

/// The caller's live grants.
#[server(prefix = "/api", endpoint = "list_grants")]
pub async fn list_grants() -> Result<Vec<Grant>, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    palaver_core::grants::store::list(&state.pool, &caller.user.id).await.reported()
}

/// Revokes one of the caller's grants: the next call of its tool asks again.
#[server(prefix = "/api", endpoint = "revoke_grant")]
pub async fn revoke_grant(id: String) -> Result<(), AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if palaver_core::grants::store::revoke(&state.pool, &caller.user.id, &id).await.reported()? {
        Ok(())
    } else {
        Err(AppError::GrantNotFound)
    }
}
