//! Accounts over HTTP: sign-up rules, sessions (cookie flags, expiry, revocation), API tokens,
//! the cross-site request check and the log-in rate limit.

use std::time::Duration;

use crate::common::{Reply, TestApp, TestUser};
use axum::http::{StatusCode, header};
use palaver_core::accounts::auth::AuthSettings;
use palaver_wire::accounts::Role;
use serde_json::json;

const PASSWORD: &str = "correct horse battery";
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
const SAME_SITE: (&str, &str) = ("origin", "http://palaver.test");

fn session_cookie(reply: &Reply) -> String {
    let set_cookie = reply.headers.get(header::SET_COOKIE).expect("a session cookie").to_str().unwrap();
    set_cookie.split(';').next().unwrap().to_string()
}

async fn sign_up(app: &TestApp, username: &str) -> Reply {
    app.send("POST", "/auth/signup", &[SAME_SITE], Some(json!({"username": username, "password": PASSWORD}))).await
}

async fn log_in(app: &TestApp, username: &str, password: &str) -> Reply {
    app.send("POST", "/auth/login", &[SAME_SITE], Some(json!({"username": username, "password": password}))).await
}

#[tokio::test]
async fn the_first_account_is_admin_then_sign_up_closes() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let first = sign_up(&app, "Ada").await;
    assert_eq!(first.status, StatusCode::CREATED, "{}", first.text);
    assert_eq!(first.json()["data"]["role"], "admin");
    let cookie = first.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"), "{cookie}");

    let closed = sign_up(&app, "grace").await;
    assert_eq!(
        (closed.status, closed.json()["title"].clone()),
        (StatusCode::FORBIDDEN, json!("Sign-up is closed. Ask an admin for an account."))
    );
}

#[tokio::test]
async fn open_sign_up_makes_plain_users_and_names_are_case_insensitive() {
    let app = TestApp::with_settings(
        r#"{"responses": []}"#,
        AuthSettings { open_signup: true, ..crate::common::test_auth() },
    )
    .await;
    assert_eq!(sign_up(&app, "Ada").await.status, StatusCode::CREATED);
    let second = sign_up(&app, "grace").await;
    assert_eq!(second.json()["data"]["role"], "user");
    let taken = sign_up(&app, "ADA").await;
    assert_eq!((taken.status, taken.json()["title"].clone()), (StatusCode::CONFLICT, json!("That username is taken.")));
    let short =
        app.send("POST", "/auth/signup", &[SAME_SITE], Some(json!({"username": "ok_name", "password": "short"}))).await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST);
    let bad = sign_up(&app, "no spaces please").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(log_in(&app, "aDa", PASSWORD).await.status, StatusCode::OK, "log-in ignores case");
}

#[tokio::test]
async fn a_session_cookie_signs_requests_until_logout() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let me = app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await;
    assert_eq!((me.status, me.json()["data"]["username"].clone()), (StatusCode::OK, json!("ada")));
    assert!(me.json()["requestId"].is_string());

    let logout = app.send("POST", "/auth/logout", &[("cookie", &cookie), SAME_SITE], None).await;
    assert_eq!(logout.status, StatusCode::OK);
    assert!(logout.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap().contains("Max-Age=0"));
    let after = app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await;
    assert_eq!((after.status, after.json()["title"].clone()), (StatusCode::UNAUTHORIZED, json!("Unauthorized")));
}

#[tokio::test]
async fn sessions_expire_after_inactivity() {
    let settings = AuthSettings { session_idle: Duration::from_secs(60), ..crate::common::test_auth() };
    let app = TestApp::with_settings(r#"{"responses": []}"#, settings).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::OK);
    // Sixty idle seconds pass: move the session's expiry into the past.
    let backend = palaver_core::db::Backend::of(&app.pool);
    sqlx::query(&format!("UPDATE sessions SET expires_at = {}", backend.seconds_from_now("-1")))
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_busy_session_still_ends_at_its_absolute_lifetime() {
    let settings = AuthSettings { session_max: Duration::from_secs(3600), ..crate::common::test_auth() };
    let app = TestApp::with_settings(r#"{"responses": []}"#, settings).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::OK);
    // The session began an hour ago; it was used a moment ago, so it is not idle.
    let backend = palaver_core::db::Backend::of(&app.pool);
    sqlx::query(&format!("UPDATE sessions SET created_at = {}", backend.seconds_from_now("-3601")))
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::UNAUTHORIZED);
    let again = session_cookie(&log_in(&app, "ada", PASSWORD).await);
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &again)], None).await.status, StatusCode::OK, "a new log-in");
}

