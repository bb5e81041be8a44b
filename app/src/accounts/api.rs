//! Server functions for accounts. Each checks the caller itself through
//! [`crate::server_fn::server_caller`], the same resolution the HTTP API uses.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{self, Reported};
#[cfg(feature = "ssr")]
use palaver_core::accounts::{auth, service};
use palaver_wire::accounts::{CreatedToken, PasswordOutcome, SignUpState, TokenSummary, UserView};
use palaver_wire::error::AppError;

#[server(prefix = "/api", endpoint = "current_user")]
pub async fn current_user() -> Result<Option<UserView>, AppError> {
    let (_, caller) = server_fn::optional_caller().await?;
    Ok(caller.map(|caller| caller.user))
}

#[cfg(feature = "ssr")]
async fn begin_session(result: palaver_core::error::AppResult<service::NewSession>) -> Result<UserView, AppError> {
    let state = server_fn::app_state()?;
    let session = result.reported()?;
    let secure = server_fn::secure_cookies(&state).await;
    server_fn::set_cookie(&auth::session_cookie(&session.secret, state.accounts.settings.session_idle, secure));
    Ok(session.user)
}

/// Who may sign up now, so the pages say it before a form is filled.
#[server(prefix = "/api", endpoint = "who_may_sign_up")]
pub async fn who_may_sign_up() -> Result<SignUpState, AppError> {
    let state = server_fn::app_state()?;
    service::sign_up_state(&state.accounts).await.reported()
}

#[server(prefix = "/api", endpoint = "sign_up")]
pub async fn sign_up(username: String, password: String) -> Result<UserView, AppError> {
    let state = server_fn::app_state()?;
    let address = server_fn::client_address(&state).await;
    begin_session(service::sign_up(&state.accounts, &username, &password, &address).await).await
}

/// Logs in; `end_other_sessions` (the form's checkbox, sent only when ticked) signs the user
/// out everywhere else.
#[server(prefix = "/api", endpoint = "log_in")]
pub async fn log_in(
    username: String,
    password: String,
    end_other_sessions: Option<String>,
) -> Result<UserView, AppError> {
    let state = server_fn::app_state()?;
    let address = server_fn::client_address(&state).await;
    let request =
        service::LogIn { username: &username, password: &password, end_other_sessions: end_other_sessions.is_some() };
    begin_session(service::log_in(&state.accounts, request, &address).await).await
}

#[server(prefix = "/api", endpoint = "log_out")]
pub async fn log_out() -> Result<(), AppError> {
    let state = server_fn::app_state()?;
    let headers = server_fn::headers().await?;
    service::log_out(&state.accounts, auth::session_secret(&headers)).await.reported()?;
    server_fn::set_cookie(&auth::clear_session_cookie(server_fn::secure_cookies(&state).await));
    Ok(())
}

/// Changes the caller's password; their other sessions end, and their API tokens unless
/// `keep_api_tokens` (the form's checkbox, sent only when ticked).
#[server(prefix = "/api", endpoint = "change_password")]
pub async fn change_password(
    current_password: String,
    new_password: String,
    keep_api_tokens: Option<String>,
) -> Result<PasswordOutcome, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let headers = server_fn::headers().await?;
    let kept = auth::session_secret(&headers).map(str::to_string);
    let address = server_fn::client_address(&state).await;
    let change = service::PasswordChange {
        current: &current_password,
        new: &new_password,
        kept_session: kept.as_deref(),
        keep_tokens: keep_api_tokens.is_some(),
    };
    service::change_password(&state.accounts, &caller, change, &address).await.reported()
}

/// Creates a token; `expires_in_days` is the form's choice (empty: it lasts until revoked).
#[server(prefix = "/api", endpoint = "create_api_token")]
pub async fn create_api_token(name: String, expires_in_days: Option<String>) -> Result<CreatedToken, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let days = match expires_in_days.as_deref().map(str::trim).filter(|days| !days.is_empty()) {
        Some(days) => Some(days.parse::<u32>().map_err(|_not_a_number| {
            AppError::BadRequest(format!("A token expires after a whole number of days, not “{days}”."))
        })?),
        None => None,
    };
    service::create_token(&state.accounts, &caller, &name, days).await.reported()
}

#[server(prefix = "/api", endpoint = "list_api_tokens")]
pub async fn list_api_tokens() -> Result<Vec<TokenSummary>, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    service::list_tokens(&state.accounts, &caller).await.reported()
}

#[server(prefix = "/api", endpoint = "revoke_api_token")]
pub async fn revoke_api_token(id: String) -> Result<(), AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    service::revoke_token(&state.accounts, &caller, &id).await.reported()
}

#[server(prefix = "/api", endpoint = "admin_list_users")]
pub async fn admin_list_users() -> Result<Vec<UserView>, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    service::admin_list_users(&state.accounts, &caller).await.reported()
}

#[server(prefix = "/api", endpoint = "admin_create_user")]
pub async fn admin_create_user(username: String, password: String, admin: bool) -> Result<UserView, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    service::admin_create_user(&state.accounts, &caller, &username, &password, admin).await.reported()
}

#[server(prefix = "/api", endpoint = "admin_set_disabled")]
pub async fn admin_set_disabled(user_id: String, disabled: bool) -> Result<UserView, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    service::admin_set_disabled(&state.accounts, &caller, &user_id, disabled).await.reported()
}

/// Sets another account's password; its sessions end, and its API tokens unless
/// `keep_api_tokens` (the form's checkbox, sent only when ticked).
#[server(prefix = "/api", endpoint = "admin_reset_password")]
pub async fn admin_reset_password(
    user_id: String,
    new_password: String,
    keep_api_tokens: Option<String>,
) -> Result<PasswordOutcome, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let keep = keep_api_tokens.is_some();
    service::admin_reset_password(&state.accounts, &caller, &user_id, &new_password, keep).await.reported()
}
