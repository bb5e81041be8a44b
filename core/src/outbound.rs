//! HTTP clients for the services Palaver calls out to (model providers, MCP servers, a bucket): TLS
//! through rustls with the ring provider, installed once for the process.

use std::sync::Once;

/// Installs the TLS provider every HTTP client of the process uses (also object_store's).
pub fn ensure_tls() {
    static TLS: Once = Once::new();
    TLS.call_once(|| {
        // Fails only when a provider is installed already, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A client builder whose TLS is ready.
pub fn client_builder() -> reqwest::ClientBuilder {
    ensure_tls();
    reqwest::Client::builder()
}

/// Whether Palaver may post to `url`, a URL a person gave it (a push endpoint, a webhook):
/// https, or http to a loopback address (a service running beside Palaver, as the tests' are).
/// Anything else (other schemes, plain http across a network, no host) is refused.
pub fn https_or_loopback(url: &url::Url) -> bool {
    let loopback = match url.host() {
        Some(url::Host::Ipv4(address)) => std::net::IpAddr::V4(address).is_loopback(),
        Some(url::Host::Ipv6(address)) => std::net::IpAddr::V6(address).is_loopback(),
        Some(url::Host::Domain(name)) => name == "localhost",
        None => false,
    };
    url.scheme() == "https" || (url.scheme() == "http" && loopback)
}
