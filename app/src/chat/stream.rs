//! Sends a prompt to `POST /gpt/prompt` and reads the event stream as it arrives. In the
//! browser only: on the server the call fails at once, so the chat page needs no `cfg`.

use super::model::TurnEvent;
use crate::error::FieldError;
use crate::wire::PromptBody;

/// Why a turn could not start (or was cut off).
pub struct SendError {
    pub status: u16,
    pub title: String,
    /// The field errors of an invalid answer (400).
    pub fields: Vec<FieldError>,
}

impl From<String> for SendError {
    fn from(title: String) -> Self {
        SendError { status: 0, title, fields: Vec::new() }
    }
}

impl From<&str> for SendError {
    fn from(title: &str) -> Self {
        title.to_string().into()
    }
}

/// Posts `body` and calls `on_event` for every event of the turn, in order.
#[cfg(not(feature = "hydrate"))]
pub async fn send_prompt(_body: &PromptBody, _on_event: impl FnMut(TurnEvent)) -> Result<(), SendError> {
    Err("Turns are sent from the browser.".into())
}

/// Posts `body` and calls `on_event` for every event of the turn, in order.
#[cfg(feature = "hydrate")]
pub async fn send_prompt(body: &PromptBody, mut on_event: impl FnMut(TurnEvent)) -> Result<(), SendError> {
    use js_sys::{Reflect, Uint8Array};
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{
        Headers, ReadableStreamDefaultReader, Request, RequestInit, Response, TextDecodeOptions, TextDecoder,
    };

    use crate::sse::SseDecoder;

    let js_error = |value: JsValue| value.as_string().unwrap_or_else(|| format!("{value:?}"));
    let body = serde_json::to_string(body).map_err(|err| err.to_string())?;
    let headers = Headers::new().map_err(js_error)?;
    headers.set("content-type", "application/json").map_err(js_error)?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&body));
    let request = Request::new_with_str_and_init("/gpt/prompt", &init).map_err(js_error)?;
    let window = web_sys::window().ok_or("No window to send from.")?;
    let response: Response = JsFuture::from(window.fetch_with_request(&request))
        .await
        .map_err(|_| "The server could not be reached.".to_string())?
        .unchecked_into();
    if !response.ok() {
        let text = JsFuture::from(response.text().map_err(js_error)?).await.map_err(js_error)?;
        let problem: serde_json::Value =
            serde_json::from_str(&text.as_string().unwrap_or_default()).unwrap_or_default();
        let title = problem["title"].as_str().unwrap_or("The message could not be sent.").to_string();
        let fields = serde_json::from_value(problem["fields"].clone()).unwrap_or_default();
        return Err(SendError { status: response.status(), title, fields });
    }
    let body = response.body().ok_or("The server sent no reply.")?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let decoder = TextDecoder::new().map_err(js_error)?;
    let options = TextDecodeOptions::new();
    options.set_stream(true);
    let mut events = SseDecoder::default();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| "The reply was cut off.".to_string())?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|done| done.as_bool()).unwrap_or(true) {
            return Ok(());
        }
        let bytes: Uint8Array = Reflect::get(&chunk, &"value".into()).map_err(js_error)?.unchecked_into();
        let text = decoder.decode_with_buffer_source_and_options(&bytes, &options).map_err(js_error)?;
        for data in events.push(&text) {
            match serde_json::from_str(&data) {
                Ok(event) => on_event(event),
                Err(err) => leptos::logging::warn!("skipping an unreadable event: {err}"),
            }
        }
    }
}
