//! The headless endpoints for clients that do not read server-sent events (a watch app, a
//! notification action, a bot): the pending asks, and a whole turn as one JSON response.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use palaver_core::db::Pool;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use utoipa::IntoParams;

use palaver_contract::asks::resolve_button_answer;
use palaver_core::conversation::access::{HistoryAccess, authorize_owned};
use palaver_core::error::{AppError, Error, FieldError};
use palaver_core::mcp::McpHub;
use palaver_core::turn::store::{StoredPendingAsk, owner_and_pending_ask, pending_ask, pending_asks_of};
use palaver_core::turn::{TurnInput, TurnRequest, TurnRunner};
use palaver_wire::body::{AskAdditions, Data, PendingAskBrief, PendingAskEntry, TurnResult};
use palaver_wire::conversation::model::TurnEvent;

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};
use palaver_contract::turn_body::{HeadlessTurn, parse_headless_turn};

/// The headless routes' query: which of Palaver's additions a client wants. Other keys are
/// ignored, as the reference ignores them.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IncludeQuery {
    /// Palaver's additions to each ask, comma-separated: `expiresAt` (when it ends unanswered),
    /// `locale` (its language), `call` (for an approval, the tool and every argument it would
    /// run with). Without it the asks have exactly the reference's keys.
    include: Option<String>,
}

impl IncludeQuery {
    fn additions(query: Result<Query<Self>, QueryRejection>) -> Result<AskAdditions, Problem> {
        let invalid = |detail: String| Problem::bad_request("Invalid query").with_detail(detail);
        let Query(query) = query.map_err(|rejection| invalid(rejection.body_text()))?;
        AskAdditions::parse(query.include.as_deref()).map_err(invalid)
    }
}

/// `GET /gpt/histories/pendingAsks`: the caller's pending asks, newest first.
#[utoipa::path(get, path = "/gpt/histories/pendingAsks", tag = "gpthistories", operation_id = "gpthistories_pendingAsks",
    summary = "List the caller's pending asks",
    description = "The asks the caller's conversations are waiting on, newest first, each with its simple card. Answer one with POST /gpt/histories/{id}/turn.",
    params(IncludeQuery),
    responses((status = 200, description = "Successful response", body = Data<Vec<PendingAskEntry>>)))]
pub async fn pending_asks(
    State(pool): State<Pool>,
    Authenticated(caller): Authenticated,
    query: Result<Query<IncludeQuery>, QueryRejection>,
) -> Result<Json<Data<Vec<PendingAskEntry>>>, Problem> {
    let additions = IncludeQuery::additions(query)?;
    let items = pending_asks_of(&pool, &caller.user.id).await?;
    let data: Vec<PendingAskEntry> = items
        .into_iter()
        .map(|item| {
            additions.entry(PendingAskEntry {
                locale: item.pending.ask.locale(),
                call: item.pending.ask.guarded_call(),
                created: item.pending.created,
                history_id: item.history_id,
                kind: item.pending.ask.kind,
                simple: item.pending.ask.simple,
                tool_call_id: item.pending.ask.tool_call_id,
                title: item.title,
                name: Some(item.name),
                routed: item.pending.ask.routed,
                expires_at: item.pending.ask.expires_at,
            })
        })
        .collect();
    Ok(Json(Data { data }))
}

fn validation_failed(fields: Map<String, Value>) -> Problem {
    Problem::bad_request("Validation failed")
        .with_code("action-body-validation-failed")
        .with_detail("The request body did not match the action's schema")
        .with_fields(Value::Object(fields))
        .fields_in_meta()
}

/// The answer a button of the pending ask's simple card gives: 409 when `tool_call_id` is not
/// the ask the conversation waits on, 400 `UNKNOWN_BUTTON` when the card has no such button.
pub(super) async fn button_answer(
    pool: &Pool,
    history_id: &str,
    tool_call_id: String,
    button_id: &str,
) -> Result<TurnInput, Problem> {
    button_of(pending_ask(pool, history_id).await?, tool_call_id, button_id)
}

/// The answer a button of `pending`'s simple card gives (see [`button_answer`]).
fn button_of(pending: Option<StoredPendingAsk>, tool_call_id: String, button_id: &str) -> Result<TurnInput, Problem> {
    let pending = pending.filter(|pending| pending.ask.tool_call_id == tool_call_id);
    let Some(pending) = pending else { return Err(AppError::StaleAsk { tool_call_id }.into()) };
    let response = resolve_button_answer(&pending.ask.simple, button_id).map_err(|error| {
        Problem::bad_request("Unknown buttonId")
            .with_code("UNKNOWN_BUTTON")
            .with_detail("The button is not on the pending ask's simple card. See fields.")
            .with_fields(json!([FieldError::from(&error)]))
            .fields_in_meta()
    })?;
    Ok(TurnInput::Answer { tool_call_id, response: response.to_value() })
}

