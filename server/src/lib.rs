//! Palaver's server: the axum router (API, server functions, the Leptos app) and start-up.

// Without type erasure (release builds), the page types nest deeper than the default limit.
#![recursion_limit = "256"]

mod access;
pub mod asks_cli;
pub mod audit_cli;
mod auth;
pub mod blocks_cli;
pub mod config;
mod content_type;
mod headers;
pub mod listen;
mod observe;
mod openapi;
mod problem;
mod route_table;
mod routes;
pub mod sandbox;
mod server_fn_status;

use std::sync::{Arc, LazyLock};

pub use access::{Access, ApiRoute};
use axum::Router;
use axum::middleware;
use leptos::prelude::*;
use leptos_axum::{AxumRouteListing, LeptosRoutes, generate_route_list};
use palaver_app::state::AppState;
use palaver_app::{App, shell};
use palaver_core::accounts::auth::{Accounts, AuthSettings};
use palaver_core::agui::AgUi;
use palaver_core::conversation::Conversations;
use palaver_core::conversation::running::RunningTurns;
use palaver_core::db::Pool;
use palaver_core::live::LiveHub;
use palaver_core::llm::Models;
use palaver_core::mail::{Mail, MailConfig};
use palaver_core::mcp::{AppsSandbox, McpHub};
use palaver_core::push::{Push, PushConfig};
use palaver_core::signals::Signals;
use palaver_core::turn::{TurnDependencies, TurnRunner, TurnSettings};
use palaver_core::uploads::Uploads;
use palaver_core::webhooks::{WebhookSettings, Webhooks};
pub use problem::is_api_path;
pub use route_table::api_route_table;

/// How Palaver reaches people outside its tabs: Web Push, webhooks and mail (off by default).
#[derive(Default)]
pub struct ReachConfig {
    pub push: PushConfig,
    pub webhooks: WebhookSettings,
    pub mail: MailConfig,
}

/// Builds the state the router serves from; `signals` reach the other instances on the
/// database (`Signals::connect`), or stay here (`Signals::local`). An error names the setting
/// of `reach` that is wrong.
#[allow(clippy::too_many_arguments)] // Each is a part made at start-up; a bundle of them would only be unpacked here.
pub fn app_state(
    leptos_options: LeptosOptions,
    pool: Pool,
    models: Models,
    auth: AuthSettings,
    turn_settings: TurnSettings,
    mut turn_dependencies: TurnDependencies,
    mcp: McpHub,
    signals: Signals,
    reach: ReachConfig,
) -> Result<AppState, String> {
    let running = RunningTurns::new(pool.clone(), signals.clone(), turn_settings.turn_lease);
    let live = LiveHub::new(pool.clone(), signals);
    let push = Push::start(pool.clone(), &live, reach.push);
    let webhooks = Webhooks::start(pool.clone(), &live, reach.webhooks);
    let mail = Mail::start(pool.clone(), &live, &reach.mail)?;
    let conversations =
        Conversations::new(pool.clone(), turn_settings.blocks.clone(), running.clone(), live.clone(), models.clone());
    let uploads = Uploads {
        pool: pool.clone(),
        files: turn_dependencies.files.clone(),
        max_file_size_bytes: turn_settings.max_file_size_bytes,
    };
    let accounts = Accounts::new(pool.clone(), auth);
    turn_dependencies.tool_sources.push(Arc::new(mcp.clone()));
    let turns =
        TurnRunner::new(pool.clone(), models, turn_settings, turn_dependencies, running).with_live(live.clone());
    let agui = AgUi::new(pool.clone(), turns.clone(), conversations.clone());
    Ok(AppState {
        leptos_options,
        pool,
        turns,
        accounts,
        conversations,
        uploads,
        mcp,
        apps: AppsSandbox::default(),
        live,
        push,
        webhooks,
        mail,
        agui,
    })
}

