//! Per-request id (tower-http's request-id layers) and log line, the one log line of a
//! service's error behind a problem, and the `requestId` every JSON object response carries.

use std::time::Instant;

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderName, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};

use crate::problem::Cause;

/// A JSON answer of the API (not a file to download: an export keeps to its own content).
fn is_json_answer(response: &Response) -> bool {
    let header = |name| response.headers().get(name).and_then(|value| value.to_str().ok());
    header(header::CONTENT_TYPE).is_some_and(|value| value.starts_with("application/json"))
        && !header(header::CONTENT_DISPOSITION).is_some_and(|value| value.starts_with("attachment"))
}

/// The key a JSON answer carries its request's id under.
const REQUEST_ID_KEY: &[u8] = b"\"requestId\"";

/// Puts `requestId` first in a JSON object body, whatever its size. The body is not parsed:
/// the key is written after its opening brace. A body that may hold the key already (it names
/// it somewhere) is read as JSON and keeps its own.
async fn with_request_id(response: Response, request_id: &str) -> Response {
    let (mut parts, body) = response.into_parts();
    let bytes = match to_bytes(body, usize::MAX).await {
        Ok(bytes) => bytes,
        Err(err) => {
            tracing::error!(%err, request_id, "a JSON response body could not be read");
            parts.status = StatusCode::INTERNAL_SERVER_ERROR;
            parts.headers.remove(header::CONTENT_LENGTH);
            return Response::from_parts(parts, Body::empty());
        }
    };
    let Some(body) = body_with_request_id(&bytes, request_id) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

/// `body` with `requestId` in it, or `None` when it stays as it is (no JSON object).
fn body_with_request_id(body: &[u8], request_id: &str) -> Option<Vec<u8>> {
    if memchr::memmem::find(body, REQUEST_ID_KEY).is_some() {
        return keep_or_add_request_id(body, request_id);
    }
    let (opening, rest) = request_id_opening(body, request_id)?;
    Some([opening.as_slice(), &body[rest..]].concat())
}

/// The bytes that open a JSON object body with its `requestId` (`{"requestId":"<id>"`, and a
/// comma when the object has more), and where the rest of the body starts; `None` when the
/// body is no object. The id is a plain token: it needs no escaping.
fn request_id_opening(body: &[u8], request_id: &str) -> Option<(Vec<u8>, usize)> {
    let start = body.iter().position(|byte| !byte.is_ascii_whitespace())?;
    if body[start] != b'{' {
        return None;
    }
    let rest = start + 1;
    let empty = body[rest..].iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'}');
    let opening = format!("{{\"requestId\":\"{request_id}\"{}", if empty { "" } else { "," });
    Some((opening.into_bytes(), rest))
}

/// A body that names `requestId` somewhere: an object without the key at its top gets it
/// (`None`: it stays as it is).
fn keep_or_add_request_id(body: &[u8], request_id: &str) -> Option<Vec<u8>> {
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(mut object)) if !object.contains_key("requestId") => {
            object.insert("requestId".into(), request_id.into());
            serde_json::to_vec(&object).ok()
        }
        _ => None,
    }
}

/// The header that carries a request's id, set by [`request_id_layers`] when the caller sent none.
pub const REQUEST_ID: HeaderName = HeaderName::from_static(palaver_wire::body::REQUEST_ID_HEADER);

/// tower-http's request-id layers: a UUID for each request that has no `x-request-id` yet,
/// echoed on its response.
pub fn request_id_layers() -> (SetRequestIdLayer<MakeRequestUuid>, PropagateRequestIdLayer) {
    (SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid), PropagateRequestIdLayer::new(REQUEST_ID))
}

/// Keeps a caller's own `x-request-id` only when it is a plain token (1–128 letters, digits,
/// `.`, `_` or `-`), so what reaches logs and bodies is always that; otherwise a new one is made.
pub async fn drop_unusable_request_id(mut request: Request, next: Next) -> Response {
    let usable = |value: &[u8]| {
        (1..=128).contains(&value.len())
            && value.iter().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-'))
    };
    if request.headers().get(&REQUEST_ID).is_some_and(|value| !usable(value.as_bytes())) {
        request.headers_mut().remove(&REQUEST_ID);
    }
    next.run(request).await
}

/// Logs each request, and puts its id into JSON object bodies as `requestId` (the wire carries it
/// in the body as well as in `x-request-id`).
pub async fn observe(request: Request, next: Next) -> Response {
    let request_id = request
        .extensions()
        .get::<RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default()
        .to_string();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = Instant::now();
    let mut response = next.run(request).await;
    if let Some(Cause(err)) = response.extensions_mut().remove::<Cause>() {
        err.log(&request_id, "a request");
    }
    // Server functions speak Leptos's own encoding; only the HTTP API gets requestId. The
    // OpenAPI document is not an answer to quote: its root allows no field of ours.
    if is_json_answer(&response) && !path.starts_with("/api/") && path != crate::openapi::PATH {
        response = with_request_id(response, &request_id).await;
    }
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        latency_ms = started.elapsed().as_secs_f64() * 1000.0,
        request_id,
        "request"
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_id(body: &str) -> String {
        let changed = body_with_request_id(body.as_bytes(), "r1");
        changed.map_or(body.to_string(), |changed| String::from_utf8(changed).unwrap())
    }

    #[test]
    fn the_request_id_opens_an_object_without_reading_it() {
        assert_eq!(with_id(r#"{"data":[1,2]}"#), r#"{"requestId":"r1","data":[1,2]}"#);
        assert_eq!(with_id(" {  }"), r#"{"requestId":"r1"  }"#);
        assert_eq!(with_id("{}"), r#"{"requestId":"r1"}"#);
        assert_eq!(body_with_request_id(b"[1]", "r1"), None);
        assert_eq!(body_with_request_id(b"", "r1"), None);
    }

    #[test]
    fn a_body_naming_the_key_keeps_its_own_or_gets_it_at_its_top() {
        assert_eq!(with_id(r#"{"requestId":"mine","title":"x"}"#), r#"{"requestId":"mine","title":"x"}"#);
        let nested: serde_json::Value = serde_json::from_str(&with_id(r#"{"data":{"requestId":"n"}}"#)).unwrap();
        assert_eq!(nested, serde_json::json!({"data": {"requestId": "n"}, "requestId": "r1"}));
    }
}
