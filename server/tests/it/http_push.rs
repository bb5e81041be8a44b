//! Web Push against a real push service: `scripts/push/push_service.py`, started per test on a
//! free loopback port, checks each request's VAPID signature against `GET /push/key`, decrypts
//! the payload with the keys the test's subscription was made with, and says what it got.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{TestApp, TestUser, asked};
use palaver_wire::accounts::Role;

/// A subscription of the right shape whose endpoint no test reaches (the access probes').
pub fn probe_subscription() -> Value {
    json!({
        "endpoint": "https://push.example.test/device",
        "keys": {
            "p256dh": "BLn9b-VR0ca83knDNZ32dCHGyjJp-1riX9ZTN40MqV8K_LpQmLqxC_DoHvqvFXO_nGdAB4W9dogZb_sM-uV4JbY",
            "auth": "_ordMnz7uTCmrpBTeUV4Bw"
        }
    })
}

/// The local push service; it stops when dropped.
pub(crate) struct PushService {
    child: Child,
    pub(crate) origin: String,
    http: reqwest::Client,
}

impl Drop for PushService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PushService {
    fn start(vapid_key: &str) -> Self {
        // Palaver's builder installs the TLS provider (see `http_mail`'s sink).
        let http = palaver_core::outbound::client_builder().build().unwrap();
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/push");
        let mut child = Command::new(folder.join(".venv/bin/python"))
            .arg(folder.join("push_service.py"))
            .args(["--vapid-key", vapid_key])
            .stdout(Stdio::piped())
            .spawn()
            .expect("scripts/push/.venv (scripts/install-tools.sh --test installs it)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let origin = line.trim().strip_prefix("listening on ").expect("the service's address").to_string();
        Self { child, origin, http }
    }

    /// A new subscription whose endpoint answers each push with `status`.
    async fn subscription(&self, status: u16) -> Value {
        let url = format!("{}/subscriptions?answer={status}", self.origin);
        self.http.post(url).send().await.unwrap().json().await.unwrap()
    }

    /// What came in, once `count` pushes have (the service waits up to 10 s for them).
    pub(crate) async fn received(&self, count: usize) -> Vec<Value> {
        let url = format!("{}/received?count={count}", self.origin);
        let received: Vec<Value> = self.http.get(url).send().await.unwrap().json().await.unwrap();
        assert!(received.len() >= count, "{count} pushes expected, got {received:#?}");
        received
    }
}

/// An app on `script`, a user, the push service, and that user's device on it.
pub(crate) async fn subscribed(script: Value, status: u16) -> (TestApp, TestUser, PushService, String) {
    subscribed_on(TestApp::with_mock(&script.to_string()).await, status).await
}

/// `app`'s user ada, the push service, and her device on it, whose endpoint answers `status`.
pub(crate) async fn subscribed_on(app: TestApp, status: u16) -> (TestApp, TestUser, PushService, String) {
    app.user("root", Role::Admin).await; // the first account is the admin, which ada is not
    let ada = app.user("ada", Role::User).await;
    let (_, key) = app.json(&ada, "GET", "/push/key", None).await;
    let service = PushService::start(key["publicKey"].as_str().unwrap());
    let mut subscription = service.subscription(status).await;
    subscription["name"] = json!("Ada's phone");
    let (created, body) = app.json(&ada, "POST", "/push/subscriptions", Some(subscription)).await;
    assert_eq!(created, StatusCode::CREATED, "{body}");
    (app, ada, service, body["id"].as_str().unwrap().to_string())
}

pub(crate) fn confirm(id: &str, prompt: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_confirm", "input": {"prompt": prompt}}]})
}

/// Sends `prompt` (in `history`, or a new conversation) and returns the conversation and the ask.
pub(crate) async fn ask(app: &TestApp, user: &TestUser, prompt: &str, history: Option<&str>) -> (String, String) {
    let turn = app.prompt(user, json!({"prompt": prompt, "historyId": history})).await;
    (turn.last().unwrap()["historyId"].as_str().unwrap().to_string(), asked(&turn))
}

pub(crate) async fn answer(app: &TestApp, token: &str) -> StatusCode {
    app.call(None, "POST", "/push/answer", Some(json!({"token": token}))).await.status
}

async fn pending(app: &TestApp, user: &TestUser) -> Vec<Value> {
    app.json(user, "GET", "/gpt/histories/pendingAsks", None).await.1["data"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_ask_sends_one_notification_that_answers_once_and_closes_when_answered() {
    let script = json!({"responses": [confirm("call_1", "Send the report to the team?"), {"text": "Sent."}]});
    let (app, ada, service, _) = subscribed(script, 201).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    let title = json!({"title": "Quarterly report"});
    app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(title)).await;
    let (_, ask_id) = ask(&app, &ada, "Send the report", Some(&history)).await;

    let received = service.received(1).await;
    let push = &received[0];
    assert_eq!(push["status"], 201, "{push:#}");
    assert_eq!(push["claims"]["aud"], service.origin.as_str(), "the audience is the endpoint's origin");
    assert!(push["ttl"].as_str().is_some_and(|ttl| ttl.parse::<u64>().unwrap() > 60));
    let notification = &push["payload"]["ask"];
    assert_eq!(notification["title"], "Quarterly report", "the conversation's title");
    let body = notification["body"].as_str().unwrap();
    assert!(body.starts_with("Send the report to the team?\n"), "{body}");
    assert!(body.ends_with("hours left to answer."), "the time left: {body}");
    assert_eq!((&notification["tag"], &notification["url"]), (&json!(ask_id), &json!(format!("/?c={history}"))));
    let actions = notification["actions"].as_array().unwrap();
    let ids: Vec<&str> = actions.iter().map(|action| action["action"].as_str().unwrap()).collect();
    assert_eq!(ids, ["approve", "deny"]);
    let token = |index: usize| actions[index]["token"].as_str().unwrap().to_string();
    assert!(actions.iter().all(|action| action["token"].as_str().unwrap().len() == 43));

    assert_eq!(answer(&app, &token(0)).await, StatusCode::OK);
    assert!(pending(&app, &ada).await.is_empty(), "the ask is answered");
    assert_eq!(answer(&app, &token(0)).await, StatusCode::CONFLICT, "a second use");
    assert_eq!(answer(&app, &token(1)).await, StatusCode::GONE, "the other button, once the ask ended");
    let trail = palaver_core::audit::store::page(&app.pool, None, None, 50).await.unwrap().entries;
    let entry = trail.iter().find(|entry| entry.tool_call_id == ask_id).expect("the answer's audit entry");
    assert_eq!((entry.surface.as_str(), entry.actor.as_deref()), ("push", Some("ada")));

    let closed = &service.received(2).await[1];
    assert_eq!(closed["payload"], json!({"closed": {"tag": ask_id}}), "the notification is withdrawn");
}

#[tokio::test]
async fn a_capability_answers_only_its_own_ask_until_it_ends_and_forgeries_are_unknown() {
    let script = json!({"responses": [confirm("call_1", "First?"), confirm("call_2", "Second?"), {"text": "Ok."}]});
    let (app, ada, service, _) = subscribed(script, 201).await;
    let (first, first_ask) = ask(&app, &ada, "One", None).await;
    let (_, second_ask) = ask(&app, &ada, "Two", None).await;
    let received = service.received(2).await;
    let tokens_of = |ask: &str| -> Vec<String> {
        let push = received.iter().find(|push| push["payload"]["ask"]["tag"] == ask).expect("its push");
        push["payload"]["ask"]["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["token"].as_str().unwrap().into())
            .collect()
    };
    let (first_tokens, second_tokens) = (tokens_of(&first_ask), tokens_of(&second_ask));

    // Forged, truncated or padded: unknown, whoever sends it.
    let forged = "A".repeat(43);
    for token in [forged.as_str(), &second_tokens[0][..42], &format!("{}=", &second_tokens[0][..42]), ""] {
        assert_eq!(answer(&app, token).await, StatusCode::NOT_FOUND, "{token}");
    }
    // A session counts for nothing here: signed in, a forged token is still unknown.
    let login = json!({"username": "ada", "password": "correct horse battery"});
    let session = app.send("POST", "/auth/login", &[("origin", "http://palaver.test")], Some(login)).await;
    let cookie = session.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let signed_in = [("cookie", cookie.as_str()), ("origin", "http://palaver.test")];
    let with_cookie = app.send("POST", "/push/answer", &signed_in, Some(json!({"token": forged}))).await;
    assert_eq!(with_cookie.status, StatusCode::NOT_FOUND, "{}", with_cookie.text);
    let no_token = app.send("POST", "/push/answer", &signed_in, Some(json!({}))).await;
    assert_eq!(no_token.status, StatusCode::BAD_REQUEST, "{}", no_token.text);
    assert_eq!(pending(&app, &ada).await.len(), 2, "nothing was answered");

    // The first ask answered in the chat: its capabilities answer nothing any more.
    let deny = json!({"toolCallId": first_ask, "buttonId": "deny"});
    let elsewhere = app.call(Some(&ada), "POST", &format!("/gpt/histories/{first}/turn"), Some(deny)).await;
    assert_eq!(elsewhere.status, StatusCode::OK, "{}", elsewhere.text);
    assert_eq!(answer(&app, &first_tokens[0]).await, StatusCode::GONE);
    // The second's capabilities past its deadline: ended.
    sqlx::query("UPDATE answer_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE tool_call_id = $1")
        .bind(&second_ask)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(answer(&app, &second_tokens[1]).await, StatusCode::GONE);
    let left = pending(&app, &ada).await;
    assert_eq!(left.len(), 1, "the second ask still waits");
    assert_eq!(left[0]["toolCallId"], second_ask.as_str());
}

#[tokio::test]
async fn a_device_added_after_an_ask_nobody_could_be_pushed_gets_the_next_ask() {
    let script = json!({"responses": [confirm("call_1", "First?"), confirm("call_2", "Second?")]});
    let app = TestApp::with_mock(&script.to_string()).await;
    app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    // Nobody has a device: the ask costs push nothing, and Palaver keeps that it is so.
    ask(&app, &ada, "First", None).await;
    let (_, key) = app.json(&ada, "GET", "/push/key", None).await;
    let service = PushService::start(key["publicKey"].as_str().unwrap());
    let (created, body) = app.json(&ada, "POST", "/push/subscriptions", Some(service.subscription(201).await)).await;
    assert_eq!(created, StatusCode::CREATED, "{body}");
    let (_, second) = ask(&app, &ada, "Second", None).await;
    // The first ask's push may or may not have looked before the device came: either way the
    // second is pushed.
    let pushed = |received: &[Value]| received.iter().any(|push| push["payload"]["ask"]["tag"] == second.as_str());
    assert!(
        pushed(&service.received(1).await) || pushed(&service.received(2).await),
        "the second ask reached the device"
    );
}

#[tokio::test]
async fn the_record_of_an_asks_push_goes_with_the_users_last_device() {
    let script = json!({"responses": [confirm("call_1", "Keep this?")]});
    let (app, ada, service, phone) = subscribed(script, 201).await;
    let (created, body) = app.json(&ada, "POST", "/push/subscriptions", Some(service.subscription(201).await)).await;
    assert_eq!(created, StatusCode::CREATED, "{body}");
    let tablet = body["id"].as_str().unwrap().to_string();
    ask(&app, &ada, "Keep", None).await;
    service.received(2).await; // one push a device, recorded before they went out
    let recorded = || async {
        let (count,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM push_notified_asks").fetch_one(&app.pool).await.unwrap();
        count
    };
    assert_eq!(recorded().await, 1, "the ask's push is recorded, to withdraw it when the ask ends");

    let (phone, tablet) = (format!("/push/subscriptions/{phone}"), format!("/push/subscriptions/{tablet}"));
    assert_eq!(app.call(Some(&ada), "DELETE", &phone, None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(recorded().await, 1, "her tablet may still be told the ask ended");
    assert_eq!(app.call(Some(&ada), "DELETE", &tablet, None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(recorded().await, 0, "with her last device the record goes: nothing is left to tell");
}

#[tokio::test]
async fn a_subscription_its_push_service_calls_gone_is_removed() {
    let script = json!({"responses": [confirm("call_1", "Still there?")]});
    let (app, ada, service, _) = subscribed(script, 410).await;
    ask(&app, &ada, "Anyone", None).await;
    assert_eq!(service.received(1).await[0]["status"], 410);
    let mut devices = Value::Null;
    for _ in 0..500 {
        devices = app.json(&ada, "GET", "/push/subscriptions", None).await.1;
        if devices["devices"] == json!([]) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the subscription is still there: {devices}");
}

#[tokio::test]
async fn no_push_for_a_conversation_a_visible_tab_shows() {
    let script = json!({"responses": [confirm("call_1", "Shown here?"), confirm("call_2", "Not shown?")]});
    let (app, ada, service, _) = subscribed(script, 201).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let shown = created["data"]["id"].as_str().unwrap().to_string();
    let presence = json!({"tabId": "tab-1", "historyId": shown});
    assert_eq!(app.call(Some(&ada), "PUT", "/push/presence", Some(presence)).await.status, StatusCode::NO_CONTENT);
    ask(&app, &ada, "Here", Some(&shown)).await;
    // Pushes are decided in the order asks are made: once the second's has come, the first's
    // would have.
    let (elsewhere, _) = ask(&app, &ada, "Elsewhere", None).await;
    let received = service.received(1).await;
    let urls: Vec<&Value> = received.iter().map(|push| &push["payload"]["ask"]["url"]).collect();
    assert_eq!(urls, [&json!(format!("/?c={elsewhere}"))], "only the conversation no tab shows");
}

#[tokio::test]
async fn a_destructive_approval_only_opens_the_conversation() {
    let delete = json!({"toolCalls": [{"id": "call_1", "name": "deleteCompletedTodos", "input": {}}]});
    let (app, ada, service, _) = subscribed(json!({"responses": [delete]}), 201).await;
    app.seed_completed_todo(&ada).await;
    let (_, approval) = ask(&app, &ada, "Clean up", None).await;
    let push = &service.received(1).await[0]["payload"]["ask"];
    assert_eq!(push["tag"], approval.as_str());
    assert!(push.get("actions").is_none(), "no buttons: {push:#}");
}

#[tokio::test]
async fn devices_are_listed_renamed_and_removed_by_their_owner_only_and_go_with_the_account() {
    let (app, ada, service, id) = subscribed(json!({"responses": []}), 201).await;
    let bob = app.user("bob", Role::User).await;
    let device = format!("/push/subscriptions/{id}");
    let (_, listed) = app.json(&ada, "GET", "/push/subscriptions", None).await;
    let listed = &listed["devices"][0];
    assert_eq!((&listed["id"], &listed["name"]), (&json!(id), &json!("Ada's phone")));
    assert_eq!(listed["service"], "127.0.0.1");
    assert_eq!(app.json(&bob, "GET", "/push/subscriptions", None).await.1["devices"], json!([]));
    for (method, body) in [("PATCH", Some(json!({"name": "Bob's now"}))), ("DELETE", None)] {
        assert_eq!(app.call(Some(&bob), method, &device, body).await.status, StatusCode::NOT_FOUND);
    }
    let renamed = app.call(Some(&ada), "PATCH", &device, Some(json!({"name": "  Kitchen tablet "}))).await;
    assert_eq!(renamed.status, StatusCode::NO_CONTENT);
    assert_eq!(app.json(&ada, "GET", "/push/subscriptions", None).await.1["devices"][0]["name"], "Kitchen tablet");
    let blank = app.call(Some(&ada), "PATCH", &device, Some(json!({"name": " "}))).await;
    assert_eq!(blank.status, StatusCode::BAD_REQUEST);
    assert_eq!(app.call(Some(&ada), "DELETE", &device, None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.json(&ada, "GET", "/push/subscriptions", None).await.1["devices"], json!([]));

    let again = service.subscription(201).await;
    assert_eq!(app.call(Some(&ada), "POST", "/push/subscriptions", Some(again)).await.status, StatusCode::CREATED);
    let gone = app.call(Some(&ada), "DELETE", "/auth/me", Some(json!({"password": "correct horse battery"}))).await;
    assert!(gone.status.is_success(), "{}", gone.text);
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM push_subscriptions").fetch_one(&app.pool).await.unwrap();
    assert_eq!(left, 0, "the account's devices went with it");
}

#[tokio::test]
async fn a_subscription_that_cannot_receive_pushes_is_refused_with_each_path() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let ada = app.user("ada", Role::User).await;
    let bad = json!({
        "endpoint": "http://push.example.test/device",
        "keys": {"p256dh": "BAAA", "auth": "c2hvcnQ"},
        "name": ""
    });
    let reply = app.call(Some(&ada), "POST", "/push/subscriptions", Some(bad)).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.text);
    let fields = reply.json()["fields"].clone();
    let paths: Vec<&str> = fields.as_array().unwrap().iter().map(|field| field["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["endpoint", "keys.p256dh", "keys.auth", "name"]);
    // The same shape on https (or http on loopback) is taken.
    let mut good = probe_subscription();
    assert_eq!(
        app.call(Some(&ada), "POST", "/push/subscriptions", Some(good.clone())).await.status,
        StatusCode::CREATED
    );
    good["endpoint"] = json!("http://[::1]:9/device");
    assert_eq!(app.call(Some(&ada), "POST", "/push/subscriptions", Some(good)).await.status, StatusCode::CREATED);
    let shapeless = app.call(Some(&ada), "POST", "/push/subscriptions", Some(json!({"endpoint": 1}))).await;
    assert_eq!(shapeless.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_routed_approval_notifies_its_approver_and_not_the_person_who_asked() {
    let delete = json!({"toolCalls": [{"id": "call_1", "name": "deleteCompletedTodos", "input": {}}]});
    let (app, ada, service, _) = subscribed(json!({"responses": [delete, {"text": "Deleted."}]}), 201).await;
    let bob = app.user("bob", Role::User).await;
    let mut device = service.subscription(201).await;
    let bobs_device = device["endpoint"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
    device["name"] = json!("Bob's phone");
    let (created, _) = app.json(&bob, "POST", "/push/subscriptions", Some(device)).await;
    assert_eq!(created, StatusCode::CREATED);
    let approver = palaver_wire::approvers::Approver::User { id: bob.id.clone(), username: "bob".into() };
    let route = palaver_wire::approvers::ApprovalRoute {
        tool: Some("deleteCompletedTodos".into()),
        server: None,
        approver,
        approvals: 1,
    };
    app.state.turns.preferences().save_approval_routes(&[route]).await.unwrap();
    app.seed_completed_todo(&ada).await;
    let (history, approval) = ask(&app, &ada, "Clean up", None).await;

    let push = service.received(1).await[0].clone();
    assert_eq!(push["subscription"], bobs_device.as_str(), "bob's device: {push:#}");
    assert_eq!(push["payload"]["ask"]["url"], "/", "opens bob's inbox, not ada's conversation");
    let answer = json!({"historyId": history, "toolCallId": approval, "buttonId": "approve"});
    let (status, _) = app.json(&bob, "POST", "/gpt/approvals/answer", Some(answer)).await;
    assert_eq!(status, StatusCode::OK);
    let received = service.received(2).await;
    assert_eq!(received[1]["payload"], json!({"closed": {"tag": approval}}));
    assert!(received.iter().all(|push| push["subscription"] == bobs_device.as_str()), "none for ada: {received:#?}");
}
