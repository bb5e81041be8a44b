//! `/agui` (Palaver's addition): the AG-UI 1.0 face of the turn runner. An AG-UI client
//! (CopilotKit, the AG-UI SDKs' `HttpAgent`) posts a `RunAgentInput` and reads the run's AG-UI
//! events; Palaver's asks end runs as interrupts (`core::agui`).

use std::convert::Infallible;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::Value;

use palaver_core::agui::{AgUi, RunStream, capabilities};

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// The run's events as SSE: `id: <runId>.<n>` and one AG-UI event as JSON in `data:`.
fn event_stream(events: RunStream) -> Response {
    let frames = events.map(|(id, event)| {
        Ok::<_, Infallible>(Event::default().id(id).data(serde_json::to_string(&event).unwrap_or_default()))
    });
    Sse::new(frames).keep_alive(KeepAlive::default()).into_response()
}

/// `RunAgentInput` as AG-UI clients send it; a `null` state or forwardedProps is taken as none.
fn run_input(bytes: &Bytes) -> Result<ag_ui::input::RunAgentInput, Problem> {
    let mut value: Value = serde_json::from_slice(bytes).map_err(|err| {
        Problem::bad_request("Invalid request body").with_detail(format!("Send an AG-UI RunAgentInput as JSON: {err}."))
    })?;
    if let Value::Object(object) = &mut value {
        object.retain(|key, value| !(value.is_null() && matches!(key.as_str(), "state" | "forwardedProps" | "resume")));
        for list in ["tools", "context"] {
            object.entry(list).or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    serde_json::from_value(value).map_err(|err| {
        Problem::bad_request("Invalid RunAgentInput")
            .with_detail(format!("The body is not an AG-UI RunAgentInput: {err}."))
    })
}

/// `POST /agui`: runs a turn for an AG-UI client and streams it as AG-UI events.
#[utoipa::path(post, path = "/agui", tag = "agui", operation_id = "agui_run",
    summary = "Run a turn as an AG-UI 1.0 agent",
    description = "The body is an AG-UI RunAgentInput: `threadId` is a conversation of yours (a new id makes one), the user messages Palaver has not stored are the new input, and `resume` answers the interrupt the last run ended with. The answer is AG-UI events as server-sent events; an ask ends the run with an interrupt. See docs/agui.md.",
    request_body(content = Object, description = "An AG-UI RunAgentInput", content_type = "application/json"),
    responses(
        (status = 200, description = "The run's AG-UI events, `id: <runId>.<n>` before each", content_type = "text/event-stream", body = String),
        (status = 400, description = "Not a RunAgentInput; a threadId or runId Palaver cannot take; a resume of more than 64 entries; an app tool Palaver cannot offer", body = ProblemBody),
        (status = 404, description = "Another person's conversation, named by its id", body = ProblemBody),
        (status = 429, description = "Too many turns of yours are running", body = ProblemBody)))]
pub async fn run(
    State(agui): State<AgUi>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<Response, Problem> {
    let input = run_input(&body)?;
    Ok(event_stream(agui.run(caller, input).await?))
}

/// `GET /agui/threads/{threadId}/stream`: attaches again to the run going on in a thread, after
/// the `Last-Event-ID` it names (or from the run's start); 204 when nothing runs there.
#[utoipa::path(get, path = "/agui/threads/{thread_id}/stream", tag = "agui", operation_id = "agui_attach",
    summary = "Attach again to a thread's running AG-UI run",
    params(("thread_id" = String, Path, description = "The AG-UI thread"),
        ("Last-Event-ID" = Option<String>, Header, description = "The last event seen (`<runId>.<n>`): the stream goes on after it")),
    responses(
        (status = 200, description = "The run's AG-UI events after the one named, as first sent", content_type = "text/event-stream", body = String),
        (status = 204, description = "No run is going on in the thread"),
        (status = 404, description = "No thread of yours by that id", body = ProblemBody)))]
pub async fn attach(
    State(agui): State<AgUi>,
    Authenticated(caller): Authenticated,
    Path(thread_id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    let last_seen = headers.get("last-event-id").and_then(|value| value.to_str().ok());
    Ok(match agui.attach(caller, &thread_id, last_seen).await? {
        Some(events) => event_stream(events),
        None => StatusCode::NO_CONTENT.into_response(),
    })
}

/// `GET /agui/capabilities`: what Palaver's AG-UI face supports, as AG-UI's `AgentCapabilities`.
#[utoipa::path(get, path = "/agui/capabilities", tag = "agui", operation_id = "agui_capabilities",
    summary = "What Palaver's AG-UI face supports",
    responses((status = 200, description = "AG-UI AgentCapabilities", body = Object)))]
pub async fn agent_capabilities(Authenticated(_caller): Authenticated) -> Json<ag_ui::capabilities::AgentCapabilities> {
    Json(capabilities())
}