/// Every server function and who may call it; a server function missing here fails the
/// access-matrix test.
pub const SERVER_FN_ACCESS: &[(&str, Access)] = &[
    ("/api/current_user", Access::Public),
    ("/api/who_may_sign_up", Access::Public),
    ("/api/sign_up", Access::Public),
    ("/api/log_in", Access::Public),
    ("/api/log_out", Access::Public),
    ("/api/change_password", Access::Authenticated),
    ("/api/create_api_token", Access::Authenticated),
    ("/api/list_api_tokens", Access::Authenticated),
    ("/api/revoke_api_token", Access::Authenticated),
    ("/api/admin_list_users", Access::Admin),
    ("/api/admin_create_user", Access::Admin),
    ("/api/admin_set_disabled", Access::Admin),
    ("/api/admin_reset_password", Access::Admin),
    ("/api/delete_account", Access::Authenticated),
    ("/api/my_preferences", Access::Authenticated),
    ("/api/save_preferences", Access::Authenticated),
    ("/api/admin_server_settings", Access::Admin),
    ("/api/admin_save_server_settings", Access::Admin),
    ("/api/admin_mcp_status", Access::Admin),
    ("/api/admin_mcp_reconnect", Access::Admin),
    ("/api/my_audit", Access::Authenticated),
    ("/api/list_grants", Access::Authenticated),
    ("/api/revoke_grant", Access::Authenticated),
    ("/api/set_grant_lifetime", Access::Authenticated),
    ("/api/edit_grant_patterns", Access::Authenticated),
    ("/api/admin_audit", Access::Admin),
    ("/api/list_histories", Access::Authenticated),
    ("/api/get_history", Access::HistoryRead),
    ("/api/create_conversation", Access::Authenticated),
    ("/api/stop_turn", Access::HistoryWrite),
    ("/api/rename_conversation", Access::HistoryWrite),
    ("/api/list_models", Access::Authenticated),
    ("/api/choose_model", Access::HistoryWrite),
    ("/api/delete_conversation", Access::HistoryWrite),
    ("/api/list_archived", Access::Authenticated),
    ("/api/keep_conversation", Access::HistoryWrite),
    ("/api/share_conversation", Access::HistoryWrite),
    ("/api/sharing_state", Access::HistoryWrite),
    ("/api/stop_sharing", Access::HistoryWrite),
    // The token is the key: anyone who has it reads the conversation, and nothing more.
    ("/api/shared_conversation", Access::Public),
    ("/api/storybook_fixtures", Access::Public),
    ("/api/storybook_fixture", Access::Public),
    ("/api/storybook_block_stories", Access::Public),
    ("/api/storybook_block_story", Access::Public),
];

/// The app's routes, listed once per process. Listing renders the app with resource loading
/// suppressed through one process-wide flag (leptos-rs/leptos#4773), so listing them again
/// while another router serves a page would leave that page's resources pending forever.
static ROUTES: LazyLock<Vec<AxumRouteListing>> = LazyLock::new(|| generate_route_list(App));

/// The whole HTTP surface: the JSON API, the server functions and the server-rendered pages.
pub fn router(state: AppState) -> Router {
    let asks_on = state.turns.asks_on();
    let api = route_table::api_router(asks_on);
    let context_state = state.clone();
    let shell_options = state.leptos_options.clone();
    Router::new()
        .leptos_routes_with_context(
            &state,
            ROUTES.clone(),
            move || {
                provide_context(context_state.clone());
                headers::provide_page_nonce();
            },
            move || shell(shell_options.clone()),
        )
        .merge(api)
        .fallback(leptos_axum::file_and_error_handler_with_context::<AppState, _>(headers::provide_page_nonce, shell))
        .layer(middleware::from_fn_with_state(state.conversations.clone(), routes::shares::shared_headers))
        .layer(middleware::from_fn_with_state(state.clone(), auth::require_account_for_pages))
        .layer(middleware::from_fn(content_type::require_json_bodies))
        .layer(middleware::from_fn_with_state(state.clone(), auth::refuse_cross_site))
        .layer(middleware::from_fn_with_state(headers::SecurityHeaders::new(&state), headers::security_headers))
        .layer(middleware::from_fn(server_fn_status::server_fn_status))
        .layer(middleware::from_fn(problem::plain_errors_as_problems))
        .layer(middleware::from_fn(observe::observe))
        .layer(observe::request_id_layers())
        .layer(middleware::from_fn(observe::drop_unusable_request_id))
        .with_state(state)
}
