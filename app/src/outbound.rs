//! HTTP clients for the services Palaver calls out to (model providers, MCP servers): TLS
//! through rustls with the ring provider, installed once for the process.

use std::sync::Once;

/// A client builder whose TLS is ready.
pub fn client_builder() -> reqwest::ClientBuilder {
    static TLS: Once = Once::new();
    TLS.call_once(|| {
        // Fails only when a provider is installed already, which serves as well.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder()
}
