//! The MCP Apps sandbox: Palaver's second origin (`PALAVER_APPS_ADDR`), which serves one page
//! and nothing of Palaver's. A chat page frames it (`?host=` names the page's origin, one of
//! Palaver's public ones; `csp=` what the app declared; `permissions=` what it asked for). The
//! page is a relay: it frames the app's HTML (sent by the host in `sandbox-resource-ready`) in
//! an inner frame of its own origin, and passes JSON-RPC messages between that frame and the
//! host page, each side checked by its window and origin. The Content Security Policy is an
//! HTTP header, built from what the app declared (the specification's restrictive default
//! otherwise): the app's document inherits it, and only the host's pages may frame it.

use std::net::SocketAddr;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;

use palaver_core::accounts::PublicOrigins;
use palaver_core::mcp::{declared_csp, sandbox_policy};
use palaver_wire::apps::AppPermissions;

/// The sandbox page's query.
#[derive(Deserialize)]
struct Framed {
    /// The origin of the Palaver page that frames the app.
    host: String,
    /// The app's declared `_meta.ui.csp` (`AppCsp` as JSON); none: the restrictive default.
    #[serde(default)]
    csp: Option<String>,
    /// The app's `AppPermissions` as JSON.
    #[serde(default)]
    permissions: Option<String>,
}

/// The sandbox's router: `/sandbox` and nothing else.
pub fn router(public_origins: PublicOrigins) -> Router {
    Router::new()
        .route("/sandbox", get(sandbox_page))
        .fallback(|| async {
            (StatusCode::NOT_FOUND, "This origin draws MCP Apps for Palaver; it has no other pages.")
        })
        .with_state(public_origins)
}

async fn sandbox_page(State(public_origins): State<PublicOrigins>, Query(framed): Query<Framed>) -> Response {
    // Only an origin exactly as a browser writes it (scheme, host, port), and one of Palaver's:
    // nothing else reaches the policy or the page.
    let exact = url::Url::parse(&framed.host).is_ok_and(|url| url.origin().ascii_serialization() == framed.host);
    if !exact || !public_origins.allows_origin(&framed.host) {
        return (StatusCode::BAD_REQUEST, "The sandbox draws apps for Palaver's own pages only.").into_response();
    }
    let declared = match framed.csp.as_deref().map(serde_json::from_str::<serde_json::Value>).transpose() {
        Ok(declared) => declared.map(|csp| declared_csp(&csp)).unwrap_or_default(),
        Err(_) => return (StatusCode::BAD_REQUEST, "The app's csp must be JSON.").into_response(),
    };
    let permissions = match framed.permissions.as_deref().map(serde_json::from_str::<AppPermissions>).transpose() {
        Ok(permissions) => permissions.unwrap_or_default(),
        Err(_) => return (StatusCode::BAD_REQUEST, "The app's permissions must be JSON.").into_response(),
    };
    let policy = sandbox_policy(&declared, &framed.host);
    tracing::debug!(%policy, "an MCP App's sandbox");
    let page = RELAY_PAGE.replace("{host}", &framed.host).replace("{allow}", &permissions.allow_attribute());
    let headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")),
    ];
    match HeaderValue::from_str(&policy) {
        Ok(policy) => (headers, [(header::CONTENT_SECURITY_POLICY, policy)], page).into_response(),
        Err(_) => (StatusCode::BAD_REQUEST, "The app's csp cannot be sent.").into_response(),
    }
}

/// The origins browsers reach the sandbox listening on `addr` at: `apps_url` (its host's first
/// label may be `*`), else `http://*.localhost:<port>` for a loopback address; never one of
/// Palaver's own (`public_origins`).
pub fn origins(addr: SocketAddr, apps_url: Option<&str>, public_origins: &PublicOrigins) -> Result<String, String> {
    let origins = match apps_url {
        Some(url) => {
            // The `*` stands for a label: checked with one in its place.
            let wildcard = url.contains("://*.");
            let sample = url.replacen("://*.", "://server.", 1);
            let parsed = url::Url::parse(&sample).map_err(|err| format!("PALAVER_APPS_URL is not a URL: {err}."))?;
            let origin = parsed.origin().ascii_serialization();
            if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() || origin.contains('*') {
                return Err("PALAVER_APPS_URL must be an http or https origin, its host's first label may be *.".into());
            }
            match wildcard {
                true => origin.replacen("://server.", "://*.", 1),
                false => origin,
            }
        }
        // Every name under localhost is the machine itself, in every browser.
        None if addr.ip().is_loopback() => format!("http://*.localhost:{}", addr.port()),
        None => {
            return Err(format!(
                "PALAVER_APPS_ADDR {addr} is not a loopback address: set PALAVER_APPS_URL, the origin browsers reach it at."
            ));
        }
    };
    let sample = origins.replacen('*', "server", 1);
    if public_origins.allows_origin(&sample) {
        return Err(format!(
            "The apps' sandbox must be another origin than Palaver's pages, and {sample} is one of them."
        ));
    }
    Ok(origins)
}

/// The relay: refuses to run as a page of its own; frames the app in an inner frame of this
/// origin (`allow-scripts allow-same-origin allow-forms` and nothing more, so it can neither
/// navigate the chat nor open popups); writes the app's HTML there once the host sends it; and
/// passes every other message on, the host's to the app and the app's to the host only (never
/// the sandbox's own two notifications from the app). `{host}` and `{allow}` are checked above.
const RELAY_PAGE: &str = r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>MCP App</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}
iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="app" title="MCP App" sandbox="allow-scripts allow-same-origin allow-forms" allow="{allow}"></iframe>
<script>
"use strict";
(() => {
  const host = "{host}";
  const app = document.getElementById("app");
  if (window.self === window.top) {
    document.body.textContent = "This page draws an MCP App inside Palaver only.";
    return;
  }
  let written = false;
  window.addEventListener("message", (event) => {
    const message = event.data;
    const method = message && typeof message.method === "string" ? message.method : "";
    if (event.source === window.parent && event.origin === host) {
      if (method === "ui/notifications/sandbox-resource-ready") {
        if (written) return;
        written = true;
        const document = app.contentDocument;
        document.open();
        document.write(String((message.params && message.params.html) || ""));
        document.close();
      } else if (written) {
        app.contentWindow.postMessage(message, window.location.origin);
      }
    } else if (event.source === app.contentWindow && event.origin === window.location.origin) {
      if (!method.startsWith("ui/notifications/sandbox-")) window.parent.postMessage(message, host);
    }
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, host);
})();
</script></body></html>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_origins_are_none_of_palavers_own() {
        let listen: SocketAddr = "127.0.0.1:3000".parse().unwrap();
        let local = PublicOrigins::local(listen);
        let apps: SocketAddr = "127.0.0.1:3001".parse().unwrap();
        assert_eq!(origins(apps, None, &local).unwrap(), "http://*.localhost:3001");
        let behind = origins(apps, Some("https://*.apps.example.com"), &local).unwrap();
        assert_eq!(behind, "https://*.apps.example.com");
        assert_eq!(origins(apps, Some("https://apps.example.com/x"), &local).unwrap(), "https://apps.example.com");
        assert!(origins("0.0.0.0:3001".parse().unwrap(), None, &local).is_err(), "a public address names its origin");
        assert!(origins(apps, Some("http://127.0.0.1:3000"), &local).is_err(), "Palaver's own origin");
        assert!(origins(apps, Some("ftp://apps.example.com"), &local).is_err());
        assert!(origins(apps, Some("https://a.*.example.com"), &local).is_err());
    }
}
