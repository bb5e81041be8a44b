//! The audit trail's server functions: the caller's own entries (Settings) and everyone's
//! (`/admin`).

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{self, Reported};
use palaver_wire::audit::AuditPage;
use palaver_wire::error::AppError;

/// How many entries a page of the Settings and admin lists shows.
pub const PAGE_SIZE: i64 = 50;

/// Decisions on the asks of the caller's conversations, newest first, older than `before`.
#[server(prefix = "/api", endpoint = "my_audit")]
pub async fn my_audit(before: Option<i64>) -> Result<AuditPage, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    palaver_core::audit::store::page(&state.pool, Some(&caller.user.id), before, PAGE_SIZE).await.reported()
}

/// Everyone's decisions, for admins.
#[server(prefix = "/api", endpoint = "admin_audit")]
pub async fn admin_audit(before: Option<i64>) -> Result<AuditPage, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    palaver_core::audit::store::page(&state.pool, None, before, PAGE_SIZE).await.reported()
}
