//! A JSON request to Palaver's own HTTP API with the browser's `fetch` (the session cookie
//! authenticates it); `crate::http` is what components call.

use serde::de::DeserializeOwned;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, Request, RequestInit, Response};

/// A refusal in a person's words: the problem's title, then what each field it names says is
/// wrong and how to fix it.
fn refusal_text(problem: &serde_json::Value) -> String {
    let title = problem["title"].as_str().unwrap_or("The request failed.");
    let fields = problem["fields"].as_array().into_iter().flatten();
    let said: Vec<String> = fields
        .filter_map(|field| {
            let words = [&field["message"], &field["fix"]].map(|text| text.as_str().unwrap_or_default().trim());
            let words = words.into_iter().filter(|text| !text.is_empty()).collect::<Vec<_>>().join(" ");
            (!words.is_empty()).then_some(words)
        })
        .collect();
    if said.is_empty() { title.to_string() } else { format!("{title}: {}", said.join(" ")) }
}

/// `method url` with `body` (JSON) if any, the response's JSON body read as `R` (no body reads
/// as `null`, so a 204 reads as `()`); a refusal is its problem's words ([`refusal_text`]). On the server it fails
/// at once.
pub async fn request<R: DeserializeOwned>(method: &str, url: &str, body: Option<String>) -> Result<R, String> {
    let failed = |_| "The server could not be reached.".to_string();
    let headers = Headers::new().map_err(failed)?;
    let init = RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        headers.set("content-type", "application/json").map_err(failed)?;
        init.set_body(&JsValue::from_str(&body));
    }
    init.set_headers(&headers);
    let request = Request::new_with_str_and_init(url, &init).map_err(failed)?;
    let window = web_sys::window().ok_or("No window.")?;
    let response: Response =
        JsFuture::from(window.fetch_with_request(&request)).await.map_err(failed)?.unchecked_into();
    let text = JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?.as_string().unwrap_or_default();
    if !response.ok() {
        let problem: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        return Err(refusal_text(&problem));
    }
    let text = if text.is_empty() { "null" } else { &text };
    serde_json::from_str(text).map_err(|err| format!("The server's answer could not be read: {err}."))
}
