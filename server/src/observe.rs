//! Per-request id (tower-http's request-id layers) and log line, the one log line of a
//! service's error behind a problem, and the `requestId` every JSON object response carries.

use std::time::Instant;

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderName, header};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};

use crate::problem::Cause;

/// JSON bodies larger than this are passed through without a `requestId`.
const MAX_REWRITTEN_BODY: usize = 8 * 1024 * 1024;

/// A JSON answer of the API (not a file to download: an export keeps to its own content).
fn is_json_answer(response: &Response) -> bool {
    let header = |name| response.headers().get(name).and_then(|value| value.to_str().ok());
    header(header::CONTENT_TYPE).is_some_and(|value| value.starts_with("application/json"))
        && !header(header::CONTENT_DISPOSITION).is_some_and(|value| value.starts_with("attachment"))
}

async fn with_request_id(response: Response, request_id: &str) -> Response {
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_REWRITTEN_BODY).await else {
        tracing::error!(request_id, "a JSON response body could not be read");
        return Response::from_parts(parts, Body::empty());
    };
    let rewritten = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(mut object)) => {
            object.entry("requestId").or_insert_with(|| request_id.into());
            serde_json::to_vec(&object).ok()
        }
        _ => None,
    };
    let body = rewritten.unwrap_or_else(|| bytes.to_vec());
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
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
