//! Authentication at the HTTP edge: the caller extractor, the cross-site request check, and
//! the redirect of signed-out visitors from pages that need an account.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use app::accounts::auth::{Caller, require_caller, resolve_caller, session_secret};
use app::state::AppState;

use crate::problem::Problem;

/// The authenticated caller of a request; 401 `Unauthorized` without a valid session or token.
pub struct Authenticated(pub Caller);

impl FromRequestParts<AppState> for Authenticated {
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(Authenticated(require_caller(state, &parts.headers).await?))
    }
}

/// The client's IP address, for rate limits ("unknown" when the server was not given it).
pub struct ClientAddress(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let address = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip().to_string());
        Ok(ClientAddress(address.unwrap_or_else(|| "unknown".into())))
    }
}

/// `scheme://host[:port]` → `host[:port]`.
fn authority(origin: &str) -> Option<&str> {
    let rest = origin.split_once("://")?.1;
    Some(rest.split('/').next().unwrap_or(rest))
}

/// A state-changing request a browser may have been tricked into sending: its Origin (or
/// Referer) names another site, or it carries the session cookie but names no origin at all.
fn is_cross_site(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|value| value.to_str().ok());
    let named = headers
        .get(header::ORIGIN)
        .or_else(|| headers.get(header::REFERER))
        .map(|value| value.to_str().ok().and_then(authority));
    match named {
        Some(origin) => origin.is_none() || origin != host,
        None => session_secret(headers).is_some() && !headers.contains_key(header::AUTHORIZATION),
    }
}

pub async fn refuse_cross_site(request: Request, next: Next) -> Response {
    let unsafe_method = !matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if unsafe_method && is_cross_site(request.headers()) {
        return Problem::new(StatusCode::FORBIDDEN, "Cross-site request refused")
            .with_detail("This request came from another site. Send it from Palaver itself, or with a bearer token.")
            .into_response();
    }
    next.run(request).await
}

/// Pages that need an account.
const ACCOUNT_PAGES: &[&str] = &["/", "/settings", "/admin", "/watch"];

/// Sends signed-out visitors of an account page to the log-in page, and back afterwards.
pub async fn require_account_for_pages(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::GET && ACCOUNT_PAGES.contains(&request.uri().path()) {
        match resolve_caller(&state, request.headers()).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                let back = request.uri().path_and_query().map(|path| path.as_str()).unwrap_or("/");
                let next_param: String = form_urlencoded_component(back);
                return Redirect::to(&format!("/login?next={next_param}")).into_response();
            }
            Err(err) => return Problem::from(err).into_response(),
        }
    }
    next.run(request).await
}

/// Percent-encodes a query parameter value.
fn form_urlencoded_component(value: &str) -> String {
    value
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => (byte as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        pairs.iter().map(|(key, value)| (key.parse().unwrap(), value.parse().unwrap())).collect()
    }

    #[test]
    fn cross_site_rules() {
        assert!(!is_cross_site(&headers(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000")])));
        assert!(is_cross_site(&headers(&[("host", "127.0.0.1:3000"), ("origin", "https://evil.example")])));
        assert!(is_cross_site(&headers(&[("host", "a"), ("origin", "null")])));
        assert!(!is_cross_site(&headers(&[("host", "a"), ("referer", "http://a/settings")])));
        assert!(is_cross_site(&headers(&[("host", "a"), ("cookie", "palaver_session=x")])));
        assert!(!is_cross_site(&headers(&[
            ("host", "a"),
            ("cookie", "palaver_session=x"),
            ("authorization", "Bearer t")
        ])));
        assert!(
            !is_cross_site(&headers(&[("host", "a")])),
            "a client with no cookie and no origin is not a browser victim"
        );
    }

    #[test]
    fn next_parameter_is_encoded() {
        assert_eq!(form_urlencoded_component("/?c=abc&x=1"), "/%3Fc%3Dabc%26x%3D1");
    }
}