#[tokio::test]
async fn a_log_in_can_sign_the_user_out_everywhere_else() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let phone = session_cookie(&sign_up(&app, "ada").await);
    let laptop = session_cookie(&log_in(&app, "ada", PASSWORD).await);
    let me = |cookie: String| {
        let app = &app;
        async move { app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status }
    };
    assert_eq!(
        (me(phone.clone()).await, me(laptop.clone()).await),
        (StatusCode::OK, StatusCode::OK),
        "by default both stay"
    );
    let body = json!({"username": "ada", "password": PASSWORD, "endOtherSessions": true});
    let desk = session_cookie(&app.send("POST", "/auth/login", &[SAME_SITE], Some(body)).await);
    assert_eq!(me(desk.clone()).await, StatusCode::OK);
    assert_eq!((me(phone).await, me(laptop).await), (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED));
    let wrong = json!({"username": "ada", "password": "not the password", "endOtherSessions": true});
    assert_eq!(app.send("POST", "/auth/login", &[SAME_SITE], Some(wrong)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(desk.clone()).await, StatusCode::OK, "a failed log-in ends nothing");

    // The log-in page's form, its box ticked: the server function does the same.
    let form = format!("username=ada&password={}&end_other_sessions=true", PASSWORD.replace(' ', "+"));
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/log_in")
        .header(header::HOST, "palaver.test")
        .header(SAME_SITE.0, SAME_SITE.1)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(form))
        .unwrap();
    let page = session_cookie(&app.dispatch(request).await);
    assert_eq!((me(page).await, me(desk).await), (StatusCode::OK, StatusCode::UNAUTHORIZED));
}

#[tokio::test]
async fn use_slides_the_session_forward_at_most_once_a_minute() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let backend = palaver_core::db::Backend::of(&app.pool);
    let session = || async {
        let (expires_at, last_seen_at): (String, String) =
            sqlx::query_as("SELECT expires_at, last_seen_at FROM sessions").fetch_one(&app.pool).await.unwrap();
        (expires_at, last_seen_at)
    };
    // Used a minute ago, five seconds to live: the next request slides it a full idle period on.
    let (soon, a_minute_ago) = (backend.seconds_from_now("5"), backend.seconds_from_now("-61"));
    sqlx::query(&format!("UPDATE sessions SET expires_at = {soon}, last_seen_at = {a_minute_ago}"))
        .execute(&app.pool)
        .await
        .unwrap();
    app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await;
    let slid = session().await;
    let (a_day_on,): (String,) =
        sqlx::query_as(&format!("SELECT {}", backend.seconds_from_now("86400"))).fetch_one(&app.pool).await.unwrap();
    assert!(slid.0 > a_day_on, "a request pushes the expiry a full idle period ahead");
    // Within the minute a request only reads: nothing is written for it.
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::OK);
    assert_eq!(session().await, slid);
}

#[tokio::test]
async fn a_tokens_use_is_recorded_at_most_once_a_minute() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let last_used = || async {
        let (last_used_at,): (Option<String>,) =
            sqlx::query_as("SELECT last_used_at FROM api_tokens").fetch_one(&app.pool).await.unwrap();
        last_used_at
    };
    assert_eq!(last_used().await, None);
    assert_eq!(app.call(Some(&ada), "GET", "/auth/me", None).await.status, StatusCode::OK);
    let first = last_used().await.expect("the first use is recorded");
    assert_eq!(app.call(Some(&ada), "GET", "/auth/me", None).await.status, StatusCode::OK);
    assert_eq!(last_used().await.as_deref(), Some(first.as_str()), "a use within the minute writes nothing");
    let backend = palaver_core::db::Backend::of(&app.pool);
    sqlx::query(&format!("UPDATE api_tokens SET last_used_at = {}", backend.seconds_from_now("-61")))
        .execute(&app.pool)
        .await
        .unwrap();
    let a_minute_ago = last_used().await.unwrap();
    app.call(Some(&ada), "GET", "/auth/me", None).await;
    assert!(last_used().await.unwrap() > a_minute_ago, "a use after the minute is recorded");
}

#[tokio::test]
async fn tokens_are_shown_once_listed_and_revoked_at_once() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let created =
        app.send("POST", "/auth/tokens", &[("cookie", &cookie), SAME_SITE], Some(json!({"name": "Watch"}))).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let created = created.json();
    let token = created["token"].as_str().unwrap().to_string();
    assert!(token.starts_with("pvr_") && token.len() > 60);

    let bearer = format!("Bearer {token}");
    let me = app.send("GET", "/auth/me", &[("authorization", &bearer)], None).await;
    assert_eq!(me.json()["data"]["username"], "ada");

    let list = app.send("GET", "/auth/tokens", &[("cookie", &cookie)], None).await.json();
    assert_eq!(list["data"][0]["name"], "Watch");
    assert!(list["data"][0]["lastUsed"].is_string());
    assert!(!list.to_string().contains(&token), "the secret is never listed");
    let (stored,): (String,) = sqlx::query_as("SELECT token_hash FROM api_tokens").fetch_one(&app.pool).await.unwrap();
    assert_ne!(stored, token, "only a hash is stored");

    let id = created["id"].as_str().unwrap();
    let revoked = app.send("DELETE", &format!("/auth/tokens/{id}"), &[("authorization", &bearer)], None).await;
    assert_eq!(revoked.status, StatusCode::OK);
    assert_eq!(app.send("GET", "/auth/me", &[("authorization", &bearer)], None).await.status, StatusCode::UNAUTHORIZED);
    let again = app.send("DELETE", &format!("/auth/tokens/{id}"), &[("cookie", &cookie), SAME_SITE], None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn cross_site_requests_with_the_session_cookie_are_refused() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let body = Some(json!({"name": "Stolen"}));
    let foreign = app
        .send("POST", "/auth/tokens", &[("cookie", &cookie), ("origin", "https://evil.example")], body.clone())
        .await;
    assert_eq!(
        (foreign.status, foreign.json()["title"].clone()),
        (StatusCode::FORBIDDEN, json!("Cross-site request refused"))
    );
    let unnamed = app.send("POST", "/auth/tokens", &[("cookie", &cookie)], body.clone()).await;
    assert_eq!(unnamed.status, StatusCode::FORBIDDEN);
    let foreign_fn = app
        .send(
            "POST",
            "/api/create_api_token",
            &[
                ("cookie", &cookie),
                ("origin", "https://evil.example"),
                ("content-type", "application/x-www-form-urlencoded"),
            ],
            None,
        )
        .await;
    assert_eq!(foreign_fn.status, StatusCode::FORBIDDEN, "server functions are covered too");
    let same_site = app.send("POST", "/auth/tokens", &[("cookie", &cookie), SAME_SITE], body).await;
    assert_eq!(same_site.status, StatusCode::CREATED);
    let tokens = app.send("GET", "/auth/tokens", &[("cookie", &cookie)], None).await.json();
    assert_eq!(tokens["data"].as_array().unwrap().len(), 1, "the refused requests created nothing");
}

