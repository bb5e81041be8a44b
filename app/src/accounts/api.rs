//! Server functions for accounts. Each checks the caller itself through [`server_caller`], the
//! same resolution the HTTP API uses.

use leptos::prelude::*;

use super::model::{CreatedToken, TokenSummary, UserView};
use crate::error::AppError;

#[cfg(feature = "ssr")]
mod server {
    use std::net::SocketAddr;

    use axum::extract::ConnectInfo;
    use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
    use leptos::prelude::*;
    use leptos_axum::ResponseOptions;

    use crate::accounts::auth::{Caller, require_caller, resolve_caller, wants_secure_cookie};
    use crate::error::{AppError, AppResult};
    use crate::state::{AppState, app_state};

    pub async fn headers() -> AppResult<HeaderMap> {
        leptos_axum::extract::<HeaderMap>().await.map_err(|_| AppError::Internal)
    }

    /// The client's address, for rate limits ("unknown" when the server does not know it).
    pub async fn client_address() -> String {
        leptos_axum::extract::<ConnectInfo<SocketAddr>>()
            .await
            .map(|ConnectInfo(addr)| addr.ip().to_string())
            .unwrap_or_else(|_| "unknown".into())
    }

    /// Sets the HTTP status of a failed server function to its error's status.
    pub fn with_status<T>(result: AppResult<T>) -> AppResult<T> {
        if let Err(err) = &result
            && let Some(response) = use_context::<ResponseOptions>()
        {
            response.set_status(StatusCode::from_u16(err.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR));
            if let AppError::TooManyRequests { retry_after_secs, .. } = err
                && let Ok(value) = HeaderValue::from_str(&retry_after_secs.to_string())
            {
                response.insert_header(header::RETRY_AFTER, value);
            }
        }
        result
    }

    pub fn set_cookie(cookie: &str) {
        if let (Some(response), Ok(value)) = (use_context::<ResponseOptions>(), HeaderValue::from_str(cookie)) {
            response.append_header(header::SET_COOKIE, value);
        }
    }

    pub async fn optional_caller() -> AppResult<(AppState, Option<Caller>)> {
        let state = app_state()?;
        let caller = resolve_caller(&state, &headers().await?).await?;
        Ok((state, caller))
    }

    /// The state and the authenticated caller of a server function, or 401.
    pub async fn server_caller() -> AppResult<(AppState, Caller)> {
        let state = app_state()?;
        let caller = with_status(require_caller(&state, &headers().await?).await)?;
        Ok((state, caller))
    }

    pub async fn secure_cookies(state: &AppState) -> bool {
        wants_secure_cookie(state, &headers().await.unwrap_or_default())
    }
}

#[cfg(feature = "ssr")]
pub use server::{server_caller, with_status};

#[server(prefix = "/api", endpoint = "current_user")]
pub async fn current_user() -> Result<Option<UserView>, AppError> {
    let (_, caller) = server::optional_caller().await?;
    Ok(caller.map(|caller| caller.user))
}

#[cfg(feature = "ssr")]
async fn begin_session(result: Result<super::service::NewSession, AppError>) -> Result<UserView, AppError> {
    let state = crate::state::app_state()?;
    let session = server::with_status(result)?;
    let secure = server::secure_cookies(&state).await;
    server::set_cookie(&super::auth::session_cookie(&session.secret, state.auth.session_idle, secure));
    Ok(session.user)
}

#[server(prefix = "/api", endpoint = "sign_up")]
pub async fn sign_up(username: String, password: String) -> Result<UserView, AppError> {
    let state = crate::state::app_state()?;
    begin_session(super::service::sign_up(&state, &username, &password).await).await
}

#[server(prefix = "/api", endpoint = "log_in")]
pub async fn log_in(username: String, password: String) -> Result<UserView, AppError> {
    let state = crate::state::app_state()?;
    let address = server::client_address().await;
    begin_session(super::service::log_in(&state, &username, &password, &address).await).await
}

#[server(prefix = "/api", endpoint = "log_out")]
pub async fn log_out() -> Result<(), AppError> {
    let state = crate::state::app_state()?;
    let headers = server::headers().await?;
    server::with_status(super::service::log_out(&state, super::auth::session_secret(&headers)).await)?;
    server::set_cookie(&super::auth::clear_session_cookie(server::secure_cookies(&state).await));
    Ok(())
}

#[server(prefix = "/api", endpoint = "create_api_token")]
pub async fn create_api_token(name: String) -> Result<CreatedToken, AppError> {
    let (state, caller) = server::server_caller().await?;
    server::with_status(super::service::create_token(&state, &caller, &name).await)
}

#[server(prefix = "/api", endpoint = "list_api_tokens")]
pub async fn list_api_tokens() -> Result<Vec<TokenSummary>, AppError> {
    let (state, caller) = server::server_caller().await?;
    server::with_status(super::service::list_tokens(&state, &caller).await)
}

#[server(prefix = "/api", endpoint = "revoke_api_token")]
pub async fn revoke_api_token(id: String) -> Result<(), AppError> {
    let (state, caller) = server::server_caller().await?;
    server::with_status(super::service::revoke_token(&state, &caller, &id).await)
}

#[server(prefix = "/api", endpoint = "admin_list_users")]
pub async fn admin_list_users() -> Result<Vec<UserView>, AppError> {
    let (state, caller) = server::server_caller().await?;
    server::with_status(super::service::admin_list_users(&state, &caller).await)
}

#[server(prefix = "/api", endpoint = "admin_create_user")]
pub async fn admin_create_user(username: String, password: String, admin: bool) -> Result<UserView, AppError> {
    let (state, caller) = server::server_caller().await?;
    server::with_status(super::service::admin_create_user(&state, &caller, &username, &password, admin).await)
}
