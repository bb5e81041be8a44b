//! The plumbing every server function shares: the app's state, the caller, the response's
//! status and cookies, and the one place a server function's error is logged. The HTTP routes
//! have their own extractors in the server crate.

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use leptos::prelude::*;
use leptos_axum::ResponseOptions;

use crate::state::AppState;
use palaver_core::accounts::auth::{Caller, require_caller, resolve_caller, wants_secure_cookie};
use palaver_wire::body::REQUEST_ID_HEADER;
use palaver_wire::error::{AppError, AppResult};

/// The state inside a server function (provided by `leptos_routes_with_context`).
pub fn app_state() -> AppResult<AppState> {
    use_context::<AppState>().ok_or_else(|| {
        tracing::error!("AppState is missing from the server function context");
        AppError::Internal
    })
}

/// The request's headers.
pub async fn headers() -> AppResult<HeaderMap> {
    leptos_axum::extract::<HeaderMap>().await.map_err(|err| {
        tracing::error!(error = %err, "a server function could not read its request's headers");
        AppError::Internal
    })
}

/// The client's address, for rate limits: the peer's, or the one a trusted proxy forwards
/// ("unknown" when the server does not know it).
pub async fn client_address(state: &AppState) -> String {
    let (Ok(ConnectInfo(peer)), Ok(headers)) =
        (leptos_axum::extract::<ConnectInfo<SocketAddr>>().await, headers().await)
    else {
        return "unknown".into();
    };
    state.accounts.settings.trusted_proxies.client(peer.ip(), &headers).to_string()
}

pub fn set_cookie(cookie: &str) {
    if let (Some(response), Ok(value)) = (use_context::<ResponseOptions>(), HeaderValue::from_str(cookie)) {
        response.append_header(header::SET_COOKIE, value);
    }
}

/// The state and the caller of a server function, when someone is signed in.
pub async fn optional_caller() -> AppResult<(AppState, Option<Caller>)> {
    let state = app_state()?;
    let caller = resolve_caller(&state.accounts, &headers().await?).await.reported()?;
    Ok((state, caller))
}

/// The state and the authenticated caller of a server function, or 401.
pub async fn server_caller() -> AppResult<(AppState, Caller)> {
    let state = app_state()?;
    let caller = require_caller(&state.accounts, &headers().await?).await.reported()?;
    Ok((state, caller))
}

pub async fn secure_cookies(state: &AppState) -> bool {
    wants_secure_cookie(&state.accounts.settings, &headers().await.unwrap_or_default())
}

/// A service's result as a server function returns it: an error's cause is logged here, once,
/// with the request's id, and only its kind goes to the client.
pub trait Reported<T> {
    fn reported(self) -> AppResult<T>;
}

impl<T> Reported<T> for palaver_core::error::AppResult<T> {
    fn reported(self) -> AppResult<T> {
        self.map_err(|err| {
            let request_id = use_context::<Parts>()
                .and_then(|parts| parts.headers.get(REQUEST_ID_HEADER)?.to_str().ok().map(str::to_string))
                .unwrap_or_default();
            err.log(&request_id, "a server function");
            err.into_kind()
        })
    }
}
