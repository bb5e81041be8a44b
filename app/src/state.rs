//! Server state shared by routes and server functions.

use axum::extract::FromRef;
use leptos::prelude::*;
use sqlx::SqlitePool;

use std::sync::Arc;

use crate::accounts::auth::{AuthSettings, LoginLimiter};
use crate::error::{AppError, AppResult};
use crate::turn::TurnRunner;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub pool: SqlitePool,
    pub turns: TurnRunner,
    pub auth: AuthSettings,
    pub limiter: Arc<LoginLimiter>,
}

/// The state inside a server function (provided by `leptos_routes_with_context`).
pub fn app_state() -> AppResult<AppState> {
    use_context::<AppState>().ok_or_else(|| {
        tracing::error!("AppState is missing from the server function context");
        AppError::Internal
    })
}
