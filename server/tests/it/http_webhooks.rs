//! Outgoing webhooks against a real receiver: an axum server on a free loopback port that
//! checks each delivery's `Palaver-Signature` with the secret the create response showed,
//! answers with the statuses the test scripts, and records what came in. The worker runs on a
//! schedule of milliseconds (`WebhookSettings`), so retries are driven, never slept through.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde_json::{Value, json};

use crate::common::{TestApp, TestUser};
use palaver_core::webhooks::WebhookSettings;
use palaver_core::webhooks::sign::{SignatureRefused, verify};
use palaver_wire::accounts::Role;

/// One delivery as the receiver saw it.
#[derive(Clone, Debug)]
struct Received {
    event: String,
    delivery: String,
    signature: String,
    content_type: String,
    body: Vec<u8>,
    /// Whether the signature checked out under the secret the receiver held then.
    verified: bool,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON payload")
    }
}

#[derive(Default)]
struct Receiving {
    secret: String,
    /// Statuses to answer, in turn; 200 once they run out (or `always` when set).
    script: VecDeque<u16>,
    always: Option<u16>,
    received: Vec<Received>,
}

/// The receiver; its server stops when the test's runtime does.
#[derive(Clone)]
struct Receiver {
    url: String,
    state: Arc<Mutex<Receiving>>,
}

async fn receive(State(state): State<Arc<Mutex<Receiving>>>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).unwrap_or_default().to_string();
    let mut state = state.lock().unwrap();
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let signature = header("palaver-signature");
    let verified = verify(&state.secret, &signature, &body, now, 300).is_ok();
    state.received.push(Received {
        event: header("palaver-event"),
        delivery: header("palaver-delivery"),
        signature,
        content_type: header("content-type"),
        body: body.to_vec(),
        verified,
    });
    let status = state.always.or_else(|| state.script.pop_front()).unwrap_or(200);
    StatusCode::from_u16(status).unwrap()
}

impl Receiver {
    async fn start() -> Self {
        let state = Arc::new(Mutex::new(Receiving::default()));
        let router = axum::Router::new().route("/hook", axum::routing::post(receive)).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        Self { url, state }
    }

    fn answer(&self, script: &[u16], always: Option<u16>) {
        let mut state = self.state.lock().unwrap();
        state.script = script.iter().copied().collect();
        state.always = always;
    }

    fn hold_secret(&self, secret: &str) {
        self.state.lock().unwrap().secret = secret.to_string();
    }

    fn received(&self) -> Vec<Received> {
        self.state.lock().unwrap().received.clone()
    }

