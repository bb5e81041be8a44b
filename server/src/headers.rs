//! The security headers every response carries, pages and API alike: the Content-Security-
//! Policy (a page sets its own, naming its nonce; every other response gets the policy without
//! one), no framing, no MIME sniffing, no referrer to other sites, no powerful features the
//! app does not use, and HSTS when users reach Palaver over https.

use std::sync::LazyLock;

use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use app::accounts::auth::Accounts;
use app::content_policy::content_security_policy;

/// The browser features Palaver never uses, turned off for it and anything it embeds.
const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), bluetooth=(), camera=(), display-capture=(), \
     geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     publickey-credentials-get=(), serial=(), usb=(), xr-spatial-tracking=()";

const HSTS: &str = "max-age=31536000";

/// The policy of every response that is not a page, made once.
static POLICY_WITHOUT_NONCE: LazyLock<HeaderValue> =
    LazyLock::new(|| HeaderValue::from_str(&content_security_policy(None)).expect("the policy is ASCII"));

pub async fn security_headers(State(accounts): State<Accounts>, request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.entry(header::CONTENT_SECURITY_POLICY).or_insert_with(|| POLICY_WITHOUT_NONCE.clone());
    let fixed: [(HeaderName, &'static str); 4] = [
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (HeaderName::from_static("permissions-policy"), PERMISSIONS_POLICY),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if accounts.settings.public_origins.uses_https() {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HeaderValue::from_static(HSTS));
    }
    response
}
