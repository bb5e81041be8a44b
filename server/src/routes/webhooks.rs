//! `/webhooks/*` (Palaver's addition): a signed-in person's outgoing webhooks. They register
//! URLs with the events each wants, see the secret once (at creation and at each rotation),
//! change, disable or remove them, queue a test `ping`, and read each one's recent deliveries.
//! Someone else's webhook is 404, as one that does not exist.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use palaver_core::webhooks::{Refusal, Webhooks};
use palaver_wire::webhooks::{
    MAX_WEBHOOKS, NewWebhook, Webhook, WebhookChange, WebhookDeliveries, WebhookPingQueued, WebhookWithSecret,
    Webhooks as WebhookList,
};

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// A JSON body, or 400 saying what to send.
fn body<T: DeserializeOwned>(bytes: &Bytes, shape: &str) -> Result<T, Problem> {
    serde_json::from_slice(bytes)
        .map_err(|err| Problem::bad_request("Invalid request body").with_detail(format!("Send {shape}: {err}.")))
}

/// The problem a refusal is on the wire.
fn refused(refusal: Refusal) -> Problem {
    match refusal {
        Refusal::Fields(fields) => Problem::bad_request("Invalid webhook")
            .with_detail("The webhook cannot be saved as given. See fields.")
            .with_fields(json!(fields)),
        Refusal::TooMany => Problem::new(StatusCode::CONFLICT, "Too many webhooks")
            .with_detail(format!("You have {MAX_WEBHOOKS} webhooks, the most Palaver keeps: remove one first.")),
        Refusal::NotFound => {
            Problem::new(StatusCode::NOT_FOUND, "Webhook not found").with_detail("You have no webhook by that id.")
        }
    }
}

const NEW_SHAPE: &str = "{\"url\": \"https://…\", \"description\"?: \"…\", \"events\"?: [\"ask.created\", …]}";

/// `GET /webhooks`: the caller's webhooks.
#[utoipa::path(get, path = "/webhooks", tag = "webhooks", operation_id = "webhooks_list",
    summary = "Your outgoing webhooks",
    responses((status = 200, description = "Oldest first; never their secrets", body = WebhookList)))]
pub async fn list(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
) -> Result<Json<WebhookList>, Problem> {
    Ok(Json(webhooks.list(&caller.user.id).await?))
}

/// `POST /webhooks`: registers a webhook; the answer shows its secret, this once.
#[utoipa::path(post, path = "/webhooks", tag = "webhooks", operation_id = "webhooks_create",
    summary = "Register a webhook", request_body = NewWebhook,
    responses((status = 201, description = "The webhook, and its secret shown this once", body = WebhookWithSecret),
        (status = 400, description = "The URL, description or events are not valid; `fields` says which", body = ProblemBody),
        (status = 409, description = "The caller has the most webhooks Palaver keeps", body = ProblemBody)))]
pub async fn create(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<Response, Problem> {
    let new: NewWebhook = body(&bytes, NEW_SHAPE)?;
    let created = webhooks.create(&caller.user.id, &new).await?.map_err(refused)?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `PATCH /webhooks/{id}`: changes a webhook's URL, description, events, or whether it is enabled.
#[utoipa::path(patch, path = "/webhooks/{id}", tag = "webhooks", operation_id = "webhooks_update",
    summary = "Change a webhook, or enable or disable it", request_body = WebhookChange,
    params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "The webhook as changed", body = Webhook),
        (status = 400, description = "A field is not valid; `fields` says which", body = ProblemBody),
        (status = 404, description = "The caller has no webhook by that id", body = ProblemBody)))]
pub async fn update(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Json<Webhook>, Problem> {
    let change: WebhookChange = body(&bytes, "{\"url\"?, \"description\"?, \"events\"?, \"enabled\"?}")?;
    Ok(Json(webhooks.update(&caller.user.id, &id, &change).await?.map_err(refused)?))
}

/// `DELETE /webhooks/{id}`: removes a webhook and its deliveries.
#[utoipa::path(delete, path = "/webhooks/{id}", tag = "webhooks", operation_id = "webhooks_remove",
    summary = "Remove a webhook", params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 204, description = "Removed, with its deliveries"),
        (status = 404, description = "The caller has no webhook by that id", body = ProblemBody)))]
pub async fn remove(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<StatusCode, Problem> {
    webhooks.remove(&caller.user.id, &id).await?.map_err(refused)?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /webhooks/{id}/secret`: a new secret, shown this once; the old one signs nothing more.
#[utoipa::path(post, path = "/webhooks/{id}/secret", tag = "webhooks", operation_id = "webhooks_rotate_secret",
    summary = "Rotate a webhook's secret", params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "The webhook, and its new secret shown this once", body = WebhookWithSecret),
        (status = 404, description = "The caller has no webhook by that id", body = ProblemBody)))]
pub async fn rotate_secret(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<WebhookWithSecret>, Problem> {
    Ok(Json(webhooks.rotate_secret(&caller.user.id, &id).await?.map_err(refused)?))
}

/// `GET /webhooks/{id}/deliveries`: the webhook's recent deliveries.
#[utoipa::path(get, path = "/webhooks/{id}/deliveries", tag = "webhooks", operation_id = "webhooks_deliveries",
    summary = "A webhook's recent deliveries", params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 200, description = "Newest first, at most 50", body = WebhookDeliveries),
        (status = 404, description = "The caller has no webhook by that id", body = ProblemBody)))]
pub async fn deliveries(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Json<WebhookDeliveries>, Problem> {
    Ok(Json(webhooks.deliveries(&caller.user.id, &id).await?.map_err(refused)?))
}

/// `POST /webhooks/{id}/test`: queues a `ping` delivery.
#[utoipa::path(post, path = "/webhooks/{id}/test", tag = "webhooks", operation_id = "webhooks_test",
    summary = "Send a webhook a test ping", params(("id" = String, Path, description = "The webhook's id")),
    responses((status = 202, description = "The ping is queued", body = WebhookPingQueued),
        (status = 404, description = "The caller has no webhook by that id", body = ProblemBody)))]
pub async fn test(
    State(webhooks): State<Webhooks>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    let delivery_id = webhooks.ping(&caller.user.id, &id).await?.map_err(refused)?;
    Ok((StatusCode::ACCEPTED, Json(WebhookPingQueued { delivery_id })).into_response())
}