    /// What came in, once `done` holds of it (polled, for at most 10 s).
    async fn until(&self, what: &str, done: impl Fn(&[Received]) -> bool) -> Vec<Received> {
        let started = Instant::now();
        loop {
            let received = self.received();
            if done(&received) {
                return received;
            }
            assert!(started.elapsed() < Duration::from_secs(10), "waited for {what}; got {received:#?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Settings whose waits are milliseconds.
fn quick(disable_after: u32) -> WebhookSettings {
    WebhookSettings {
        retry_delays: vec![Duration::from_millis(10); 5],
        disable_after,
        poll_every: Duration::from_millis(20),
        ..WebhookSettings::default()
    }
}

/// An app on `script` whose webhooks deliver as `settings` say, ada, and her webhook on a
/// new receiver.
async fn hooked(script: Value, settings: WebhookSettings) -> (TestApp, TestUser, Receiver, String) {
    let reach = palaver_server::ReachConfig { webhooks: settings, ..Default::default() };
    let app = TestApp::with_reach(&script.to_string(), reach).await;
    app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    let receiver = Receiver::start().await;
    let new = json!({"url": receiver.url, "description": "Ada's bridge"});
    let (status, created) = app.json(&ada, "POST", "/webhooks", Some(new)).await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let secret = created["secret"].as_str().unwrap();
    assert_eq!(secret.len(), 43, "256 bits, base64url");
    receiver.hold_secret(secret);
    let webhook = &created["webhook"];
    assert_eq!(webhook["events"], json!(["ask.created", "ask.resolved", "turn.done"]), "all by default");
    assert_eq!((&webhook["enabled"], &webhook["description"]), (&json!(true), &json!("Ada's bridge")));
    (app, ada, receiver, webhook["id"].as_str().unwrap().to_string())
}

async fn deliveries(app: &TestApp, user: &TestUser, webhook: &str) -> Vec<Value> {
    let (status, body) = app.json(user, "GET", &format!("/webhooks/{webhook}/deliveries"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["deliveries"].as_array().unwrap().clone()
}

/// The webhook's deliveries once `done` holds of them (polled, for at most 10 s).
async fn deliveries_until(
    app: &TestApp,
    user: &TestUser,
    webhook: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let listed = deliveries(app, user, webhook).await;
        if done(&listed) {
            return listed;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "deliveries: {listed:#?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn ping(app: &TestApp, user: &TestUser, webhook: &str) -> String {
    let (status, queued) = app.json(user, "POST", &format!("/webhooks/{webhook}/test"), None).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{queued}");
    queued["deliveryId"].as_str().unwrap().to_string()
}

fn of_type<'a>(received: &'a [Received], event: &str) -> Vec<&'a Received> {
    received.iter().filter(|delivery| delivery.event == event).collect()
}

#[tokio::test]
async fn an_ask_its_answer_and_the_turns_reach_the_webhook_signed() {
    let confirm =
        json!({"toolCalls": [{"id": "call_1", "name": "ask_confirm", "input": {"prompt": "Send the report?"}}]});
    let (app, ada, receiver, _) = hooked(json!({"responses": [confirm, {"text": "Sent."}]}), quick(5)).await;
    let turn = app.prompt(&ada, json!({"prompt": "Send the report"})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();

    let received = receiver.until("ask.created", |got| !of_type(got, "ask.created").is_empty()).await;
    let created = of_type(&received, "ask.created")[0].clone();
    assert!(created.verified, "the signature checks out: {}", created.signature);
    assert_eq!(created.content_type, "application/json");
    let payload = created.json();
    assert_eq!(payload["type"], "ask.created");
    assert!(payload["id"].as_str().is_some_and(|id| !id.is_empty()) && payload["createdAt"].is_string());
    let data = &payload["data"];
    assert_eq!(data["conversation"]["id"], history.as_str());
    let ask = &data["ask"];
    assert_eq!((&ask["kind"], &ask["prompt"]), (&json!("confirm"), &json!("Send the report?")));
    assert!(ask["expiresAt"].is_string(), "{ask:#}");
    let ask_id = ask["toolCallId"].as_str().unwrap().to_string();
    assert_eq!(ask["simple"]["toolCallId"], ask_id.as_str());
    let turn_url = data["answer"]["turn"].as_str().unwrap().to_string();
    assert_eq!(turn_url, format!("/gpt/histories/{history}/turn"), "relative without PALAVER_PUBLIC_URL");

    // A one-byte change is refused by the receiver's check.
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let secret = receiver.state.lock().unwrap().secret.clone();
    let mut forged = created.body.clone();
    forged[10] ^= 1;
    assert_eq!(verify(&secret, &created.signature, &forged, now, 300), Err(SignatureRefused::Mismatch));

    // The bridge answers through the headless API, as the payload says.
    let button = ask["simple"]["buttons"][0]["id"].as_str().unwrap();
    let answer = json!({"toolCallId": ask_id, "buttonId": button});
    let (status, answered) = app.json(&ada, "POST", &turn_url, Some(answer)).await;
    assert_eq!(status, StatusCode::OK, "{answered}");

    let received = receiver
        .until("ask.resolved and the second turn.done", |got| {
            of_type(got, "ask.resolved").len() == 1 && of_type(got, "turn.done").len() == 2
        })
        .await;
    assert!(received.iter().all(|delivery| delivery.verified), "every delivery is signed");
    let resolved = of_type(&received, "ask.resolved")[0].json();
    assert_eq!(resolved["data"]["resolved"]["toolCallId"], ask_id.as_str());
    assert_eq!(resolved["data"]["resolved"]["ending"], "answered");
    let done: Vec<Value> = of_type(&received, "turn.done").iter().map(|delivery| delivery.json()).collect();
    assert!(done.iter().any(|done| done["data"]["pendingAsk"] == ask_id.as_str()), "the turn that paused on it");
    assert!(done.iter().any(|done| done["data"].get("pendingAsk").is_none()), "the turn that finished");
    let ids: std::collections::BTreeSet<&str> = received.iter().map(|delivery| delivery.delivery.as_str()).collect();
    assert_eq!(ids.len(), received.len(), "each delivery has its own id");
}

#[tokio::test]
async fn a_failing_receiver_is_retried_with_the_same_delivery_id_until_it_answers() {
    let (app, ada, receiver, webhook) = hooked(json!({"responses": []}), quick(5)).await;
    receiver.answer(&[500, 500], None);
    let delivery = ping(&app, &ada, &webhook).await;
    let received = receiver.until("three attempts", |got| got.len() == 3).await;
    assert!(received.iter().all(|attempt| attempt.delivery == delivery && attempt.event == "ping" && attempt.verified));
    assert_eq!(received[0].body, received[2].body, "every attempt sends the same payload");
    let listed = deliveries_until(&app, &ada, &webhook, |listed| listed[0]["status"] == "delivered").await;
    assert_eq!((&listed[0]["id"], &listed[0]["attempts"]), (&json!(delivery), &json!(3)));
    assert_eq!((&listed[0]["lastStatus"], &listed[0]["event"]), (&json!(200), &json!("ping")));
    assert!(listed[0].get("nextAttemptAt").is_none() && listed[0].get("lastError").is_none());

    // A rotated secret signs what follows; the old one no longer checks out.
    let (status, rotated) = app.json(&ada, "POST", &format!("/webhooks/{webhook}/secret"), None).await;
    assert_eq!(status, StatusCode::OK, "{rotated}");
    let secret = rotated["secret"].as_str().unwrap();
    assert_ne!(secret, receiver.state.lock().unwrap().secret);
    receiver.hold_secret(secret);
    ping(&app, &ada, &webhook).await;
    let received = receiver.until("the ping after the rotation", |got| got.len() == 4).await;
    assert!(received[3].verified, "signed with the new secret");
}

#[tokio::test]
async fn a_receiver_that_always_fails_gets_its_webhook_disabled_until_enabled_again() {
    let (app, ada, receiver, webhook) = hooked(json!({"responses": []}), quick(3)).await;
    receiver.answer(&[], Some(503));
    let delivery = ping(&app, &ada, &webhook).await;
    let hooks = || async { app.json(&ada, "GET", "/webhooks", None).await.1["webhooks"][0].clone() };
    let started = Instant::now();
    let disabled = loop {
        let hook = hooks().await;
        if hook["enabled"] == false {
            break hook;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "not disabled: {hook:#}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let reason = disabled["disabledReason"].as_str().unwrap();
    assert!(reason.contains("3 failed attempts in a row") && reason.contains("503"), "{reason}");
    let listed = deliveries(&app, &ada, &webhook).await;
    assert_eq!((&listed[0]["id"], &listed[0]["status"]), (&json!(delivery), &json!("pending")), "held, not lost");
    assert_eq!((&listed[0]["attempts"], &listed[0]["lastStatus"]), (&json!(3), &json!(503)));
    assert_eq!(receiver.received().len(), 3, "no attempt past the one that disabled it");

    // Enabled again, it resumes its pending delivery; the receiver now answers.
    receiver.answer(&[], None);
    let (status, enabled) =
        app.json(&ada, "PATCH", &format!("/webhooks/{webhook}"), Some(json!({"enabled": true}))).await;
    assert_eq!(status, StatusCode::OK, "{enabled}");
    assert!(enabled.get("disabledReason").is_none(), "{enabled}");
    receiver.until("the held delivery", |got| got.len() == 4 && got[3].delivery == delivery).await;
    deliveries_until(&app, &ada, &webhook, |listed| listed[0]["status"] == "delivered").await;
}

#[tokio::test]
async fn another_users_webhook_is_not_found_and_bad_urls_are_refused_by_field() {
    let (app, ada, _receiver, webhook) = hooked(json!({"responses": []}), quick(5)).await;
    let bob = app.user("bob", Role::User).await;
    let (_, listed) = app.json(&bob, "GET", "/webhooks", None).await;
    assert_eq!(listed["webhooks"], json!([]));
    let theirs = format!("/webhooks/{webhook}");
    for (method, uri, body) in [
        ("PATCH", theirs.clone(), Some(json!({"enabled": false}))),
        ("DELETE", theirs.clone(), None),
        ("POST", format!("{theirs}/secret"), None),
        ("GET", format!("{theirs}/deliveries"), None),
        ("POST", format!("{theirs}/test"), None),
    ] {
        let reply = app.call(Some(&bob), method, &uri, body).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{method} {uri}: {}", reply.text);
    }
    assert_eq!(app.json(&ada, "GET", "/webhooks", None).await.1["webhooks"][0]["enabled"], true, "untouched");

    for url in ["ftp://example.com/hook", "http://example.com/hook", "garbage", ""] {
        let (status, refused) = app.json(&ada, "POST", "/webhooks", Some(json!({"url": url}))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {refused}");
        assert_eq!(
            (&refused["fields"][0]["path"], &refused["fields"][0]["code"]),
            (&json!("url"), &json!("INVALID_URL"))
        );
    }
    let bad_events = json!({"url": "https://hooks.example.test/x", "events": ["ask.created", "ask.bogus"]});
    let (status, refused) = app.json(&ada, "POST", "/webhooks", Some(bad_events)).await;
    assert_eq!((status, &refused["fields"][0]["path"]), (StatusCode::BAD_REQUEST, &json!("events[1]")));
    let (status, refused) = app.json(&ada, "PATCH", &theirs, Some(json!({"url": "http://10.0.0.1/x"}))).await;
    assert_eq!((status, &refused["fields"][0]["path"]), (StatusCode::BAD_REQUEST, &json!("url")));

    // At most ten each, also when the last places are asked for at once.
    for index in 1..8 {
        let new = json!({"url": format!("https://hooks.example.test/{index}"), "events": ["turn.done"]});
        assert_eq!(app.json(&ada, "POST", "/webhooks", Some(new)).await.0, StatusCode::CREATED);
    }
    let at_once = (8..13).map(|index| {
        let new = json!({"url": format!("https://hooks.example.test/{index}"), "events": ["turn.done"]});
        app.call(Some(&ada), "POST", "/webhooks", Some(new))
    });
    let statuses: Vec<StatusCode> = futures::future::join_all(at_once).await.iter().map(|reply| reply.status).collect();
    assert_eq!(statuses.iter().filter(|status| **status == StatusCode::CREATED).count(), 2, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|status| **status == StatusCode::CONFLICT).count(), 3, "{statuses:?}");
    let (status, refused) =
        app.json(&ada, "POST", "/webhooks", Some(json!({"url": "https://hooks.example.test/11"}))).await;
    assert_eq!((status, &refused["title"]), (StatusCode::CONFLICT, &json!("Too many webhooks")));
    assert_eq!(app.call(Some(&ada), "DELETE", &theirs, None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(app.call(Some(&ada), "DELETE", &theirs, None).await.status, StatusCode::NOT_FOUND);

    // Her account goes with her webhooks and their deliveries.
    let (_, listed) = app.json(&ada, "GET", "/webhooks", None).await;
    ping(&app, &ada, listed["webhooks"][0]["id"].as_str().unwrap()).await;
    let deleted = app.call(Some(&ada), "DELETE", "/auth/me", Some(json!({"password": "correct horse battery"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    for table in ["webhooks", "webhook_deliveries"] {
        let (left,): (i64,) =
            sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&app.pool).await.unwrap();
        assert_eq!(left, 0, "{table}");
    }
}

#[tokio::test]
async fn two_workers_on_one_database_send_each_delivery_once() {
    let (app, ada, receiver, webhook) = hooked(json!({"responses": []}), quick(5)).await;
    // A second instance's worker, on the same database (its follower sees no event here).
    let _second_instance = palaver_core::webhooks::Webhooks::start(app.pool.clone(), &app.state.live, quick(5));
    let mut queued = Vec::new();
    for _ in 0..20 {
        queued.push(ping(&app, &ada, &webhook).await);
    }
    receiver.until("twenty pings", |got| got.len() >= 20).await;
    deliveries_until(&app, &ada, &webhook, |listed| listed.iter().all(|delivery| delivery["status"] == "delivered"))
        .await;
    // Every delivery is recorded delivered only after its receiver answered: all went out by now.
    let mut sent: Vec<String> = receiver.received().into_iter().map(|delivery| delivery.delivery).collect();
    sent.sort();
    queued.sort();
    assert_eq!(sent, queued, "each delivery went out once, by one of the two workers");
}

#[tokio::test]
async fn finished_deliveries_past_the_newest_few_are_pruned() {
    let pruning = WebhookSettings { keep_last: 3, prune_every: Duration::ZERO, ..quick(5) };
    let (app, ada, receiver, webhook) = hooked(json!({"responses": []}), pruning).await;
    let mut queued = Vec::new();
    for _ in 0..5 {
        queued.push(ping(&app, &ada, &webhook).await);
        receiver.until("the ping", |got| got.len() == queued.len()).await;
    }
    let kept = deliveries_until(&app, &ada, &webhook, |listed| {
        listed.len() == 3 && listed.iter().all(|delivery| delivery["status"] == "delivered")
    })
    .await;
    let kept: Vec<&str> = kept.iter().map(|delivery| delivery["id"].as_str().unwrap()).collect();
    let newest: Vec<&str> = queued.iter().rev().take(3).map(String::as_str).collect();
    assert_eq!(kept, newest, "the newest three, newest first");
}
