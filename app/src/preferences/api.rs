//! The preferences' server functions.

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::server_fn::{self, Reported};
use palaver_wire::error::AppError;
use palaver_wire::preferences::{ServerSettings, UserPreferences};

/// The caller's custom instructions and default model.
#[server(prefix = "/api", endpoint = "my_preferences")]
pub async fn my_preferences() -> Result<UserPreferences, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    palaver_core::preferences::service::user_preferences(&state.pool, &caller.user.id).await.reported()
}

/// Saves the caller's custom instructions and default model (empty: the server's).
#[server(prefix = "/api", endpoint = "save_preferences")]
pub async fn save_preferences(instructions: String, default_model: String) -> Result<UserPreferences, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let preferences = UserPreferences { instructions, default_model: Some(default_model) };
    let models = &state.conversations.models;
    palaver_core::preferences::service::save_user_preferences(&state.pool, models, &caller.user.id, preferences)
        .await
        .reported()
}

/// Whether anyone may sign up, and the models on offer (admins).
#[server(prefix = "/api", endpoint = "admin_server_settings")]
pub async fn admin_server_settings() -> Result<ServerSettings, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    let (models, open_at_start) = (&state.conversations.models, state.accounts.settings.open_signup);
    palaver_core::preferences::service::server_settings(&state.pool, models, open_at_start).await.reported()
}

/// Saves whether anyone may sign up and the models on offer, `offered` their ids joined by
/// commas (a model id never holds one: `PALAVER_MODELS` separates them so).
#[server(prefix = "/api", endpoint = "admin_save_server_settings")]
pub async fn admin_save_server_settings(open_signup: bool, offered: String) -> Result<ServerSettings, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    let offered: Vec<String> =
        offered.split(',').map(str::trim).filter(|id| !id.is_empty()).map(String::from).collect();
    let models = &state.conversations.models;
    palaver_core::preferences::service::save_server_settings(&state.pool, models, open_signup, &offered)
        .await
        .reported()
}
