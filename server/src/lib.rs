//! Palaver's server: the axum router (API, server functions, the Leptos app) and start-up.

// Without type erasure (release builds), the page types nest deeper than the default limit.
#![recursion_limit = "256"]

pub mod asks_cli;
mod auth;
pub mod blocks_cli;
pub mod config;
mod content_type;
mod headers;
pub mod listen;
mod observe;
mod openapi;
mod problem;
mod routes;
mod server_fn_status;

use std::sync::{Arc, LazyLock};

use app::accounts::auth::{Accounts, AuthSettings};
use app::chat::Conversations;
use app::chat::running::RunningTurns;
use app::db::Pool;
use app::live::LiveHub;
use app::llm::Models;
use app::mcp::McpHub;
use app::signals::Signals;
use app::state::AppState;
use app::turn::{TurnRunner, TurnSettings};
use app::uploads::Uploads;
use app::{App, shell};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::Method;
use axum::middleware;
use axum::routing::{MethodRouter, delete, get, patch, post};
use leptos::prelude::*;
use leptos_axum::{AxumRouteListing, LeptosRoutes, generate_route_list};

/// Builds the state the router serves from; `signals` reach the other instances on the
/// database (`Signals::connect`), or stay here (`Signals::local`).
pub fn app_state(
    leptos_options: LeptosOptions,
    pool: Pool,
    models: Models,
    auth: AuthSettings,
    mut turn_settings: TurnSettings,
    mcp: McpHub,
    signals: Signals,
) -> AppState {
    let running = RunningTurns::new(pool.clone(), signals.clone(), turn_settings.turn_lease);
    let live = LiveHub::new(pool.clone(), signals);
    let conversations =
        Conversations::new(pool.clone(), turn_settings.blocks.clone(), running.clone(), live.clone(), models.clone());
    let uploads = Uploads {
        pool: pool.clone(),
        files: turn_settings.files.clone(),
        max_file_size_bytes: turn_settings.max_file_size_bytes,
    };
    let accounts = Accounts::new(pool.clone(), auth);
    turn_settings.tool_sources.push(Arc::new(mcp.clone()));
    let turns = TurnRunner::new(pool.clone(), models, turn_settings, running).with_live(live.clone());
    AppState { leptos_options, pool, turns, accounts, conversations, uploads, mcp, live }
}

/// Who may call a route. Handlers enforce it through their extractors (`Authenticated`) and
/// `authorize_history`; this table says which rule each route follows, and the access-matrix
/// test checks every route against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone.
    Public,
    /// Any signed-in caller (session cookie or bearer token).
    Authenticated,
    /// Signed-in admins only.
    Admin,
    /// The conversation named in the path or body: its owner; an admin may read, never write.
    HistoryRead,
    HistoryWrite,
}

/// One API route and its access rule.
pub struct ApiRoute {
    pub method: Method,
    pub path: &'static str,
    pub access: Access,
    /// A headless ask route: it exists only while asks are on, as the reference mounts it.
    pub asks_only: bool,
}

