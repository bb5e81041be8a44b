//! A turn's stream: `POST /gpt/prompt` runs a turn and streams its events; `GET
//! /gpt/histories/{id}/stream` attaches to the one running on a conversation.

use std::convert::Infallible;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures::{Stream, StreamExt};
use serde_json::Value;

use palaver_contract::asks::AskSurface;
use palaver_contract::turn_body::{self, AnswerProblem};
use palaver_core::accounts::auth::Caller;
use palaver_core::conversation::Conversations;
use palaver_core::mcp::McpHub;
use palaver_core::turn::{Redo, TurnInput, TurnRequest, TurnRunner};
use palaver_wire::body::PromptBody;
use palaver_wire::conversation::model::{AttachedEvent, TurnEvent};

use super::gpt::{history_problem, object_body, optional_string};
use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// A turn's events as SSE, one `data: {json}` block each as the reference sends them; the
/// stream ends after `{done}`. With `ids` (the client sent `palaver-event-ids: 1`) each block
/// first names its id (`<stream>.<n>`), so a client whose connection drops attaches again from
/// the last one it saw (`GET /gpt/histories/{id}/stream`).
fn event_stream(
    events: tokio::sync::mpsc::Receiver<TurnEvent>,
    stream_id: String,
    ids: bool,
) -> impl Stream<Item = Result<Event, Infallible>> {
    futures::stream::unfold((events, 0_usize), move |(mut events, n)| {
        let id = ids.then(|| format!("{stream_id}.{n}"));
        async move {
            let event = events.recv().await?;
            Some((Ok(sse_event(id.as_deref(), &event)), (events, n + 1)))
        }
    })
}

fn sse_event(id: Option<&str>, event: &TurnEvent) -> Event {
    let framed = match id {
        Some(id) => Event::default().id(id),
        None => Event::default(),
    };
    framed.data(serde_json::to_string(event).unwrap_or_default())
}

/// Whether the client asked for the events' ids (`palaver-event-ids: 1`).
fn wants_event_ids(headers: &HeaderMap) -> bool {
    headers
        .get(palaver_wire::body::EVENT_IDS_HEADER)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| matches!(value.trim(), "1" | "true"))
}

/// `GET /gpt/histories/{id}/stream`: attaches to the turn running on the conversation, from
/// after the `Last-Event-ID` it names, or from its start (`{attached}` first, then the turn's
/// events as `POST /gpt/prompt` sends them); 204 when no turn is streaming there.
#[utoipa::path(get, path = "/gpt/histories/{id}/stream", tag = "gpthistories", operation_id = "gpthistories_stream",
    summary = "Follow the turn running on a conversation",
    params(("id" = String, Path, description = "The conversation's id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The last event seen: the stream goes on after it")),
    responses(
        (status = 200, description = "The turn's events, as POST /gpt/prompt sends them, after {attached}", content_type = "text/event-stream", body = String),
        (status = 204, description = "No turn is streaming there")))]
pub async fn attach(
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, Problem> {
    conversations.authorize_read(&caller, &id).await.map_err(history_problem)?;
    let last_seen = headers.get("last-event-id").and_then(|value| value.to_str().ok());
    let Some(attached) = conversations.running.streaming(&id).await.and_then(|log| log.attach(last_seen)) else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    let first = TurnEvent::Attached { attached: AttachedEvent { prompt: attached.prompt.clone() } };
    let opening =
        futures::stream::once(
            async move { Ok(Event::default().data(serde_json::to_string(&first).unwrap_or_default())) },
        );
    let stream_id = attached.stream_id.clone();
    let events = attached
        .events()
        .map(move |(n, event)| Ok::<_, Infallible>(sse_event(Some(&format!("{stream_id}.{n}")), &event)));
    Ok(Sse::new(opening.chain(events)).keep_alive(KeepAlive::default()).into_response())
}

/// The request's surface: `full` when absent or null; 400 for anything else.
fn surface(body: &serde_json::Map<String, Value>) -> Result<AskSurface, Problem> {
    turn_body::surface(body.get("surface")).ok_or_else(|| {
        Problem::bad_request("surface is not a known surface").with_detail("Send one of: full, compact.")
    })
}

/// Splits `askResponse` into the pending ask's id and the answer envelope.
fn split_ask_response(value: &Value) -> Result<(String, Value), Problem> {
    turn_body::ask_answer(value).map_err(|problem| match problem {
        AnswerProblem::NotAnObject => Problem::bad_request("askResponse must be an object"),
        AnswerProblem::NoToolCallId => Problem::bad_request("askResponse.toolCallId is required"),
    })
}

/// `POST /gpt/prompt`: runs a turn (a prompt, or an answer to the pending ask) and streams it.
/// With `replaceLast: true` or `replaceFrom: <row index>` (our additions), the conversation's
/// last message (or the one at that index) and what followed it are set aside as a version of
/// the conversation first: `prompt` takes its place (edit), or without one it is sent again
/// (regenerate); `seenRows`, when sent, must be the conversation's row count (else 409).
#[utoipa::path(post, path = "/gpt/prompt", tag = "gpt", operation_id = "gpt_prompt",
    summary = "Stream a GPT chat response",
    description = "Send a message, or answer the pending ask, and stream the turn", request_body = PromptBody,
    params(("palaver-event-ids" = Option<String>, Header, description = "`1`: each event first names its id (`<stream>.<n>`), to attach again from with `Last-Event-ID` (Palaver's addition). Without it, `data:` blocks only, as the reference sends them")),
    responses(
        (status = 200, description = "The turn's events as server-sent events, one JSON object each, ending with {done}",
            content_type = "text/event-stream", body = String,
            headers(("palaver-stream-id" = String, description = "The turn's stream, for Stop and for attaching again"))),
        (status = 409, description = "The answer names an ask that is no longer pending", body = ProblemBody),
        (status = 429, description = "Too many turns of the caller are running", body = ProblemBody)))]