/// DNS rebinding on a fresh instance: a page at the attacker's name, resolving to this server,
/// signs up with Host and Origin both its own. It must not become the first admin.
#[tokio::test]
async fn a_sign_up_through_a_foreign_host_cannot_take_the_first_admin() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let body = json!({"username": "mallory", "password": PASSWORD});
    for (host, origin) in [
        ("evil.example", "http://evil.example"),
        ("evil.example:80", "http://evil.example"),
        ("palaver.test.evil.example", "http://palaver.test.evil.example"),
    ] {
        let reply = app.send("POST", "/auth/signup", &[("host", host), ("origin", origin)], Some(body.clone())).await;
        assert_eq!(reply.status, StatusCode::FORBIDDEN, "{host}: {}", reply.text);
        assert_eq!(reply.json()["title"], "Cross-site request refused");
        assert!(reply.json()["detail"].as_str().unwrap().contains("PALAVER_PUBLIC_URL"), "{}", reply.text);
    }
    let without_origin = app.send("POST", "/auth/signup", &[("host", "evil.example")], Some(body.clone())).await;
    assert_eq!(without_origin.status, StatusCode::FORBIDDEN, "a script client naming another host is refused too");
    let form = axum::http::Request::builder()
        .method("POST")
        .uri("/api/sign_up")
        .header(header::HOST, "evil.example")
        .header(header::ORIGIN, "http://evil.example")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(format!("username=mallory&password={}", PASSWORD.replace(' ', "+"))))
        .unwrap();
    let server_fn = app.dispatch(form).await;
    assert_eq!(server_fn.status, StatusCode::FORBIDDEN, "the sign-up server function too");
    let users: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(&app.pool).await.unwrap();
    assert_eq!(users, 0, "no account was made");

    let operator = sign_up(&app, "ada").await;
    assert_eq!((operator.status, operator.json()["data"]["role"].clone()), (StatusCode::CREATED, json!("admin")));
}

#[tokio::test]
async fn failed_log_ins_are_rate_limited_without_telling_usernames_apart() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    sign_up(&app, "ada").await;
    let wrong_password = log_in(&app, "ada", "not the password").await;
    let unknown_user = log_in(&app, "nobody", "not the password").await;
    assert_eq!(wrong_password.status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong_password.json()["title"], unknown_user.json()["title"]);
    assert_eq!(wrong_password.json()["title"], "Incorrect username or password.");
    for _ in 0..4 {
        log_in(&app, "ada", "still wrong").await;
    }
    let limited = log_in(&app, "ada", PASSWORD).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS, "{}", limited.text);
    let wait: u64 = limited.headers.get(header::RETRY_AFTER).unwrap().to_str().unwrap().parse().unwrap();
    assert!(wait > 0 && wait <= 900);
}

#[tokio::test]
async fn open_sign_up_makes_only_so_many_accounts_an_hour_from_one_address() {
    let settings = AuthSettings { open_signup: true, signups_per_hour: 2, ..crate::common::test_auth() };
    let app = TestApp::with_settings(r#"{"responses": []}"#, settings).await;
    // The first account (the admin) is neither refused nor counted.
    for username in ["founder", "ada", "grace"] {
        assert_eq!(sign_up(&app, username).await.status, StatusCode::CREATED, "{username}");
    }
    let refused = sign_up(&app, "linus").await;
    assert_eq!(refused.status, StatusCode::TOO_MANY_REQUESTS, "{}", refused.text);
    assert_eq!(refused.json()["title"], "Too many accounts were made from this address. Try again later.");
    let wait: u64 = refused.headers.get(header::RETRY_AFTER).unwrap().to_str().unwrap().parse().unwrap();
    assert!(wait > 3500 && wait <= 3600, "an hour after the first counted sign-up: {wait}");
    assert_eq!(log_in(&app, "linus", PASSWORD).await.status, StatusCode::UNAUTHORIZED, "no account was made");
}

#[tokio::test]
async fn an_easily_guessed_password_is_refused_with_advice() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let weak = app
        .send("POST", "/auth/signup", &[SAME_SITE], Some(json!({"username": "ada", "password": "password1234"})))
        .await;
    assert_eq!(weak.status, StatusCode::BAD_REQUEST);
    let title = weak.json()["title"].as_str().unwrap().to_string();
    assert!(title.starts_with("This password is too easy to guess. This is a very common password."), "{title}");
    let named = app
        .send(
            "POST",
            "/auth/signup",
            &[SAME_SITE],
            Some(json!({"username": "adalovelace", "password": "adalovelace1"})),
        )
        .await;
    assert_eq!(named.status, StatusCode::BAD_REQUEST, "the username and a digit: {}", named.text);
    assert_eq!(sign_up(&app, "ada").await.status, StatusCode::CREATED, "a passphrase passes");
}

