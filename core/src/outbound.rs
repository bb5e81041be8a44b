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
