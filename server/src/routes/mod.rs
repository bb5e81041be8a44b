//! The HTTP API. Each module is a thin adapter over the app's runner and store.

pub mod audit;
pub mod auth;
pub mod events;
pub mod files;
pub mod gpt;
pub mod headless;

use app::db::Pool;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

/// Whether the server can serve.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when the database does not answer.
    status: &'static str,
}

/// 200 once the database answers (it is migrated before the server listens).
#[utoipa::path(get, path = "/health", tag = "meta", operation_id = "health", summary = "Whether the server can serve",
    responses((status = 200, description = "Serving", body = Health),
        (status = 503, description = "The database does not answer", body = Health)))]
pub async fn health(State(pool): State<Pool>) -> (StatusCode, Json<Health>) {
    match app::db::ping(&pool).await {
        Ok(_) => (StatusCode::OK, Json(Health { status: "ok" })),
        Err(err) => {
            tracing::error!(%err, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, Json(Health { status: "unavailable" }))
        }
    }
}