/// Every route of the JSON API. Routes are added here and only here, each with its rule.
fn api_routes() -> Vec<(ApiRoute, MethodRouter<AppState>)> {
    use routes::{auth as a, gpt as g, headless as h};
    let route = |method: Method, path, access, handler| (ApiRoute { method, path, access, asks_only: false }, handler);
    let headless =
        |method: Method, path, access, handler| (ApiRoute { method, path, access, asks_only: true }, handler);
    vec![
        route(Method::GET, "/health", Access::Public, get(routes::health)),
        route(Method::GET, openapi::PATH, Access::Public, get(openapi::serve)),
        route(Method::POST, "/auth/signup", Access::Public, post(a::signup)),
        route(Method::POST, "/auth/login", Access::Public, post(a::login)),
        route(Method::POST, "/auth/logout", Access::Public, post(a::logout)),
        route(Method::GET, "/auth/me", Access::Authenticated, get(a::me)),
        route(Method::POST, "/auth/password", Access::Authenticated, post(a::change_password)),
        route(Method::POST, "/auth/tokens", Access::Authenticated, post(a::create_token)),
        route(Method::GET, "/auth/tokens", Access::Authenticated, get(a::list_tokens)),
        route(Method::DELETE, "/auth/tokens/{id}", Access::Authenticated, delete(a::revoke_token)),
        route(Method::DELETE, "/auth/me", Access::Authenticated, delete(a::delete_account)),
        route(Method::GET, "/admin/users", Access::Admin, get(a::admin_list_users)),
        route(Method::PATCH, "/admin/users/{id}", Access::Admin, patch(a::admin_update_user)),
        route(Method::POST, "/admin/users/{id}/password", Access::Admin, post(a::admin_reset_password)),
        // Uploads stream to disk under their own cap, not axum's default body limit.
        route(
            Method::POST,
            "/files/upload",
            Access::Authenticated,
            post(routes::files::upload).layer(DefaultBodyLimit::disable()),
        ),
        route(Method::POST, "/gpt/prompt", Access::HistoryWrite, post(g::prompt)),
        route(Method::GET, "/gpt/histories", Access::Authenticated, get(g::list_histories)),
        route(Method::POST, "/gpt/histories", Access::Authenticated, post(g::create_history)),
        headless(Method::GET, "/gpt/histories/pendingAsks", Access::Authenticated, get(h::pending_asks)),
        route(Method::GET, "/gpt/histories/{id}", Access::HistoryRead, get(g::read_history)),
        route(Method::PATCH, "/gpt/histories/{id}", Access::HistoryWrite, patch(g::update_history)),
        route(Method::PATCH, "/gpt/histories/{id}/rating", Access::HistoryWrite, patch(g::rate)),
        route(Method::GET, "/gpt/models", Access::Authenticated, get(g::list_models)),
        route(Method::DELETE, "/gpt/histories/{id}", Access::HistoryWrite, delete(g::delete_history)),
        headless(Method::POST, "/gpt/histories/{id}/turn", Access::HistoryWrite, post(h::turn)),
        route(Method::GET, "/gpt/histories/{id}/stream", Access::HistoryRead, get(g::attach)),
        route(Method::GET, "/gpt/histories/{id}/export", Access::HistoryRead, get(g::export_history)),
        route(Method::POST, "/gpt/actions", Access::HistoryWrite, post(g::host_action)),
        // Admins may ask for everyone's entries (`all=true`); the handler checks.
        route(Method::GET, "/gpt/audit", Access::Authenticated, get(routes::audit::audit)),
        route(Method::GET, "/gpt/events", Access::Authenticated, get(routes::events::events)),
    ]
}

/// The API routes and their rules, for documentation and tests.
pub fn api_route_table() -> Vec<ApiRoute> {
    api_routes().into_iter().map(|(route, _)| route).collect()
}

/// Every server function and who may call it; a server function missing here fails the
/// access-matrix test.
pub const SERVER_FN_ACCESS: &[(&str, Access)] = &[
    ("/api/current_user", Access::Public),
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
    ("/api/admin_mcp_status", Access::Admin),
    ("/api/admin_mcp_reconnect", Access::Admin),
    ("/api/my_audit", Access::Authenticated),
    ("/api/list_grants", Access::Authenticated),
    ("/api/revoke_grant", Access::Authenticated),
    ("/api/admin_audit", Access::Admin),
    ("/api/list_histories", Access::Authenticated),
    ("/api/get_history", Access::HistoryRead),
    ("/api/create_conversation", Access::Authenticated),
    ("/api/stop_turn", Access::HistoryWrite),
    ("/api/rename_conversation", Access::HistoryWrite),
    ("/api/list_models", Access::Authenticated),
    ("/api/choose_model", Access::HistoryWrite),
    ("/api/delete_conversation", Access::HistoryWrite),
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
    let api = api_routes()
        .into_iter()
        .filter(|(route, _)| asks_on || !route.asks_only)
        .fold(Router::new(), |router, (route, handler)| router.route(route.path, handler));
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