pub async fn prompt(
    State(turns): State<TurnRunner>,
    State(mcp): State<McpHub>,
    Authenticated(caller): Authenticated,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, Problem> {
    // Every refusal before the stream opens says `detail`, as the reference's do.
    start_turn(&turns, &mcp, caller, &headers, &body).await.map_err(Problem::or_title_as_detail)
}

async fn start_turn(
    turns: &TurnRunner,
    mcp: &McpHub,
    caller: Caller,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Response, Problem> {
    let body = object_body(body)?;
    let surface = surface(&body)?;
    let history_id = optional_string(&body, "historyId")?;
    let prompt = optional_string(&body, "prompt")?.filter(|prompt| !prompt.trim().is_empty());
    let redo = redo(&body)?;
    let model = optional_string(&body, "model")?;
    let system_prompt = optional_string(&body, "systemPrompt")?;
    let attachments = attachments(&body)?;
    let from_app = optional_string(&body, "fromApp")?;
    // With asks off, askResponse is ignored and prompt is required, as before asks existed.
    let answer = body.get("askResponse").filter(|_| turns.asks_on()).map(split_ask_response).transpose()?;
    // With an answer, fromApp names the server whose app drew the question (checked with the
    // ask); with a prompt, the server whose app sent it for the person.
    if let Some(server) = from_app.as_ref().filter(|_| answer.is_none())
        && !mcp.has_apps(server)
    {
        return Err(Problem::bad_request("fromApp must name an MCP server whose apps Palaver draws")
            .with_detail(format!("No connected MCP server \"{server}\" has an app.")));
    }
    let input = match (prompt, answer) {
        (None, None) if redo.is_some() => TurnInput::Prompt(String::new()),
        (None, None) => return Err(Problem::bad_request("prompt is required")),
        (Some(_), Some(_)) => return Err(Problem::bad_request("Send either prompt or askResponse, not both")),
        (Some(prompt), None) => TurnInput::Prompt(prompt),
        (None, Some((tool_call_id, response))) => {
            if body.contains_key("attachments") {
                return Err(Problem::bad_request("attachments cannot be sent with askResponse"));
            }
            if history_id.is_none() {
                return Err(Problem::bad_request("historyId is required with askResponse"));
            }
            TurnInput::Answer { tool_call_id, response }
        }
    };
    let handle = turns
        .start(TurnRequest {
            caller,
            history_id,
            input,
            surface,
            redo,
            model,
            attachments,
            from_app,
            system_prompt,
            client_tools: Vec::new(),
            read_pending: None,
        })
        .await?;
    let stream_header = [(palaver_wire::body::STREAM_ID_HEADER, handle.stream_id.clone())];
    let ids = wants_event_ids(headers);
    let events = Sse::new(event_stream(handle.events, handle.stream_id, ids)).keep_alive(KeepAlive::default());
    Ok((stream_header, events).into_response())
}

/// `attachments` (Palaver's shape): `[{fileId}]`, each the id `POST /files/upload` returned.
fn attachments(body: &serde_json::Map<String, Value>) -> Result<Vec<String>, Problem> {
    let invalid = || {
        Problem::bad_request("attachments must be a list of {fileId}")
            .with_detail("Upload each file with POST /files/upload, then send [{\"fileId\": \"<its id>\"}, …].")
    };
    match body.get("attachments") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(files)) => files
            .iter()
            .map(|file| file.get("fileId").and_then(Value::as_str).map(str::to_string).ok_or_else(invalid))
            .collect(),
        Some(_) => Err(invalid()),
    }
}

/// `replaceLast` (a boolean, false when absent) or `replaceFrom` (the index in `rows` of the
/// message to replace), and `seenRows` (a count of rows, with either).
fn redo(body: &serde_json::Map<String, Value>) -> Result<Option<Redo>, Problem> {
    let replace_last = match body.get("replaceLast") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(_) => return Err(Problem::bad_request("replaceLast must be true or false")),
    };
    let from = whole_number(body, "replaceFrom", "replaceFrom must be the index in rows of one of your messages")?;
    let seen_rows = whole_number(body, "seenRows", "seenRows must be a whole number of rows, 0 or more")?;
    match (replace_last || from.is_some(), seen_rows) {
        (true, seen_rows) => Ok(Some(Redo { from, seen_rows })),
        (false, None) => Ok(None),
        (false, Some(_)) => Err(Problem::bad_request("seenRows goes with replaceLast: true or replaceFrom")),
    }
}

/// The whole number 0 or more at `key`, if there is one.
fn whole_number(body: &serde_json::Map<String, Value>, key: &str, invalid: &str) -> Result<Option<i64>, Problem> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => {
            value.as_i64().filter(|number| *number >= 0).map(Some).ok_or_else(|| Problem::bad_request(invalid))
        }
    }
}
