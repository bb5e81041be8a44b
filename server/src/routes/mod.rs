//! The HTTP API. Each module is a thin adapter over the app's runner and store.

pub mod agui;
pub mod approvals;
pub mod apps;
pub mod ask_reopen;
pub mod audit;
pub mod auth;
pub mod batch_answers;
pub mod branches;
pub mod events;
pub mod file_bytes;
pub mod files;
pub mod gpt;
pub mod headless;
pub mod mail;
pub mod push;
pub mod shares;
pub mod turn;
pub mod webhooks;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use palaver_core::db::Pool;
use palaver_core::turn::TurnRunner;
use serde::Serialize;
use utoipa::ToSchema;

/// Whether the server can serve.
#[derive(Serialize, ToSchema)]
pub struct Health {
    /// `ok`, or `unavailable` when the database does not answer.
    status: &'static str,
    detail: HealthDetail,
}

/// What an operator may want to know beside the status.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HealthDetail {
    /// `renewed` while this instance renews its running turns' leases, `failing` while it
    /// cannot (another instance may then take its turns for dead once their leases lapse).
    turn_leases: &'static str,
    /// How long the renewals have failed, in seconds, while they do.
    #[serde(skip_serializing_if = "Option::is_none")]
    turn_leases_failing_for_seconds: Option<u64>,
}

/// 200 once the database answers (it is migrated before the server listens).
#[utoipa::path(get, path = "/health", tag = "meta", operation_id = "health", summary = "Whether the server can serve",
    responses((status = 200, description = "Serving", body = Health),
        (status = 503, description = "The database does not answer", body = Health)))]
pub async fn health(State(pool): State<Pool>, State(turns): State<TurnRunner>) -> (StatusCode, Json<Health>) {
    let failing_for = turns.lease_health().failing_for();
    let detail = HealthDetail {
        turn_leases: if failing_for.is_some() { "failing" } else { "renewed" },
        turn_leases_failing_for_seconds: failing_for.map(|failing| failing.as_secs()),
    };
    match palaver_core::db::ping(&pool).await {
        Ok(_) => (StatusCode::OK, Json(Health { status: "ok", detail })),
        Err(err) => {
            tracing::error!(%err, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, Json(Health { status: "unavailable", detail }))
        }
    }
}
