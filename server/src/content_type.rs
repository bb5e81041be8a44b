//! The JSON API takes JSON bodies only: a request to `/gpt/` or `/auth/` that carries a body
//! must say `Content-Type: application/json` (or a `+json` type), else it gets 415 in the
//! API's problem shape before any handler reads it. Uploads (`/files/`) are multipart and
//! pages and server functions keep their own rules.

use axum::body::HttpBody;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::problem::Problem;

fn has_body(headers: &HeaderMap) -> bool {
    let length = headers.get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok());
    headers.contains_key(header::TRANSFER_ENCODING) || length.is_some_and(|length| length.trim() != "0")
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()) else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

pub async fn require_json_bodies(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let api = path.starts_with("/gpt/") || path.starts_with("/auth/");
    // The headers say whether a body comes (HTTP/1.1 needs one of the two for a body); a
    // request built in-process says it by its size.
    let framed = request.headers().contains_key(header::CONTENT_LENGTH)
        || request.headers().contains_key(header::TRANSFER_ENCODING);
    let body = if framed { has_body(request.headers()) } else { request.body().size_hint().lower() > 0 };
    if api && body && !is_json(request.headers()) {
        return Problem::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type")
            .with_code("content-type-not-json")
            .with_detail("This route takes a JSON body: send it with Content-Type: application/json.")
            .into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs.iter().map(|(name, value)| (name.clone(), value.parse().unwrap())).collect()
    }

    #[test]
    fn json_types_with_or_without_parameters_are_json() {
        assert!(is_json(&headers(&[(header::CONTENT_TYPE, "application/json")])));
        assert!(is_json(&headers(&[(header::CONTENT_TYPE, "Application/JSON; charset=utf-8")])));
        assert!(is_json(&headers(&[(header::CONTENT_TYPE, "application/problem+json")])));
        assert!(!is_json(&headers(&[(header::CONTENT_TYPE, "text/plain")])));
        assert!(!is_json(&headers(&[(header::CONTENT_TYPE, "application/x-www-form-urlencoded")])));
        assert!(!is_json(&headers(&[])));
        assert!(!has_body(&headers(&[(header::CONTENT_LENGTH, "0")])));
        assert!(has_body(&headers(&[(header::TRANSFER_ENCODING, "chunked")])));
    }
}
