//! The security headers on pages and API responses: a Content-Security-Policy that allows no
//! inline script but the page's own (by its nonce) and no framing, plus nosniff, the referrer
//! and permissions policies, and HSTS when users reach Palaver over https.

use crate::common::{Reply, TestApp};
use axum::http::{StatusCode, header};
use palaver_app::components::IMAGE_HOSTS_ATTRIBUTE;
use palaver_core::accounts::PublicOrigins;
use palaver_core::accounts::auth::AuthSettings;
use palaver_core::conversation::BlocksSettings;
use palaver_wire::accounts::Role;
use serde_json::json;

fn policy(reply: &Reply) -> String {
    reply.headers.get(header::CONTENT_SECURITY_POLICY).expect("a Content-Security-Policy").to_str().unwrap().to_string()
}

fn assert_common_headers(reply: &Reply) {
    let value = |name: &str| reply.headers.get(name).map(|value| value.to_str().unwrap().to_string());
    assert_eq!(value("x-frame-options").as_deref(), Some("DENY"));
    assert_eq!(value("x-content-type-options").as_deref(), Some("nosniff"));
    assert_eq!(value("referrer-policy").as_deref(), Some("same-origin"));
    let permissions = value("permissions-policy").expect("a Permissions-Policy");
    assert!(permissions.contains("camera=()") && permissions.contains("microphone=()"), "{permissions}");
    let csp = policy(reply);
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("object-src 'none'"), "{csp}");
    let scripts = csp.split("; ").find(|directive| directive.starts_with("script-src")).unwrap();
    assert!(scripts.starts_with("script-src 'self' 'wasm-unsafe-eval'"), "{scripts}");
    assert!(!scripts.contains("'unsafe-inline'") && !scripts.contains(" 'unsafe-eval'"), "{scripts}");
}

/// Checks that every `<script>` of a page carries the nonce its policy names; returns the
/// nonce and how many scripts there are.
fn scripts_carry_the_nonce(page: &Reply) -> (String, usize) {
    let csp = policy(page);
    let nonce = csp.split("'nonce-").nth(1).and_then(|rest| rest.split('\'').next()).expect("a nonce in the policy");
    let tags: Vec<&str> = page.text.split("<script").skip(1).map(|tag| tag.split('>').next().unwrap()).collect();
    for tag in &tags {
        assert!(tag.contains(&format!("nonce=\"{nonce}\"")), "a script without the page's nonce: <script{tag}>");
    }
    (nonce.to_string(), tags.len())
}

#[tokio::test]
async fn a_page_allows_exactly_its_own_inline_scripts_by_nonce() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let page = app.send("GET", "/login", &[], None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert_common_headers(&page);
    let (nonce, scripts) = scripts_carry_the_nonce(&page);
    assert!(nonce.len() >= 16, "{nonce}");
    assert!(scripts > 0, "the page has its hydration and theme scripts");
    let again = app.send("GET", "/login", &[], None).await;
    assert!(!policy(&again).contains(&nonce), "every page gets a nonce of its own");
}

/// The policy's nonce is made with the request, not by the renderer: pages rendered side by
/// side, the not-found page among them, each name the nonce their own scripts carry.
#[tokio::test]
async fn pages_rendered_side_by_side_each_name_their_own_nonce() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let pages = futures::future::join_all((0..24).map(|n| {
        let path = if n % 4 == 0 { "/no-such-page" } else { "/login" };
        app.send("GET", path, &[], None)
    }))
    .await;
    let mut nonces = std::collections::HashSet::new();
    for page in &pages {
        assert!([StatusCode::OK, StatusCode::NOT_FOUND].contains(&page.status), "{}", page.text);
        let (nonce, scripts) = scripts_carry_the_nonce(page);
        assert!(scripts > 0);
        nonces.insert(nonce);
    }
    assert_eq!(nonces.len(), pages.len(), "every page has a nonce of its own");
    assert!(pages.iter().any(|page| page.status == StatusCode::NOT_FOUND));
}

