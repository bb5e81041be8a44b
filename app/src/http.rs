//! JSON requests to Palaver's own HTTP API from the browser (the session cookie authenticates
//! them): the headless routes the watch uses, and block actions. On the server the same calls
//! exist and fail at once (`crate::browser::request`), so components that make them in event
//! handlers need no `cfg`.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::browser::request;

/// `GET url`, its JSON body read as `R`.
pub async fn get<R: DeserializeOwned>(url: &str) -> Result<R, String> {
    request("GET", url, None).await
}

/// `method url` with `body` as JSON, the response's JSON body read as `R`.
pub async fn send<B: Serialize, R: DeserializeOwned>(method: &str, url: &str, body: &B) -> Result<R, String> {
    let body = serde_json::to_string(body).map_err(|err| format!("The request could not be written: {err}."))?;
    request(method, url, Some(body)).await
}
