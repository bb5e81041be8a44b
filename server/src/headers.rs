//! The security headers every response carries, pages and API alike: the Content-Security-
//! Policy (a page's policy names the nonce its inline scripts carry; every other response gets
//! the policy without one), no framing, no MIME sniffing, no referrer to other sites, no
//! powerful features the app does not use, and HSTS when users reach Palaver over https.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use leptos::nonce::Nonce;
use leptos::prelude::{provide_context, use_context};

use palaver_app::state::AppState;
use palaver_core::content_policy::content_security_policy;

/// The browser features Palaver never uses, turned off for it and anything it embeds.
const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), bluetooth=(), camera=(), display-capture=(), \
     geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     publickey-credentials-get=(), serial=(), usb=(), xr-spatial-tracking=()";

const HSTS: &str = "max-age=31536000";

/// What the headers are made of, read from the settings once: the image hosts the policy
/// names, the policy of every response that is not a page, and whether HSTS is sent.
#[derive(Clone)]
pub struct SecurityHeaders {
    image_hosts: Arc<[String]>,
    /// The MCP Apps sandbox's origins (a pattern with `*`), which pages may frame.
    apps_origins: Option<Arc<str>>,
    policy_without_nonce: HeaderValue,
    hsts: bool,
}

impl SecurityHeaders {
    pub fn new(state: &AppState) -> Self {
        let image_hosts: Arc<[String]> =
            state.conversations.blocks.as_ref().map(|blocks| blocks.image_hosts.clone()).unwrap_or_default().into();
        let apps_origins = state.apps.origins.clone();
        SecurityHeaders {
            policy_without_nonce: policy_header(None, &image_hosts, apps_origins.as_deref()),
            image_hosts,
            apps_origins,
            hsts: state.accounts.settings.public_origins.uses_https(),
        }
    }
}

/// The policy as a header value: it holds only ASCII (the policy writes host names only).
fn policy_header(nonce: Option<&str>, image_hosts: &[String], apps_origins: Option<&str>) -> HeaderValue {
    HeaderValue::from_str(&content_security_policy(nonce, image_hosts, apps_origins)).expect("the policy is ASCII")
}

/// Sets the headers; a response that sets its own policy (the html block frame) or referrer
/// policy (a share link's) keeps it.
///
/// The page nonce is made here, once per request, and the page reads it from the request
/// (`provide_page_nonce`): the policy and the scripts it allows cannot disagree, whatever path
/// the response takes through the renderer.
pub async fn security_headers(State(settings): State<SecurityHeaders>, mut request: Request, next: Next) -> Response {
    let nonce = Nonce::new();
    request.extensions_mut().insert(nonce.clone());
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        let policy = if is_html(headers) {
            policy_header(Some(&nonce), &settings.image_hosts, settings.apps_origins.as_deref())
        } else {
            settings.policy_without_nonce.clone()
        };
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    let fixed: [(HeaderName, &'static str); 3] = [
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (HeaderName::from_static("permissions-policy"), PERMISSIONS_POLICY),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    // A share link's responses send no referrer at all (`routes::shares`).
    headers.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("same-origin"));
    if settings.hsts {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    }
    response
}

fn is_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|content_type| content_type.starts_with("text/html"))
}

/// Gives the page being rendered the nonce `security_headers` made for its request, in place of
/// the one Leptos makes for each render.
pub fn provide_page_nonce() {
    if let Some(nonce) = use_context::<Parts>().and_then(|parts| parts.extensions.get::<Nonce>().cloned()) {
        provide_context(nonce);
    }
}
