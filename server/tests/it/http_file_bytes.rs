//! `GET /files/{id}`: an upload's bytes for its owner, nothing for anyone else (404, so an id
//! reveals nothing), and headers that never let an upload run as the site.

use crate::common::{TestApp, TestUser};
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};
use tower::ServiceExt;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

/// A `GET` of `path` with these headers: its status, headers and bytes, as a browser gets them.
async fn fetch(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut request = Request::get(path).header(header::HOST, "palaver.test");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = app.router.clone().oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    (status, headers, response.into_body().collect().await.unwrap().to_bytes().to_vec())
}

async fn fetch_as(app: &TestApp, user: &TestUser, path: &str) -> (StatusCode, HeaderMap, Vec<u8>) {
    fetch(app, path, &[("authorization", &format!("Bearer {}", user.token))]).await
}

fn header_of(headers: &HeaderMap, name: header::HeaderName) -> &str {
    headers.get(&name).and_then(|value| value.to_str().ok()).unwrap_or_default()
}

async fn uploaded(app: &TestApp, user: &TestUser, filename: &str, mime_type: &str, bytes: &[u8]) -> String {
    let reply = app.upload(user, filename, mime_type, bytes).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.text);
    reply.json()["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_owner_gets_an_images_bytes_to_show_in_place() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let id = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let (status, headers, bytes) = fetch_as(&app, &ada, &format!("/files/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(bytes, PNG);
    assert_eq!(header_of(&headers, header::CONTENT_TYPE), "image/png");
    assert_eq!(header_of(&headers, header::CONTENT_DISPOSITION), "inline; filename*=UTF-8''receipt.png");
    assert_eq!(header_of(&headers, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    assert_eq!(header_of(&headers, header::CONTENT_SECURITY_POLICY), "sandbox; default-src 'none'");
    assert_eq!(header_of(&headers, header::CACHE_CONTROL), "private");

    // A text file keeps its type, but is saved rather than shown.
    let notes = uploaded(&app, &ada, "notes.csv", "text/csv", b"item,total\n").await;
    let (status, headers, bytes) = fetch_as(&app, &ada, &format!("/files/{notes}")).await;
    assert_eq!((status, bytes.as_slice()), (StatusCode::OK, b"item,total\n".as_slice()));
    assert_eq!(header_of(&headers, header::CONTENT_TYPE), "text/csv");
    assert_eq!(header_of(&headers, header::CONTENT_DISPOSITION), "attachment; filename*=UTF-8''notes.csv");
}

#[tokio::test]
async fn a_browser_session_reads_its_own_file() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let id = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let credentials = json!({"username": "ada", "password": "correct horse battery"});
    let login = app.send("POST", "/auth/login", &[("origin", "http://palaver.test")], Some(credentials)).await;
    let cookie = login.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let (status, _, bytes) = fetch(&app, &format!("/files/{id}"), &[("cookie", &cookie)]).await;
    assert_eq!((status, bytes.as_slice()), (StatusCode::OK, PNG));
}

#[tokio::test]
async fn anyone_but_the_owner_is_told_there_is_no_such_file() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let admin = app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    let grace = app.user("grace", Role::User).await;
    let id = uploaded(&app, &ada, "receipt.png", "image/png", PNG).await;
    let path = format!("/files/{id}");
    let unknown = fetch_as(&app, &ada, "/files/no-such-file").await;
    let expected: Value = serde_json::from_slice(&unknown.2).unwrap();
    assert_eq!((unknown.0, expected["title"].as_str()), (StatusCode::NOT_FOUND, Some("File not found")));
    let refusals = [
        ("another user", fetch_as(&app, &grace, &path).await),
        ("an admin", fetch_as(&app, &admin, &path).await),
        ("a signed-out visitor", fetch(&app, &path, &[]).await),
        ("a wrong token", fetch(&app, &path, &[("authorization", "Bearer not-a-token")]).await),
    ];
    for (who, (status, _, bytes)) in refusals {
        assert_eq!(status, StatusCode::NOT_FOUND, "{who}");
        let body: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(body["title"], expected["title"], "{who} gets the answer of an unknown id");
        assert_eq!(body["detail"], expected["detail"], "{who} gets the answer of an unknown id");
    }
}

#[tokio::test]
async fn html_svg_and_unknown_types_are_saved_as_opaque_bytes() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let page = b"<html><script>alert(document.cookie)</script></html>";
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"/>";
    for (filename, mime_type, bytes) in [
        ("page.html", "text/html", page.as_slice()),
        ("logo.svg", "image/svg+xml", svg.as_slice()),
        ("feed.xml", "application/xml", b"<feed/>".as_slice()),
        ("run.js", "text/javascript", b"alert(1)".as_slice()),
        ("blob", "application/x-unknown", b"?".as_slice()),
    ] {
        let id = uploaded(&app, &ada, filename, mime_type, bytes).await;
        let (status, headers, served) = fetch_as(&app, &ada, &format!("/files/{id}")).await;
        assert_eq!((status, served.as_slice()), (StatusCode::OK, bytes), "{filename}");
        assert_eq!(header_of(&headers, header::CONTENT_TYPE), "application/octet-stream", "{filename}");
        assert_eq!(
            header_of(&headers, header::CONTENT_DISPOSITION),
            format!("attachment; filename*=UTF-8''{filename}"),
            "{filename}"
        );
        assert_eq!(header_of(&headers, header::CONTENT_SECURITY_POLICY), "sandbox; default-src 'none'");
        assert_eq!(header_of(&headers, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    }
}

#[tokio::test]
async fn quotes_and_non_ascii_letters_in_a_name_are_encoded() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    // Stored directly: a multipart header could not carry these quotes as they are.
    let store = app.state.uploads.files.clone().unwrap();
    let mut writer = store.begin(1024).await.unwrap();
    writer.write(PNG).await.unwrap();
    let name = "Reçu \"final\"; x=1\r\n.png";
    let file = writer.finish(&store, &app.pool, &ada.id, name, "image/png").await.unwrap();
    let (status, headers, _) = fetch_as(&app, &ada, &format!("/files/{}", file.id)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        header_of(&headers, header::CONTENT_DISPOSITION),
        "inline; filename*=UTF-8''Re%C3%A7u%20%22final%22%3B%20x%3D1%0D%0A.png"
    );
}