/// The headless routes' own titles for a missing or someone else's conversation.
pub(super) fn access_problem(err: Error, caller_is_admin: bool) -> Problem {
    match err.kind() {
        AppError::HistoryNotFound => {
            Problem::new(StatusCode::NOT_FOUND, "Document not found").with_code("document-not-found")
        }
        AppError::NotHistoryOwner if !caller_is_admin => {
            Problem::new(StatusCode::FORBIDDEN, "Access denied").with_code("action-access-denied")
        }
        _ => err.into(),
    }
}

pub(super) fn turn_problem(err: Error) -> Problem {
    let invalid = matches!(err.kind(), AppError::InvalidAnswer { .. });
    let problem = Problem::from(err);
    if invalid { problem.fields_in_meta() } else { problem }
}

/// `POST /gpt/histories/{id}/turn`: runs a whole turn and answers once it has finished.
#[utoipa::path(post, path = "/gpt/histories/{id}/turn", tag = "gpthistories", operation_id = "gpthistories_turn",
    summary = "Run a chat turn and return the reply as JSON",
    description = "Runs one chat turn to completion (a prompt, an answer, or a simple card's button) and returns the reply as JSON, for clients that do not read server-sent events. The turn finishes and is saved even if the client disconnects.",
    params(("id" = String, Path, description = "The conversation's id"), IncludeQuery),
    request_body = ref("#/components/schemas/TurnRequest"),
    responses((status = 200, description = "Successful response", body = Data<TurnResult>),
        (status = 409, description = "This ask is no longer pending", body = ProblemBody)))]
pub async fn turn(
    State(turns): State<TurnRunner>,
    State(pool): State<Pool>,
    State(mcp): State<McpHub>,
    Authenticated(caller): Authenticated,
    Path(history_id): Path<String>,
    query: Result<Query<IncludeQuery>, QueryRejection>,
    body: Bytes,
) -> Result<Json<Data<TurnResult>>, Problem> {
    let additions = IncludeQuery::additions(query)?;
    let (body, surface) = parse_headless_turn(&body).map_err(validation_failed)?;
    let is_admin = caller.is_admin();
    // The turn checks who may write to the conversation as it reads it; a button is looked up
    // on the pending ask first, so only the owner may learn what is pending.
    let (input, read_pending) = match body {
        HeadlessTurn::Prompt(prompt) => (TurnInput::Prompt(prompt), None),
        HeadlessTurn::Answer { tool_call_id, response } => (TurnInput::Answer { tool_call_id, response }, None),
        HeadlessTurn::Button { tool_call_id, button_id } => {
            let found = owner_and_pending_ask(&pool, &history_id).await?;
            let Some((owner, pending)) = found else {
                return Err(access_problem(AppError::HistoryNotFound.into(), is_admin));
            };
            authorize_owned(&caller, owner.as_deref(), HistoryAccess::Write)
                .map_err(|err| access_problem(err, is_admin))?;
            (button_of(pending.clone(), tool_call_id, &button_id)?, Some((owner, pending)))
        }
    };
    let request = TurnRequest { read_pending, ..TurnRequest::plain(caller, Some(history_id.clone()), input, surface) };
    let mut handle = turns.start(request).await.map_err(|err| match err.kind() {
        AppError::HistoryNotFound | AppError::NotHistoryOwner => access_problem(err, is_admin),
        _ => turn_problem(err),
    })?;

    let (mut text, mut errors, mut title, mut asked, mut restored) = (String::new(), Vec::new(), None, None, None);
    let mut called = Vec::new();
    while let Some(event) = handle.events.recv().await {
        match event {
            TurnEvent::Text { text: delta } => text.push_str(&delta),
            TurnEvent::Replace { text: whole, .. } => text = whole,
            TurnEvent::Error { error } => errors.push(error),
            TurnEvent::Ask { ask, .. } => asked = Some(PendingAskBrief::from(*ask)),
            TurnEvent::Done { title: done_title, pending_ask, .. } => {
                title = done_title;
                restored = pending_ask.filter(|_| asked.is_none());
            }
            TurnEvent::ToolCall { tool_call } => called.push(tool_call.tool_name),
            TurnEvent::Delta { .. }
            | TurnEvent::Retract { .. }
            | TurnEvent::ToolResult { .. }
            | TurnEvent::ToolStatus { .. }
            | TurnEvent::AskResolved { .. }
            | TurnEvent::Attached { .. }
            | TurnEvent::AskPreview { .. }
            | TurnEvent::ToolInputPartial { .. }
            | TurnEvent::Blocks { .. } => {}
        }
    }
    // An answer undone after a failure is pending again: report it as the store has it.
    if restored.is_some()
        && let Some(pending) = pending_ask(&pool, &history_id).await?
    {
        let ask = pending.ask;
        asked = Some(PendingAskBrief::from(ask));
    }
    let error = (!errors.is_empty()).then(|| errors.join("\n"));
    let apps = if additions.apps { mcp.app_servers_of(&called) } else { Vec::new() };
    let data = TurnResult { history_id, text, title, pending_ask: asked.map(|ask| additions.brief(ask)), error, apps };
    Ok(Json(Data { data }))
}
