//! `/push/*` (Palaver's addition): Web Push. A signed-in person reads the server's key,
//! subscribes each device, lists, renames and removes them, and tells which conversation each
//! tab shows; a notification's button answers its ask through `POST /push/answer` with the
//! capability its push carried, and with nothing else (a session counts for nothing there).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use palaver_contract::asks::AskSurface;
use palaver_core::accounts::auth::{Caller, CallerVia};
use palaver_core::answer_links::{self, Claim, Redeemed, Surface};
use palaver_core::db::Pool;
use palaver_core::error::AppError;
use palaver_core::push::settings::check_settings;
use palaver_core::push::{Push, check_subscription};
use palaver_core::turn::{TurnRequest, TurnRunner};
use palaver_wire::push::{
    NewPushSubscription, NotificationSettings, Presence, PushAnswer, PushAnswered, PushDevices, PushKey,
    PushSubscribed, RenamePushSubscription,
};

use super::headless::button_answer;
use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// A JSON body, or 400 saying what to send.
pub(super) fn body<T: DeserializeOwned>(bytes: &Bytes, shape: &str) -> Result<T, Problem> {
    serde_json::from_slice(bytes)
        .map_err(|err| Problem::bad_request("Invalid request body").with_detail(format!("Send {shape}: {err}.")))
}

fn device_not_found() -> Problem {
    Problem::new(StatusCode::NOT_FOUND, "Device not found")
        .with_detail("You have no device getting notifications by that id.")
}

/// `GET /push/key`: the VAPID public key a browser subscribes with.
#[utoipa::path(get, path = "/push/key", tag = "push", operation_id = "push_key",
    summary = "The server's VAPID public key (applicationServerKey)",
    responses((status = 200, description = "The uncompressed P-256 point, base64url", body = PushKey)))]
pub async fn key(State(push): State<Push>, Authenticated(_): Authenticated) -> Result<Json<PushKey>, Problem> {
    Ok(Json(PushKey { public_key: push.public_key().await? }))
}

/// `POST /push/subscriptions`: stores a device's `PushSubscription` (the same endpoint again
/// takes its new keys and name).
#[utoipa::path(post, path = "/push/subscriptions", tag = "push", operation_id = "push_subscribe",
    summary = "Get notifications on a device", request_body = NewPushSubscription,
    responses((status = 201, description = "The subscription's id", body = PushSubscribed),
        (status = 400, description = "The endpoint or a key is not valid; `fields` says which", body = ProblemBody)))]
pub async fn subscribe(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<Response, Problem> {
    let new: NewPushSubscription =
        body(&bytes, "a PushSubscription's JSON ({endpoint, keys: {p256dh, auth}}) and an optional name")?;
    let checked = check_subscription(&new).map_err(|fields| {
        Problem::bad_request("Invalid push subscription")
            .with_detail("The subscription cannot receive pushes. See fields.")
            .with_fields(json!(fields))
    })?;
    let id = push.subscribe(&caller.user.id, checked).await?;
    Ok((StatusCode::CREATED, Json(PushSubscribed { id })).into_response())
}

/// `GET /push/subscriptions`: the caller's devices.
#[utoipa::path(get, path = "/push/subscriptions", tag = "push", operation_id = "push_devices",
    summary = "The devices that get your notifications",
    responses((status = 200, description = "Oldest first", body = PushDevices)))]
pub async fn devices(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
) -> Result<Json<PushDevices>, Problem> {
    Ok(Json(push.devices(&caller.user.id).await?))
}

/// `PATCH /push/subscriptions/{id}`: renames one of the caller's devices.
#[utoipa::path(patch, path = "/push/subscriptions/{id}", tag = "push", operation_id = "push_rename",
    summary = "Rename a device", request_body = RenamePushSubscription,
    params(("id" = String, Path, description = "The subscription's id")),
    responses((status = 204, description = "Renamed"),
        (status = 404, description = "The caller has no device by that id", body = ProblemBody)))]
pub async fn rename(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<StatusCode, Problem> {
    let RenamePushSubscription { name } = body(&bytes, "{\"name\": \"…\"}")?;
    if !push.rename(&caller.user.id, &id, &name).await? {
        return Err(device_not_found());
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /push/subscriptions/{id}`: stops notifications on one of the caller's devices.
#[utoipa::path(delete, path = "/push/subscriptions/{id}", tag = "push", operation_id = "push_remove",
    summary = "Stop notifications on a device", params(("id" = String, Path, description = "The subscription's id")),
    responses((status = 204, description = "Removed"),
        (status = 404, description = "The caller has no device by that id", body = ProblemBody)))]
pub async fn remove(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
) -> Result<StatusCode, Problem> {
    if !push.remove(&caller.user.id, &id).await? {
        return Err(device_not_found());
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `PUT /push/presence`: which conversation one of the caller's tabs shows while visible.
#[utoipa::path(put, path = "/push/presence", tag = "push", operation_id = "push_presence",
    summary = "Say which conversation a tab shows (no push for it meanwhile)", request_body = Presence,
    responses((status = 204, description = "Recorded for a minute")))]
pub async fn presence(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<StatusCode, Problem> {
    let presence: Presence = body(&bytes, "{\"tabId\": \"…\", \"historyId\": \"…\"}")?;
    push.set_presence(&caller.user.id, &presence).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /push/settings`: the caller's notification settings.
#[utoipa::path(get, path = "/push/settings", tag = "push", operation_id = "push_settings",
    summary = "Your notification settings: quiet hours, approvals that only open Palaver",
    responses((status = 200, description = "The defaults when none were saved", body = NotificationSettings)))]
pub async fn settings(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
) -> Result<Json<NotificationSettings>, Problem> {
    Ok(Json(push.notification_settings(&caller.user.id).await?))
}

/// `PUT /push/settings`: replaces the caller's notification settings.
#[utoipa::path(put, path = "/push/settings", tag = "push", operation_id = "push_save_settings",
    summary = "Set your quiet hours and the approvals that only open Palaver", request_body = NotificationSettings,
    responses((status = 200, description = "The settings as saved (tool names trimmed, once each)", body = NotificationSettings),
        (status = 400, description = "A time, the time zone or a tool name is not valid; `fields` says which", body = ProblemBody)))]
