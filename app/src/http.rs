//! JSON requests to Palaver's own HTTP API from the browser (the session cookie authenticates
//! them): the headless routes the watch uses, and block actions.

use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, Request, RequestInit, Response};

/// A JSON request to the headless API (the browser's session cookie authenticates it).
pub async fn call(method: &str, url: &str, body: Option<Value>) -> Result<Value, String> {
    let failed = |_| "The server could not be reached.".to_string();
    let headers = Headers::new().map_err(failed)?;
    let init = RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        headers.set("content-type", "application/json").map_err(failed)?;
        init.set_body(&JsValue::from_str(&body.to_string()));
    }
    init.set_headers(&headers);
    let request = Request::new_with_str_and_init(url, &init).map_err(failed)?;
    let window = web_sys::window().ok_or("No window.")?;
    let response: Response =
        JsFuture::from(window.fetch_with_request(&request)).await.map_err(failed)?.unchecked_into();
    let text = JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?;
    let json: Value = serde_json::from_str(&text.as_string().unwrap_or_default()).unwrap_or_default();
    if response.ok() { Ok(json) } else { Err(json["title"].as_str().unwrap_or("The request failed.").to_string()) }
}
