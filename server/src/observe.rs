//! Per-request id and log line, and the `requestId` every JSON object response carries.

use std::time::Instant;

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// JSON bodies larger than this are passed through without a `requestId`.
const MAX_REWRITTEN_BODY: usize = 8 * 1024 * 1024;

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json"))
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

pub async fn observe(request: Request, next: Next) -> Response {
    let request_id = uuid::Uuid::new_v4().to_string();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = Instant::now();
    let mut response = next.run(request).await;
    // Server functions speak Leptos's own encoding; only the HTTP API gets requestId.
    if is_json(&response) && !path.starts_with("/api/") {
        response = with_request_id(response, &request_id).await;
    }
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert("x-request-id", value);
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