#[tokio::test]
async fn cookies_are_secure_behind_https() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let reply = app
        .send(
            "POST",
            "/auth/signup",
            &[SAME_SITE, ("x-forwarded-proto", "https")],
            Some(json!({"username": "ada", "password": PASSWORD})),
        )
        .await;
    assert!(reply.headers.get(header::SET_COOKIE).unwrap().to_str().unwrap().ends_with("; Secure"));
}

#[tokio::test]
async fn pages_that_need_an_account_redirect_to_sign_up_on_a_new_server_else_to_log_in_and_back() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let reply = app.send("GET", "/settings", &[], None).await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER);
    assert_eq!(reply.headers.get(header::LOCATION).unwrap(), "/signup?next=/settings", "no account yet");
    app.user("ada", Role::User).await;
    let reply = app.send("GET", "/settings", &[], None).await;
    assert_eq!(reply.headers.get(header::LOCATION).unwrap(), "/login?next=/settings");
    let login = app.send("GET", "/login", &[], None).await;
    assert_eq!(login.status, StatusCode::OK);
    assert!(login.text.contains("Log in to Palaver"));
}

#[tokio::test]
async fn a_password_change_needs_the_current_one_and_ends_the_other_sessions() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let mine = session_cookie(&sign_up(&app, "adalovelace").await);
    let other = session_cookie(&log_in(&app, "adalovelace", PASSWORD).await);
    let change = |current: &str, new: &str| {
        let body = json!({"currentPassword": current, "newPassword": new});
        let app = &app;
        let mine = mine.clone();
        async move { app.send("POST", "/auth/password", &[("cookie", &mine), SAME_SITE], Some(body)).await }
    };
    let wrong = change("not it", "a brand new passphrase").await;
    assert_eq!(wrong.status, StatusCode::BAD_REQUEST);
    assert_eq!(wrong.json()["title"], "The current password is not right.");
    let as_username = change(PASSWORD, "AdaLovelace ").await;
    assert_eq!(as_username.status, StatusCode::BAD_REQUEST);
    assert!(as_username.json()["title"].as_str().unwrap().contains("may not be the username"), "{}", as_username.text);
    assert_eq!(log_in(&app, "adalovelace", PASSWORD).await.status, StatusCode::OK, "nothing changed yet");

    let changed = change(PASSWORD, "a brand new passphrase").await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json()["data"]["sessionsEnded"], 2, "the other log-in and the check above");
    assert_eq!(log_in(&app, "adalovelace", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(log_in(&app, "adalovelace", "a brand new passphrase").await.status, StatusCode::OK);
    let me = app.send("GET", "/auth/me", &[("cookie", &mine)], None).await;
    assert_eq!(me.status, StatusCode::OK, "the session that changed it stays");
    let them = app.send("GET", "/auth/me", &[("cookie", &other)], None).await;
    assert_eq!(them.status, StatusCode::UNAUTHORIZED, "another session ends");
}

/// A log-in as `username` from the peer `peer`, naming `forwarded` in X-Forwarded-For.
async fn log_in_from(app: &TestApp, peer: &str, forwarded: &str, username: &str, password: &str) -> Reply {
    let body = json!({"username": username, "password": password}).to_string();
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/auth/login")
        .header(header::HOST, "palaver.test")
        .header(SAME_SITE.0, SAME_SITE.1)
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-forwarded-for", forwarded)
        .extension(axum::extract::ConnectInfo(std::net::SocketAddr::new(peer.parse().unwrap(), 40000)))
        .body(axum::body::Body::from(body))
        .unwrap();
    app.dispatch(request).await
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_limits_count_each_forwarded_client_and_no_one_else_may_forward() {
    let trusted = palaver_core::accounts::TrustedProxies::parse("10.0.0.0/8").unwrap();
    let app = TestApp::with_settings(
        r#"{"responses": []}"#,
        AuthSettings { trusted_proxies: trusted, ..crate::common::test_auth() },
    )
    .await;
    sign_up(&app, "ada").await;
    // Twenty failures of one client through the proxy, a different username each: only the
    // address limit applies.
    for n in 0..20 {
        let failed = log_in_from(&app, "10.0.0.2", "198.51.100.9", &format!("user{n}"), "wrong").await;
        assert_eq!(failed.status, StatusCode::UNAUTHORIZED);
    }
    let blocked = log_in_from(&app, "10.0.0.2", "198.51.100.9", "ada", PASSWORD).await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS, "the forwarded client is limited");
    let other = log_in_from(&app, "10.0.0.2", "203.0.113.4", "ada", PASSWORD).await;
    assert_eq!(other.status, StatusCode::OK, "another client behind the same proxy is not: {}", other.text);

    // A peer that is not a trusted proxy cannot pick its address with the header.
    for n in 0..20 {
        log_in_from(&app, "192.0.2.1", &format!("203.0.113.{n}"), &format!("other{n}"), "wrong").await;
    }
    let spoofed = log_in_from(&app, "192.0.2.1", "203.0.113.99", "ada", PASSWORD).await;
    assert_eq!(spoofed.status, StatusCode::TOO_MANY_REQUESTS, "its failures counted against its own address");
}

#[tokio::test]
async fn a_token_with_an_expiry_stops_working_when_it_runs_out() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let headers = [("cookie", cookie.as_str()), SAME_SITE];
    let create = |body| app.send("POST", "/auth/tokens", &headers, Some(body));
    for days in [json!(0), json!(3651), json!(-1), json!(1.5), json!("7")] {
        let refused = create(json!({"name": "Bad", "expiresInDays": days})).await;
        assert_eq!(refused.status, StatusCode::BAD_REQUEST, "{days}: {}", refused.text);
    }
    let created = create(json!({"name": "Week", "expiresInDays": 7})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let bearer = format!("Bearer {}", created.json()["token"].as_str().unwrap());
    assert_eq!(app.send("GET", "/auth/me", &[("authorization", &bearer)], None).await.status, StatusCode::OK);
    let list = app.send("GET", "/auth/tokens", &[("cookie", &cookie)], None).await.json();
    let expires = list["data"][0]["expires"].as_str().unwrap().to_owned();
    let backend = palaver_core::db::Backend::of(&app.pool);
    let (six_days, eight_days): (String, String) = sqlx::query_as(&format!(
        "SELECT {}, {}",
        backend.seconds_from_now(&(6 * 86_400).to_string()),
        backend.seconds_from_now(&(8 * 86_400).to_string())
    ))
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert!(six_days < expires && expires < eight_days, "a week from now: {expires}");

    sqlx::query(&format!("UPDATE api_tokens SET expires_at = {}", backend.seconds_from_now("-1")))
        .execute(&app.pool)
        .await
        .unwrap();
    let expired = app.send("GET", "/auth/me", &[("authorization", &bearer)], None).await;
    assert_eq!(expired.status, StatusCode::UNAUTHORIZED, "an expired token is refused");
    let lasting = create(json!({"name": "Forever"})).await.json();
    let list = app.send("GET", "/auth/tokens", &[("cookie", &cookie)], None).await.json();
    let forever = list["data"].as_array().unwrap().iter().find(|token| token["id"] == lasting["id"]).unwrap().clone();
    assert!(forever["expires"].is_null(), "without expiresInDays a token lasts until revoked");
}

#[tokio::test]
async fn a_disabled_account_cannot_log_in_and_its_sessions_and_tokens_stop_until_enabled() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::Admin).await;
    let grace = app.user("grace", Role::User).await;
    let grace_cookie = session_cookie(&log_in(&app, "grace", PASSWORD).await);
    let update = |user: &TestUser, id: &str, body: serde_json::Value| {
        let (app, user, uri) = (&app, user.clone(), format!("/admin/users/{id}"));
        async move { app.call(Some(&user), "PATCH", &uri, Some(body)).await }
    };

    assert_eq!(update(&grace, &ada.id, json!({"disabled": true})).await.status, StatusCode::FORBIDDEN);
    assert_eq!(update(&ada, "nobody", json!({"disabled": true})).await.status, StatusCode::NOT_FOUND);
    assert_eq!(update(&ada, &grace.id, json!({"disabled": "yes"})).await.status, StatusCode::BAD_REQUEST);
    let own = update(&ada, &ada.id, json!({"disabled": true})).await;
    assert_eq!(
        (own.status, own.json()["title"].clone()),
        (StatusCode::BAD_REQUEST, json!("You cannot disable your own account."))
    );

    let disabled = update(&ada, &grace.id, json!({"disabled": true})).await;
    assert_eq!(disabled.status, StatusCode::OK, "{}", disabled.text);
    assert_eq!(disabled.json()["data"]["disabled"], true);
    assert_eq!(app.call(Some(&grace), "GET", "/auth/me", None).await.status, StatusCode::UNAUTHORIZED, "token");
    let by_cookie = app.send("GET", "/auth/me", &[("cookie", &grace_cookie)], None).await;
    assert_eq!(by_cookie.status, StatusCode::UNAUTHORIZED, "session");
    let right = log_in(&app, "grace", PASSWORD).await;
    assert_eq!(
        (right.status, right.json()["title"].clone()),
        (StatusCode::FORBIDDEN, json!("This account is disabled. Ask an admin to enable it."))
    );
    let wrong = log_in(&app, "grace", "not her password").await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "a wrong password learns nothing: {}", wrong.text);
    let listed = app.json(&ada, "GET", "/admin/users", None).await.1;
    let row = listed["data"].as_array().unwrap().iter().find(|user| user["id"] == grace.id.as_str()).unwrap().clone();
    assert_eq!(row["disabled"], true);

    assert_eq!(update(&ada, &grace.id, json!({"disabled": false})).await.json()["data"]["disabled"], false);
    assert_eq!(app.call(Some(&grace), "GET", "/auth/me", None).await.status, StatusCode::OK, "the token works again");
    assert_eq!(log_in(&app, "grace", PASSWORD).await.status, StatusCode::OK);
}

