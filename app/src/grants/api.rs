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

/// Gives one of the caller's grants a new lifetime from now, in seconds (none: until revoked).
#[server(prefix = "/api", endpoint = "set_grant_lifetime")]
pub async fn set_grant_lifetime(id: String, #[server(default)] lifetime_seconds: Option<u32>) -> Result<(), AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if lifetime_seconds.is_some_and(|seconds| !palaver_wire::grants::LIFETIME_SECONDS.contains(&seconds)) {
        return Err(AppError::BadRequest("A grant lasts from a minute to thirty days.".into()));
    }
    let store = palaver_core::grants::store::set_lifetime(&state.pool, &caller.user.id, &id, lifetime_seconds);
    if store.await.reported()? { Ok(()) } else { Err(AppError::GrantNotFound) }
}

/// Changes what one of the caller's grants covers, `arguments` its patterns as JSON: the same
/// arguments, each pattern edited (a folder, a beginning, a range's bounds) or made *any value*.
#[server(prefix = "/api", endpoint = "edit_grant_patterns")]
pub async fn edit_grant_patterns(id: String, arguments: String) -> Result<(), AppError> {
    use palaver_wire::grants::{ArgumentPattern, ArgumentPatterns};
    let (state, caller) = server_fn::server_caller().await?;
    let edited: ArgumentPatterns = serde_json::from_str(&arguments)
        .map_err(|err| AppError::BadRequest(format!("The patterns could not be read: {err}.")))?;
    let store = palaver_core::grants::store::arguments_of(&state.pool, &caller.user.id, &id);
    let Some(Some(current)) = store.await.reported()? else { return Err(AppError::GrantNotFound) };
    if !current.keys().eq(edited.keys()) {
        return Err(AppError::BadRequest("A grant keeps the arguments it was given for.".into()));
    }
    for (key, (was, now)) in edited.iter().map(|(key, now)| (key, (&current[key], now))) {
        // Any value is always a choice; otherwise the pattern stays what it was, its text edited.
        let same_kind = std::mem::discriminant(was) == std::mem::discriminant(now);
        let fits = now.fits(was.implied_kind());
        match (now, same_kind, fits) {
            (ArgumentPattern::Any, ..) | (_, true, Ok(())) => {}
            (_, false, _) => return Err(AppError::BadRequest(format!("{key}: edit the pattern, or allow any value."))),
            (_, true, Err(why)) => return Err(AppError::BadRequest(format!("{key}: {why}"))),
        }
    }
    let saved = palaver_core::grants::store::set_arguments(&state.pool, &caller.user.id, &id, &edited);
    if saved.await.reported()? { Ok(()) } else { Err(AppError::GrantNotFound) }
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