/// A conversation page streams its transcript in parts after the shell; the scripts that put
/// them in place carry the nonce too.
#[tokio::test]
async fn a_streamed_conversation_page_runs_only_scripts_with_its_nonce() {
    let ask = json!({"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}});
    let app = TestApp::with_mock(&json!({"responses": [{"toolCalls": [ask]}]}).to_string()).await;
    let user = app.user("ada", Role::User).await;
    let events = app.prompt(&user, json!({"prompt": "Pick a plan"})).await;
    let history = events.iter().find_map(|event| event["historyId"].as_str()).expect("a historyId").to_string();
    let bearer = format!("Bearer {}", user.token);
    let page = app.send("GET", &format!("/?c={history}"), &[("authorization", &bearer)], None).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains("Which plan?"), "the pending ask is on the page");
    let (_, scripts) = scripts_carry_the_nonce(&page);
    assert!(scripts > 2, "the shell's scripts and the streamed parts' ({scripts} found)");
}

fn image_sources(reply: &Reply) -> String {
    policy(reply).split("; ").find(|directive| directive.starts_with("img-src ")).expect("an img-src").to_string()
}

/// Images load only from Palaver, `data:` URLs and the configured image hosts (over https, on
/// any port, as a document's check allows them): an image a model points anywhere else is refused
/// by the browser, whatever draws it. The page names the same hosts to its block renderer.
#[tokio::test]
async fn images_load_only_from_the_app_data_urls_and_the_configured_image_hosts() {
    let unconfigured = TestApp::with_mock(r#"{"responses": []}"#).await;
    let page = unconfigured.send("GET", "/login", &[], None).await;
    assert_eq!(image_sources(&page), "img-src 'self' data:");
    assert!(!page.text.contains(IMAGE_HOSTS_ATTRIBUTE), "no hosts to name");
    assert_eq!(image_sources(&unconfigured.send("GET", "/health", &[], None).await), "img-src 'self' data:");

    let image_hosts = vec!["images.example.com".to_string(), "127.0.0.1".to_string()];
    let app = TestApp::with_blocks(r#"{"responses": []}"#, BlocksSettings { image_hosts, ..Default::default() }).await;
    let allowed = "img-src 'self' data: https://images.example.com:* https://127.0.0.1:*";
    let page = app.send("GET", "/login", &[], None).await;
    assert_eq!(image_sources(&page), allowed);
    let body = page.text.split("<body").nth(1).and_then(|body| body.split('>').next()).expect("a body");
    assert!(body.contains(&format!(" {IMAGE_HOSTS_ATTRIBUTE}=\"images.example.com 127.0.0.1\"")), "{body}");
    assert_eq!(image_sources(&app.send("GET", "/health", &[], None).await), allowed);
}

#[tokio::test]
async fn api_responses_redirects_and_errors_carry_the_headers_without_a_nonce() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    for (uri, status) in
        [("/health", StatusCode::OK), ("/auth/me", StatusCode::UNAUTHORIZED), ("/", StatusCode::SEE_OTHER)]
    {
        let reply = app.send("GET", uri, &[], None).await;
        assert_eq!(reply.status, status, "{uri}: {}", reply.text);
        assert_common_headers(&reply);
        assert!(!policy(&reply).contains("'nonce-"), "{uri}");
        assert!(reply.headers.get(header::STRICT_TRANSPORT_SECURITY).is_none(), "no HSTS over plain http");
    }
}

#[tokio::test]
async fn hsts_is_sent_when_users_reach_palaver_over_https() {
    let auth =
        AuthSettings { public_origins: PublicOrigins::parse("https://palaver.test").unwrap(), ..Default::default() };
    let app = TestApp::with_settings(r#"{"responses": []}"#, auth).await;
    let reply = app.send("GET", "/health", &[], None).await;
    assert_eq!(reply.headers.get(header::STRICT_TRANSPORT_SECURITY).unwrap(), "max-age=31536000");
}

#[tokio::test]
async fn a_json_route_refuses_a_body_that_is_not_json_in_the_problem_shape() {
    let app = TestApp::with_mock("[]").await;
    let ada = app.user("ada", Role::User).await;
    let bearer = format!("Bearer {}", ada.token);
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/gpt/histories")
        .header("host", "palaver.test")
        .header("authorization", &bearer)
        .header("content-type", "text/plain")
        .body(axum::body::Body::from(r#"{"title": "Plain"}"#))
        .unwrap();
    let reply = app.dispatch(request).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let problem = reply.json();
    assert_eq!(problem["code"], "content-type-not-json");
    assert!(problem["detail"].as_str().unwrap().contains("Content-Type: application/json"), "{problem}");
    let (_, histories) = app.json(&ada, "GET", "/gpt/histories", None).await;
    assert_eq!(histories["data"], json!([]), "nothing was created");
    // With the header, the same body is taken; a body-less POST needs none.
    let (status, _) = app.json(&ada, "POST", "/gpt/histories", Some(json!({"title": "Plain"}))).await;
    assert!(status.is_success());
    let reply = app.call(Some(&ada), "POST", "/auth/logout", None).await;
    assert_ne!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}
