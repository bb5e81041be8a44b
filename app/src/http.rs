//! JSON requests to Palaver's own HTTP API from the browser (the session cookie authenticates
//! them): the headless routes the watch uses, and block actions. On the server the same calls
//! exist and fail at once, so components that make them in event handlers need no `cfg`.

use serde::Serialize;
use serde::de::DeserializeOwned;

/// `GET url`, its JSON body read as `R`.
pub async fn get<R: DeserializeOwned>(url: &str) -> Result<R, String> {
    request("GET", url, None).await
}

/// `method url` with `body` as JSON, the response's JSON body read as `R`.
pub async fn send<B: Serialize, R: DeserializeOwned>(method: &str, url: &str, body: &B) -> Result<R, String> {
    let body = serde_json::to_string(body).map_err(|err| format!("The request could not be written: {err}."))?;
    request(method, url, Some(body)).await
}

#[cfg(feature = "hydrate")]
async fn request<R: DeserializeOwned>(method: &str, url: &str, body: Option<String>) -> Result<R, String> {
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;
    use web_sys::{Headers, Request, RequestInit, Response};

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
        return Err(problem["title"].as_str().unwrap_or("The request failed.").to_string());
    }
    serde_json::from_str(&text).map_err(|err| format!("The server's answer could not be read: {err}."))
}

#[cfg(not(feature = "hydrate"))]
async fn request<R: DeserializeOwned>(_method: &str, _url: &str, _body: Option<String>) -> Result<R, String> {
    Err("Requests to the API are made from the browser.".into())
}