pub async fn save_settings(
    State(push): State<Push>,
    Authenticated(caller): Authenticated,
    bytes: Bytes,
) -> Result<Json<NotificationSettings>, Problem> {
    let sent: NotificationSettings = body(
        &bytes,
        "{\"quietHours\": {\"from\", \"until\", \"timeZone\"} or null, \"approvalsOpenOnly\", \"openOnlyTools\"}",
    )?;
    let checked = check_settings(sent).map_err(|fields| {
        Problem::bad_request("Invalid notification settings")
            .with_detail("The settings were not saved. See fields.")
            .with_fields(json!(fields))
    })?;
    push.save_notification_settings(&caller.user.id, &checked).await?;
    Ok(Json(checked.settings().clone()))
}

/// `POST /push/answer`: a notification's button. The capability alone decides: a session
/// cookie or a token beside it counts for nothing.
#[utoipa::path(post, path = "/push/answer", tag = "push", operation_id = "push_answer",
    summary = "Answer an ask from its notification, by the capability its push carried",
    request_body = PushAnswer,
    responses((status = 200, description = "The ask it answered", body = PushAnswered),
        (status = 404, description = "No such capability (forged, truncated, or long gone)", body = ProblemBody),
        (status = 409, description = "The capability was used already", body = ProblemBody),
        (status = 410, description = "The ask has ended (answered elsewhere, cancelled or expired)", body = ProblemBody)))]
pub async fn answer(
    State(turns): State<TurnRunner>,
    State(pool): State<Pool>,
    bytes: Bytes,
) -> Result<Json<PushAnswered>, Problem> {
    let PushAnswer { token } = body(&bytes, "{\"token\": \"…\"}")?;
    let claim = redeem_and_answer(&turns, &pool, Surface::Push, &token).await.map_err(|problem| {
        if problem.status == StatusCode::CONFLICT {
            problem.with_detail("Each notification button answers once.")
        } else {
            problem
        }
    })?;
    let Claim { history_id, tool_call_id, button_id, .. } = claim;
    Ok(Json(PushAnswered { history_id, tool_call_id, button_id }))
}

/// Uses `token`, a capability issued for `surface`, and gives its answer: the claim it
/// answered, or 404 (unknown), 409 (used already), 410 (the ask ended). A capability whose
/// answer failed on the server's side is given back, so it still works. The push button's
/// route and the mail link's page both answer through here.
pub(super) async fn redeem_and_answer(
    turns: &TurnRunner,
    pool: &Pool,
    surface: Surface,
    token: &str,
) -> Result<Claim, Problem> {
    let claim = match answer_links::redeem(pool, surface, token).await? {
        Redeemed::Claimed(claim) => claim,
        Redeemed::Unknown => return Err(Problem::new(StatusCode::NOT_FOUND, "Unknown answer token")),
        Redeemed::Used => return Err(Problem::new(StatusCode::CONFLICT, "This answer was given already")),
        Redeemed::Ended => return Err(ask_ended()),
    };
    match answer_with(turns, pool, &claim).await {
        Ok(()) => Ok(claim),
        Err(problem) if problem.status == StatusCode::GONE => Err(problem),
        Err(problem) => {
            if let Err(err) = answer_links::release(pool, &claim).await {
                tracing::error!(?err, "an answer token could not be given back after its answer failed");
            }
            Err(problem)
        }
    }
}

fn ask_ended() -> Problem {
    Problem::new(StatusCode::GONE, "This question has ended")
        .with_detail("It was answered elsewhere, cancelled or expired.")
}

/// Answers the claimed ask with its button, as its person through the surface it was issued for.
async fn answer_with(turns: &TurnRunner, pool: &Pool, claim: &Claim) -> Result<(), Problem> {
    let user = palaver_core::accounts::store::user_by_id(pool, &claim.user_id)
        .await?
        .filter(|user| !user.disabled)
        .ok_or_else(ask_ended)?;
    let via = match claim.surface {
        Surface::Push => CallerVia::Push,
        Surface::Mail => CallerVia::Mail,
    };
    let caller = Caller { user, via };
    let ended = |problem: Problem| if problem.status == StatusCode::CONFLICT { ask_ended() } else { problem };
    let input =
        button_answer(pool, &claim.history_id, claim.tool_call_id.clone(), &claim.button_id).await.map_err(ended)?;
    let request = TurnRequest::plain(caller, Some(claim.history_id.clone()), input, AskSurface::Full);
    match turns.start(request).await {
        // The first of two approvals is taken: the call waits for a second approver.
        Ok(_) => Ok(()),
        Err(err) if matches!(err.kind(), AppError::SecondApprovalNeeded) => Ok(()),
        Err(err) => Err(match err.kind() {
            AppError::StaleAsk { .. } | AppError::ExpiredAsk { .. } | AppError::HistoryNotFound => ask_ended(),
            _ => Problem::from(err),
        }),
    }
}