#[tokio::test]
async fn two_admins_cannot_disable_each_other_at_once() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::Admin).await;
    let hopper = app.user("hopper", Role::Admin).await;
    // Hopper's request was authenticated before Ada's change landed.
    let hopper_caller = palaver_core::accounts::auth::Caller {
        user: palaver_core::accounts::store::user_by_id(&app.pool, &hopper.id).await.unwrap().unwrap(),
        via: palaver_core::accounts::auth::CallerVia::Session,
    };
    let (status, _) =
        app.json(&ada, "PATCH", &format!("/admin/users/{}", hopper.id), Some(json!({"disabled": true}))).await;
    assert_eq!(status, StatusCode::OK);
    let late = palaver_core::accounts::service::admin_set_disabled(&app.state.accounts, &hopper_caller, &ada.id, true)
        .await
        .map_err(palaver_core::error::Error::into_kind);
    assert_eq!(late, Err(palaver_wire::error::AppError::LastAdmin));
    assert_eq!(app.call(Some(&ada), "GET", "/auth/me", None).await.status, StatusCode::OK, "Ada stays enabled");
}

#[tokio::test]
async fn an_admin_resets_a_password_and_the_accounts_sessions_end() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::Admin).await;
    let grace = app.user("grace", Role::User).await;
    let grace_cookie = session_cookie(&log_in(&app, "grace", PASSWORD).await);
    let reset = |user: &TestUser, id: &str, password: &str| {
        let (app, user, uri) = (&app, user.clone(), format!("/admin/users/{id}/password"));
        let body = json!({"password": password});
        async move { app.call(Some(&user), "POST", &uri, Some(body)).await }
    };
    assert_eq!(reset(&grace, &ada.id, "a takeover passphrase").await.status, StatusCode::FORBIDDEN);
    assert_eq!(reset(&ada, &grace.id, "short").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(reset(&ada, &grace.id, "Grace").await.status, StatusCode::BAD_REQUEST);
    assert_eq!(reset(&ada, "nobody", "a fresh passphrase").await.status, StatusCode::NOT_FOUND);
    assert_eq!(log_in(&app, "grace", PASSWORD).await.status, StatusCode::OK, "nothing changed yet");

    let done = reset(&ada, &grace.id, "a fresh passphrase").await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(done.json()["data"]["sessionsEnded"], 2, "both of her log-ins");
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &grace_cookie)], None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(log_in(&app, "grace", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(log_in(&app, "grace", "a fresh passphrase").await.status, StatusCode::OK);
}

/// How many rows of each table still name `user_id` or one of `histories`.
async fn rows_left(app: &TestApp, user_id: &str, histories: &[String]) -> Vec<(&'static str, i64)> {
    let history = histories.first().map(String::as_str).unwrap_or("none");
    let checks = [
        ("users", "SELECT COUNT(*) FROM users WHERE id = $1"),
        ("sessions", "SELECT COUNT(*) FROM sessions WHERE user_id = $1"),
        ("api_tokens", "SELECT COUNT(*) FROM api_tokens WHERE user_id = $1"),
        ("histories", "SELECT COUNT(*) FROM histories WHERE owner_id = $1 OR id = $2"),
        ("history_rows", "SELECT COUNT(*) FROM history_rows WHERE history_id = $2"),
        ("ai_requests", "SELECT COUNT(*) FROM ai_requests WHERE user_id = $1 OR history_id = $2"),
        ("files", "SELECT COUNT(*) FROM files WHERE owner_id = $1"),
        ("ask_audit", "SELECT COUNT(*) FROM ask_audit WHERE owner_id = $1 OR actor_id = $1"),
        ("live_events", "SELECT COUNT(*) FROM live_events WHERE user_id = $1"),
        ("approval_grants", "SELECT COUNT(*) FROM approval_grants WHERE user_id = $1"),
    ];
    let mut left = Vec::new();
    for (table, query) in checks {
        let (count,): (i64,) =
            sqlx::query_as(query).bind(user_id).bind(history).fetch_one(&app.pool).await.expect(table);
        left.push((table, count));
    }
    left
}

#[tokio::test]
async fn a_user_deletes_their_account_and_everything_it_owns() {
    let ask =
        json!({"id": "call_f", "name": "ask_files", "input": {"prompt": "Upload the receipt.", "accept": ["image"]}});
    let script = json!({"responses": [{"toolCalls": [ask]}, {"text": "Got it."}]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::Admin).await;
    let grace = app.user("grace", Role::User).await;
    let events = app.prompt(&grace, json!({"prompt": "Here is my receipt"})).await;
    let history = events[0]["historyId"].as_str().unwrap().to_string();
    let ask_id = crate::common::asked(&events);
    let upload = app.upload(&grace, "receipt.png", "image/png", PNG).await.json();
    let files =
        json!([{"fileId": upload["id"], "filename": "receipt.png", "mimeType": "image/png", "size": PNG.len()}]);
    let answer = json!({"toolCallId": ask_id, "action": "accept", "content": {"files": files}});
    let answered =
        app.call(Some(&grace), "POST", "/gpt/prompt", Some(json!({"historyId": history, "askResponse": answer})));
    let answered = answered.await;
    assert_eq!(answered.status, StatusCode::OK, "{}", answered.text);
    let histories = vec![history.clone()];
    let before: std::collections::BTreeMap<_, _> = rows_left(&app, &grace.id, &histories).await.into_iter().collect();
    for table in ["users", "api_tokens", "histories", "history_rows", "ai_requests", "files", "ask_audit"] {
        assert!(before[table] > 0, "{table} has grace's rows before: {before:?}");
    }

    let delete = |password: &str| app.call(Some(&grace), "DELETE", "/auth/me", Some(json!({"password": password})));
    let wrong = delete("not her password").await;
    assert_eq!(
        (wrong.status, wrong.json()["title"].clone()),
        (StatusCode::BAD_REQUEST, json!("The password is not right."))
    );
    assert_eq!(
        rows_left(&app, &grace.id, &histories).await.into_iter().collect::<std::collections::BTreeMap<_, _>>(),
        before
    );

    let deleted = delete(PASSWORD).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(deleted.json()["data"], json!({"deleted": true, "conversations": 1, "files": 1}));
    assert!(session_cookie(&deleted).ends_with('='), "the cookie is cleared");
    let left: Vec<_> =
        rows_left(&app, &grace.id, &histories).await.into_iter().filter(|(_, count)| *count > 0).collect();
    assert!(left.is_empty(), "rows left: {left:?}");
    let uploads = app.dir.path().join("uploads");
    if std::env::var_os("PALAVER_TEST_S3_URL").is_none() {
        assert_eq!(std::fs::read_dir(&uploads).unwrap().count(), 0, "the file's bytes are gone");
    }
    assert_eq!(app.call(Some(&grace), "GET", "/auth/me", None).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(log_in(&app, "grace", PASSWORD).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.call(Some(&ada), "GET", &format!("/gpt/histories/{history}"), None).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_last_admin_cannot_delete_their_account_while_others_remain() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::Admin).await;
    let grace = app.user("grace", Role::User).await;
    let refused = app.call(Some(&ada), "DELETE", "/auth/me", Some(json!({"password": PASSWORD}))).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
    assert_eq!(app.call(Some(&ada), "GET", "/auth/me", None).await.status, StatusCode::OK);
    let gone = app.call(Some(&grace), "DELETE", "/auth/me", Some(json!({"password": PASSWORD}))).await;
    assert_eq!(gone.status, StatusCode::OK);
    let alone = app.call(Some(&ada), "DELETE", "/auth/me", Some(json!({"password": PASSWORD}))).await;
    assert_eq!(alone.status, StatusCode::OK, "alone, the admin may go: the next sign-up is the admin");
}

/// A server function called from a signed-in page: its form, the session cookie, same origin.
async fn page_form(app: &TestApp, path: &str, cookie: &str, form: &str) -> Reply {
    let request = axum::http::Request::builder()
        .method("POST")
        .uri(path)
        .header(header::HOST, "palaver.test")
        .header(SAME_SITE.0, SAME_SITE.1)
        .header(header::COOKIE, cookie)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(form.to_string()))
        .unwrap();
    app.dispatch(request).await
}

/// Creates a token from the session `cookie`; its bearer header value.
async fn bearer_from(app: &TestApp, cookie: &str, body: serde_json::Value) -> String {
    let created = app.send("POST", "/auth/tokens", &[("cookie", cookie), SAME_SITE], Some(body)).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    format!("Bearer {}", created.json()["token"].as_str().unwrap())
}

async fn me_status(app: &TestApp, bearer: &str) -> StatusCode {
    app.send("GET", "/auth/me", &[("authorization", bearer)], None).await.status
}

#[tokio::test]
async fn an_api_token_cannot_make_tokens_so_none_outlives_its_own_expiry() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let day = bearer_from(&app, &cookie, json!({"name": "A day", "expiresInDays": 1})).await;

    for body in [json!({"name": "Forever"}), json!({"name": "Shorter", "expiresInDays": 1})] {
        let minted = app.send("POST", "/auth/tokens", &[("authorization", &day)], Some(body)).await;
        assert_eq!(
            (minted.status, minted.json()["title"].clone()),
            (
                StatusCode::FORBIDDEN,
                json!("An API token cannot create API tokens. Create them in Settings, signed in with your password.")
            )
        );
    }
    let request = axum::http::Request::builder()
        .method("POST")
        .uri("/api/create_api_token")
        .header(header::HOST, "palaver.test")
        .header(header::AUTHORIZATION, &day)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(axum::body::Body::from("name=Forever"))
        .unwrap();
    assert_eq!(app.dispatch(request).await.status, StatusCode::FORBIDDEN, "the server function refuses it too");
    let listed = app.send("GET", "/auth/tokens", &[("authorization", &day)], None).await.json();
    assert_eq!(listed["data"].as_array().unwrap().len(), 1, "only the session's token exists: {listed}");
    let from_page = page_form(&app, "/api/create_api_token", &cookie, "name=Watch").await;
    assert_eq!(from_page.status, StatusCode::OK, "a session makes them: {}", from_page.text);
}

#[tokio::test]
async fn a_password_change_revokes_the_accounts_tokens_unless_the_person_keeps_them() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let cookie = session_cookie(&sign_up(&app, "ada").await);
    let (watch, bot) = (
        bearer_from(&app, &cookie, json!({"name": "Watch"})).await,
        bearer_from(&app, &cookie, json!({"name": "Bot", "expiresInDays": 30})).await,
    );
    let change = |current: &str, new: &str, keep: Option<bool>| {
        let mut body = json!({"currentPassword": current, "newPassword": new});
        if let Some(keep) = keep {
            body["keepApiTokens"] = json!(keep);
        }
        let (app, cookie) = (&app, cookie.clone());
        async move { app.send("POST", "/auth/password", &[("cookie", &cookie), SAME_SITE], Some(body)).await }
    };

    let kept = change(PASSWORD, "a first new passphrase", Some(true)).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert_eq!(kept.json()["data"], json!({"changed": true, "sessionsEnded": 0, "tokensRevoked": 0}));
    assert_eq!((me_status(&app, &watch).await, me_status(&app, &bot).await), (StatusCode::OK, StatusCode::OK));

    let by_default = change("a first new passphrase", "a second new passphrase", None).await;
    assert_eq!(by_default.json()["data"]["tokensRevoked"], 2, "{}", by_default.text);
    assert_eq!(
        (me_status(&app, &watch).await, me_status(&app, &bot).await),
        (StatusCode::UNAUTHORIZED, StatusCode::UNAUTHORIZED)
    );
    let listed = app.send("GET", "/auth/tokens", &[("cookie", &cookie)], None).await.json();
    assert_eq!(listed["data"], json!([]), "revoked tokens are no longer listed");
    assert_eq!(app.send("GET", "/auth/me", &[("cookie", &cookie)], None).await.status, StatusCode::OK);

    // The Settings form: its box unticked revokes them, ticked keeps them.
    let phone = bearer_from(&app, &cookie, json!({"name": "Phone"})).await;
    let form = |current: &str, new: &str| format!("current_password={current}&new_password={new}").replace(' ', "+");
    let ticked = format!("{}&keep_api_tokens=true", form("a second new passphrase", "a third new passphrase for ada"));
    let kept = page_form(&app, "/api/change_password", &cookie, &ticked).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&kept.text).unwrap()["tokensRevoked"], 0);
    assert_eq!(me_status(&app, &phone).await, StatusCode::OK);
    let unticked = form("a third new passphrase for ada", "a fourth new passphrase for ada");
    let revoked = page_form(&app, "/api/change_password", &cookie, &unticked).await;
    assert_eq!(serde_json::from_str::<serde_json::Value>(&revoked.text).unwrap()["tokensRevoked"], 1);
    assert_eq!(me_status(&app, &phone).await, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn an_admins_password_reset_revokes_the_users_tokens_unless_the_admin_keeps_them() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::Admin).await;
    let grace = app.user("grace", Role::User).await;
    let grace_bearer = format!("Bearer {}", grace.token);
    let uri = format!("/admin/users/{}/password", grace.id);
    let reset = |body: serde_json::Value| app.call(Some(&ada), "POST", &uri, Some(body));

    let kept = reset(json!({"password": "a fresh passphrase for grace", "keepApiTokens": true})).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.text);
    assert_eq!(kept.json()["data"], json!({"reset": true, "sessionsEnded": 0, "tokensRevoked": 0}));
    assert_eq!(me_status(&app, &grace_bearer).await, StatusCode::OK);

    let revoked = reset(json!({"password": "another passphrase for grace"})).await;
    assert_eq!(revoked.json()["data"]["tokensRevoked"], 1, "{}", revoked.text);
    assert_eq!(me_status(&app, &grace_bearer).await, StatusCode::UNAUTHORIZED);
    assert_eq!(me_status(&app, &format!("Bearer {}", ada.token)).await, StatusCode::OK, "the admin's own stay");

    // The admin page's form: its box unticked revokes them.
    let grace_cookie = session_cookie(&log_in(&app, "grace", "another passphrase for grace").await);
    let phone = bearer_from(&app, &grace_cookie, json!({"name": "Phone"})).await;
    let admin_cookie = session_cookie(&log_in(&app, "ada", PASSWORD).await);
    let form = format!("user_id={}&new_password=a+third+passphrase+for+grace", grace.id);
    let done = page_form(&app, "/api/admin_reset_password", &admin_cookie, &form).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&done.text).unwrap()["tokensRevoked"], 1);
    assert_eq!(me_status(&app, &phone).await, StatusCode::UNAUTHORIZED);
}
