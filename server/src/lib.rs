//! Palaver's server: the axum router (API, server functions, the Leptos app) and start-up.

pub mod asks_cli;
pub mod config;
mod observe;
mod problem;
mod routes;

use std::sync::Arc;

use app::llm::ChatModel;
use app::state::AppState;
use app::turn::TurnRunner;
use app::{App, shell};
use axum::Router;
use axum::middleware;
use axum::routing::{get, post};
use leptos::prelude::*;
use leptos_axum::{LeptosRoutes, generate_route_list};
use sqlx::SqlitePool;

/// Builds the state the router serves from.
pub fn app_state(leptos_options: LeptosOptions, pool: SqlitePool, model: Arc<dyn ChatModel>) -> AppState {
    let turns = TurnRunner::new(pool.clone(), model);
    AppState { leptos_options, pool, turns }
}

/// The whole HTTP surface: the JSON API, the server functions and the server-rendered pages.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/health", get(routes::health))
        .route("/gpt/prompt", post(routes::gpt::prompt))
        .route("/gpt/histories", get(routes::gpt::list_histories).post(routes::gpt::create_history))
        .route("/gpt/histories/{id}", get(routes::gpt::read_history));
    let context_state = state.clone();
    let shell_options = state.leptos_options.clone();
    Router::new()
        .leptos_routes_with_context(
            &state,
            generate_route_list(App),
            move || provide_context(context_state.clone()),
            move || shell(shell_options.clone()),
        )
        .merge(api)
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(shell))
        .layer(middleware::from_fn(observe::observe))
        .with_state(state)
}
