//! The HTTP status of a failed server function. The server-function layer answers every error
//! with 500; this sets the status the error itself names (400 for bad arguments, 401, 403, 404,
//! 409, 429 with `Retry-After`), in one place for every server function.

use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use leptos::server_fn::error::SERVER_FN_ERROR_HEADER;

use palaver_wire::error::AppError;

/// A server function's error body is one small JSON value.
const MAX_ERROR_BODY: usize = 64 * 1024;

pub async fn server_fn_status(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    // A form posted without JavaScript is redirected back with the error: keep the redirect.
    if !response.headers().contains_key(SERVER_FN_ERROR_HEADER) || response.status().is_redirection() {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_ERROR_BODY).await else {
        tracing::error!("a server function's error body could not be read");
        parts.status = StatusCode::INTERNAL_SERVER_ERROR;
        return Response::from_parts(parts, Body::empty());
    };
    if let Ok(error) = serde_json::from_slice::<AppError>(&bytes) {
        parts.status = StatusCode::from_u16(error.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if let AppError::TooManyRequests { retry_after_secs, .. } = error {
            parts.headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}
