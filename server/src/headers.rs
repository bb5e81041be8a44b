//! The security headers every response carries, pages and API alike: the Content-Security-
//! Policy (a page sets its own, naming its nonce; every other response gets the policy without
//! one), no framing, no MIME sniffing, no referrer to other sites, no powerful features the
//! app does not use, and HSTS when users reach Palaver over https.

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use app::content_policy::content_security_policy;
use app::state::AppState;

/// The browser features Palaver never uses, turned off for it and anything it embeds.
const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), bluetooth=(), camera=(), display-capture=(), \
     geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     publickey-credentials-get=(), serial=(), usb=(), xr-spatial-tracking=()";

const HSTS: &str = "max-age=31536000";

pub async fn security_headers(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY)
        && let Ok(policy) = HeaderValue::from_str(&content_security_policy(None))
    {
        headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    let fixed: [(HeaderName, &'static str); 4] = [
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (HeaderName::from_static("permissions-policy"), PERMISSIONS_POLICY),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if state.auth.public_origins.uses_https() {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    }
    response
}
