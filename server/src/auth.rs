//! Authentication at the HTTP edge: the caller extractor, the cross-site request check, and
//! the redirect of signed-out visitors from pages that need an account.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};

use palaver_core::accounts::PublicOrigins;
use palaver_core::accounts::auth::{Accounts, Caller, require_caller, resolve_caller, session_secret};
use palaver_core::accounts::service;

use crate::problem::Problem;
use palaver_wire::accounts::SignUpState;

/// The authenticated caller of a request; 401 `Unauthorized` without a valid session or token.
pub struct Authenticated(pub Caller);

impl<S: Send + Sync> FromRequestParts<S> for Authenticated
where
    Accounts: FromRef<S>,
{
    type Rejection = Problem;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Authenticated(require_caller(&Accounts::from_ref(state), &parts.headers).await?))
    }
}

/// The client's IP address, for rate limits: the peer's, or the one a trusted proxy forwards
/// ("unknown" when the server was not given it).
pub struct ClientAddress(pub String);

impl<S> FromRequestParts<S> for ClientAddress
where
    Accounts: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let proxies = Accounts::from_ref(state).settings.trusted_proxies;
        let address = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| proxies.client(peer.ip(), &parts.headers).to_string());
        Ok(ClientAddress(address.unwrap_or_else(|| "unknown".into())))
    }
}

/// Why a state-changing request is refused, if it is: it names a host that is not one of
/// the public origins (a page on another name that resolves here), its Origin (or Referer)
/// names another site, or it carries the session cookie but names no origin at all.
fn refusal(headers: &HeaderMap, authority: Option<&str>, origins: &PublicOrigins) -> Option<String> {
    // A Host header that is not text names no host (never the URI's authority instead).
    let host = match headers.get(header::HOST) {
        Some(value) => value.to_str().ok(),
        None => authority,
    };
    if !host.is_some_and(|host| origins.allows_host(host)) {
        let named = host.map_or("no host".to_string(), |host| format!("the host \"{host}\""));
        return Some(format!(
            "This request named {named}, and Palaver is reached at {}. Send it there, or set PALAVER_PUBLIC_URL to the origin users reach Palaver at.",
            origins.listed()
        ));
    }
    let named = headers.get(header::ORIGIN).or_else(|| headers.get(header::REFERER));
    let cross_site = match named {
        Some(origin) => !origin.to_str().is_ok_and(|origin| origins.allows_origin(origin)),
        None => session_secret(headers).is_some() && !headers.contains_key(header::AUTHORIZATION),
    };
    cross_site.then(|| {
        "This request came from another site. Send it from Palaver itself, or with a bearer token.".to_string()
    })
}

/// A mail link's page (`routes::mail`): its POST carries the whole capability in its path and
/// reads no cookie, so a post from another site can do nothing the link's holder could not; and
/// the page sends no referrer, so a browser's post from it says `Origin: null`.
pub(crate) fn is_mail_link_page(path: &str) -> bool {
    path.starts_with("/mail/answer/") || path.starts_with("/mail/confirm/")
}

pub async fn refuse_cross_site(State(accounts): State<Accounts>, request: Request, next: Next) -> Response {
    let unsafe_method = !matches!(*request.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if unsafe_method && !is_mail_link_page(request.uri().path()) {
        let authority = request.uri().authority().map(|authority| authority.as_str());
        if let Some(detail) = refusal(request.headers(), authority, &accounts.settings.public_origins) {
            return Problem::new(StatusCode::FORBIDDEN, "Cross-site request refused")
                .with_detail(detail)
                .into_response();
        }
    }
    next.run(request).await
}

/// Pages that need an account.
const ACCOUNT_PAGES: &[&str] = &["/", "/settings", "/admin", "/watch"];

/// Sends signed-out visitors of an account page to the log-in page (to sign-up on a server
/// with no account yet), and back afterwards.
pub async fn require_account_for_pages(State(accounts): State<Accounts>, request: Request, next: Next) -> Response {
    if request.method() == Method::GET && ACCOUNT_PAGES.contains(&request.uri().path()) {
        match resolve_caller(&accounts, request.headers()).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                let back = request.uri().path_and_query().map(|path| path.as_str()).unwrap_or("/");
                let next_param: String = form_urlencoded_component(back);
                let page = match service::sign_up_state(&accounts).await {
                    Ok(SignUpState::FirstAccount) => "signup",
                    Ok(_) => "login",
                    Err(err) => return Problem::from(err).into_response(),
                };
                return Redirect::to(&format!("/{page}?next={next_param}")).into_response();
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

    fn refused(pairs: &[(&str, &str)]) -> bool {
        let origins = PublicOrigins::local("127.0.0.1:3000".parse().unwrap());
        refusal(&headers(pairs), None, &origins).is_some()
    }

    #[test]
    fn cross_site_rules() {
        assert!(!refused(&[("host", "127.0.0.1:3000"), ("origin", "http://127.0.0.1:3000")]));
        assert!(!refused(&[("host", "localhost:3000"), ("origin", "http://localhost:3000")]));
        assert!(refused(&[("host", "127.0.0.1:3000"), ("origin", "https://evil.example")]));
        assert!(refused(&[("host", "127.0.0.1:3000"), ("origin", "null")]));
        assert!(!refused(&[("host", "127.0.0.1:3000"), ("referer", "http://127.0.0.1:3000/settings")]));
        assert!(refused(&[("host", "127.0.0.1:3000"), ("cookie", "palaver_session=x")]));
        assert!(!refused(&[
            ("host", "127.0.0.1:3000"),
            ("cookie", "palaver_session=x"),
            ("authorization", "Bearer t")
        ]));
        assert!(
            !refused(&[("host", "127.0.0.1:3000")]),
            "a client with no cookie and no origin is not a browser victim"
        );
    }

    /// DNS rebinding: the attacker's name, in both Host and Origin, is not this server's.
    #[test]
    fn a_foreign_host_is_refused_even_when_origin_matches_it() {
        assert!(refused(&[("host", "evil.example:3000"), ("origin", "http://evil.example:3000")]));
        assert!(refused(&[("host", "evil.example:3000")]));
        assert!(refused(&[("origin", "http://127.0.0.1:3000")]), "no host at all");
    }

    #[test]
    fn next_parameter_is_encoded() {
        assert_eq!(form_urlencoded_component("/?c=abc&x=1"), "/%3Fc%3Dabc%26x%3D1");
    }
}
