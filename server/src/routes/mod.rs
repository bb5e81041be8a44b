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
use serde_json::{Value, json};

/// 200 once the database answers (it is migrated before the server listens).
pub async fn health(State(pool): State<Pool>) -> (StatusCode, Json<Value>) {
    match app::db::ping(&pool).await {
        Ok(_) => (StatusCode::OK, Json(json!({"status": "ok"}))),
        Err(err) => {
            tracing::error!(%err, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"status": "unavailable"})))
        }
    }
}
