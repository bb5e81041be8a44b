//! A turn's event stream as the browser reads it: `POST /gpt/prompt`, and
//! `GET /gpt/histories/{id}/stream` to attach to a running turn (after a reload, a dropped
//! connection, or from another tab). On the server both fail at once.

use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, ReadableStreamDefaultReader, Request, RequestInit, Response, TextDecodeOptions, TextDecoder};

use crate::browser::{Attach, SendError};
use palaver_contract::sse::SseDecoder;
use palaver_wire::body::PromptBody;
use palaver_wire::conversation::model::TurnEvent;

fn js_error(value: JsValue) -> String {
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

async fn fetch(request: Request) -> Result<Response, SendError> {
    let window = web_sys::window().ok_or("No window to send from.")?;
    Ok(JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|cause| {
            leptos::logging::warn!("fetch failed: {}", js_error(cause));
            "The server could not be reached.".to_string()
        })?
        .unchecked_into())
}

async fn problem(response: &Response) -> SendError {
    let text = match response.text() {
        Ok(promise) => JsFuture::from(promise).await.ok().and_then(|text| text.as_string()),
        Err(_) => None,
    };
    let problem: serde_json::Value = serde_json::from_str(&text.unwrap_or_default()).unwrap_or_default();
    let title = problem["title"].as_str().unwrap_or("The message could not be sent.").to_string();
    let fields = serde_json::from_value(problem["fields"].clone()).unwrap_or_default();
    SendError { status: response.status(), title, fields, cut_off: false }
}

/// Reads an event stream to its end.
async fn read(response: Response, on_event: &mut impl FnMut(Option<String>, TurnEvent)) -> Result<(), SendError> {
    let cut_off = |title: &str| SendError { cut_off: true, ..SendError::from(title) };
    let body = response.body().ok_or("The server sent no reply.")?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = TextDecoder::new().map_err(js_error)?;
    let options = TextDecodeOptions::new();
    options.set_stream(true);
    let mut events = SseDecoder::default();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|cause| {
            leptos::logging::warn!("the reply stream broke: {}", js_error(cause));
            cut_off("The reply was cut off.")
        })?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|done| done.as_bool()).unwrap_or(true) {
            return Ok(());
        }
        let bytes: Uint8Array = Reflect::get(&chunk, &"value".into()).map_err(js_error)?.unchecked_into();
        let text = decoder.decode_with_buffer_source_and_options(&bytes, &options).map_err(js_error)?;
        for event in events.push_events(&text) {
            match serde_json::from_str(&event.data) {
                Ok(turn_event) => on_event(event.id, turn_event),
                Err(err) => leptos::logging::warn!("skipping an unreadable event: {err}"),
            }
        }
    }
}

/// Posts `body`, calls `on_stream` with the turn's stream id once it is accepted, and
/// `on_event` for every event of the turn (with its id), in order.
pub async fn send_prompt(
    body: &PromptBody,
    on_stream: impl FnOnce(String),
    mut on_event: impl FnMut(Option<String>, TurnEvent),
) -> Result<(), SendError> {
    let body = serde_json::to_string(body).map_err(|err| err.to_string())?;
    let headers = Headers::new().map_err(js_error)?;
    headers.set("content-type", "application/json").map_err(js_error)?;
    // The ids let a reply whose connection dropped be attached to again from where it broke.
    headers.set(palaver_wire::body::EVENT_IDS_HEADER, "1").map_err(js_error)?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&body));
    let response = fetch(Request::new_with_str_and_init("/gpt/prompt", &init).map_err(js_error)?).await?;
    if !response.ok() {
        return Err(problem(&response).await);
    }
    if let Ok(Some(stream)) = response.headers().get(palaver_wire::body::STREAM_ID_HEADER) {
        on_stream(stream);
    }
    read(response, &mut on_event).await
}

/// Attaches to the turn running on `conversation_id` from after `last_seen`, and calls
/// `on_event` for every event, in order.
pub async fn attach(
    conversation_id: &str,
    last_seen: Option<&str>,
    mut on_event: impl FnMut(Option<String>, TurnEvent),
) -> Result<Attach, SendError> {
    let headers = Headers::new().map_err(js_error)?;
    if let Some(id) = last_seen {
        headers.set("last-event-id", id).map_err(js_error)?;
    }
    let init = RequestInit::new();
    init.set_headers(&headers);
    let url = format!("/gpt/histories/{conversation_id}/stream");
    let response = fetch(Request::new_with_str_and_init(&url, &init).map_err(js_error)?).await?;
    match response.status() {
        204 => Ok(Attach::NothingRunning),
        _ if !response.ok() => Err(problem(&response).await),
        _ => read(response, &mut on_event).await.map(|()| Attach::Followed),
    }
}
