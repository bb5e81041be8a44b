//! The JSON API takes JSON bodies only: a request to one of its routes that carries a body
//! must say `Content-Type: application/json` (or a `+json` type), else it gets 415 in the
//! API's problem shape before any handler reads it. Uploads (`/files/`) are multipart and
//! pages and server functions keep their own rules.

use axum::body::HttpBody;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::problem::{Problem, is_api_path};

/// Whether a body comes: the framing headers say so (HTTP/1.1 needs one of them for a body);
/// a request built in-process, without them, says it by its size.
fn has_body(request: &Request) -> bool {
    let headers = request.headers();
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return true;
    }
    match headers.get(header::CONTENT_LENGTH) {
        Some(length) => length.to_str().is_ok_and(|length| length.trim() != "0"),
        None => request.body().size_hint().lower() > 0,
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()) else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

pub async fn require_json_bodies(request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let api = is_api_path(path) && !path.starts_with("/files/");
    if api && has_body(&request) && !is_json(request.headers()) {
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
        let request = |pairs: &[(header::HeaderName, &str)], body: &'static str| {
            let mut request = Request::new(axum::body::Body::from(body));
            *request.headers_mut() = headers(pairs);
            request
        };
        assert!(!has_body(&request(&[(header::CONTENT_LENGTH, "0")], "")));
        assert!(has_body(&request(&[(header::TRANSFER_ENCODING, "chunked")], "")));
        assert!(has_body(&request(&[], "{}")), "in-process, by its size");
        assert!(!has_body(&request(&[], "")));
    }
}
