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
    state.turns.preferences().of(&caller.user.id).await.reported()
}

/// Saves the caller's custom instructions and default model (empty: the server's).
#[server(prefix = "/api", endpoint = "save_preferences")]
pub async fn save_preferences(instructions: String, default_model: String) -> Result<UserPreferences, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    let preferences = UserPreferences { instructions, default_model: Some(default_model) };
    let models = &state.conversations.models;
    state.turns.preferences().save_user_preferences(models, &caller.user.id, preferences).await.reported()
}

/// Whether anyone may sign up, and the models on offer (admins).
#[server(prefix = "/api", endpoint = "admin_server_settings")]
pub async fn admin_server_settings() -> Result<ServerSettings, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    let (models, open_at_start) = (&state.conversations.models, state.accounts.settings.open_signup);
    state.turns.preferences().server_settings(models, open_at_start).await.reported()
}

/// Saves whether anyone may sign up and the models on offer, `offered` their ids joined by
/// commas (a model id never holds one: `PALAVER_MODELS` separates them so), and, when given, the
/// tools that never offer a grant, one name a line, and the approval routes as JSON (a list of
/// `{"tool" | "server", "approver": "<username>" | "admins", "approvals": 1 | 2}`).
#[server(prefix = "/api", endpoint = "admin_save_server_settings")]
pub async fn admin_save_server_settings(
    open_signup: bool,
    offered: String,
    #[server(default)] ungranted: Option<String>,
    #[server(default)] approval_routes: Option<String>,
) -> Result<ServerSettings, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    if let Some(ungranted) = ungranted {
        let names: Vec<String> = ungranted.lines().map(String::from).collect();
        state.turns.preferences().save_ungranted_tools(&names).await.reported()?;
    }
    if let Some(routes) = approval_routes {
        let routes = approval_routes_named(&state.pool, &routes).await?;
        state.turns.preferences().save_approval_routes(&routes).await.reported()?;
    }
    let offered: Vec<String> =
        offered.split(',').map(str::trim).filter(|id| !id.is_empty()).map(String::from).collect();
    let models = &state.conversations.models;
    state.turns.preferences().save_server_settings(models, open_signup, &offered).await.reported()
}

/// The approval routes an admin wrote (JSON, approvers by username), with each approver's id.
#[cfg(feature = "ssr")]
async fn approval_routes_named(
    pool: &palaver_core::db::Pool,
    text: &str,
) -> Result<Vec<palaver_wire::approvers::ApprovalRoute>, AppError> {
    use palaver_wire::approvers::{ApprovalRoute, ApprovalRouteInput, Approver};
    let written: Vec<ApprovalRouteInput> = if text.trim().is_empty() {
        Vec::new()
    } else {
        serde_json::from_str(text).map_err(|err| {
            AppError::BadRequest(format!(
                "The approval rules are not a JSON list of {{\"tool\" or \"server\", \"approver\", \"approvals\"}}: {err}."
            ))
        })?
    };
    let mut routes = Vec::with_capacity(written.len());
    for (index, rule) in written.into_iter().enumerate() {
        let approver = if rule.approver == "admins" {
            Approver::Admins
        } else {
            let found = palaver_core::accounts::store::find_login(pool, &rule.approver).await.reported()?;
            let Some((user, _)) = found else {
                return Err(AppError::BadRequest(format!("Rule {}: there is no user “{}”.", index + 1, rule.approver)));
            };
            Approver::User { id: user.id, username: user.username }
        };
        routes.push(ApprovalRoute { tool: rule.tool, server: rule.server, approver, approvals: rule.approvals });
    }
    Ok(routes)
}
