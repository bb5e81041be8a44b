//! Mail against a real SMTP server: `scripts/mail/smtp_sink.py` (aiosmtpd), started per test on
//! free loopback ports, takes every message and serves what came in. A person sets and
//! confirms an address through the mailed link's page; an ask is mailed with one answer link
//! per button, and a link answers only from its page's button (a GET changes nothing).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{Reply, TestApp, TestUser, asked};
use palaver_core::mail::MailConfig;
use palaver_wire::accounts::Role;

/// Where test links point (the host every test request names).
const PUBLIC_URL: &str = "http://palaver.test";

/// The local SMTP server; it stops when dropped.
pub struct SmtpSink {
    child: Child,
    smtp_url: String,
    http_origin: String,
    http: reqwest::Client,
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl SmtpSink {
    fn start() -> Self {
        // Palaver's builder installs the TLS provider, which a bare `reqwest::Client::new()` panics
        // without when no test before this one installed it.
        let http = palaver_core::outbound::client_builder().build().unwrap();
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mail");
        let mut child = Command::new(folder.join(".venv/bin/python"))
            .arg(folder.join("smtp_sink.py"))
            .stdout(Stdio::piped())
            .spawn()
            .expect("scripts/mail/.venv (scripts/install-tools.sh --test installs it)");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let mut parts = line.trim().strip_prefix("listening on ").expect("the sink's addresses").split(' ');
        let (smtp_url, http_origin) = (parts.next().unwrap().to_string(), parts.next().unwrap().to_string());
        Self { child, smtp_url, http_origin, http }
    }

    /// Every message so far, once `count` have come (the sink waits up to 10 s for them).
    pub async fn messages(&self, count: usize) -> Vec<Value> {
        let url = format!("{}/messages?count={count}", self.http_origin);
        let messages: Vec<Value> = self.http.get(url).send().await.unwrap().json().await.unwrap();
        assert!(messages.len() >= count, "{count} mails expected, got {messages:#?}");
        messages
    }
}

/// An app on `script` that mails through the sink, and ada (not the first account).
pub async fn mailing(script: Value) -> (TestApp, TestUser, SmtpSink) {
    let sink = SmtpSink::start();
    let mail = MailConfig {
        smtp_url: Some(sink.smtp_url.clone()),
        from: Some("Palaver <palaver@palaver.test>".into()),
        public_url: Some(PUBLIC_URL.into()),
    };
    let app =
        TestApp::with_reach(&script.to_string(), palaver_server::ReachConfig { mail, ..Default::default() }).await;
    app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    (app, ada, sink)
}

/// The links in `text` under `path` (`/mail/confirm/`, `/mail/answer/`), as paths.
pub fn links(text: &str, path: &str) -> Vec<String> {
    let start = format!("{PUBLIC_URL}{path}");
    text.split_whitespace()
        .filter(|word| word.starts_with(&start))
        .map(|word| word[PUBLIC_URL.len()..].to_string())
        .collect()
}

/// A link page's button, as a browser on a page without referrers posts it (`Origin: null`).
async fn press(app: &TestApp, path: &str) -> Reply {
    app.send("POST", path, &[("origin", "null")], None).await
}

async fn open(app: &TestApp, path: &str) -> Reply {
    let page = app.call(None, "GET", path, None).await;
    assert_eq!(page.headers["cache-control"], "no-store", "{path}");
    assert_eq!(page.headers["referrer-policy"], "no-referrer", "{path}");
    assert!(page.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(page.headers.contains_key("content-security-policy"));
    page
}

/// Sets and confirms `user`'s address (`<name>@example.test`) through the mailed link, and
/// turns ask mails on.
async fn confirmed(app: &TestApp, user: &TestUser, sink: &SmtpSink) {
    let address = format!("{}@example.test", user.username);
    let set = app.call(Some(user), "PUT", "/mail/settings/address", Some(json!({"address": address}))).await;
    assert_eq!(set.status, StatusCode::ACCEPTED, "{}", set.text);
    let mail = sink.messages(1).await.last().unwrap().clone();
    assert_eq!(mail["to"], json!([address]));
    assert_eq!(mail["subject"], "Confirm your mail address for Palaver");
    let link = links(mail["text"].as_str().unwrap(), "/mail/confirm/").pop().expect("a confirmation link");
    let page = open(app, &link).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    assert!(page.text.contains(&address) && page.text.contains("<form method=\"post\">"));
    assert_eq!(app.json(user, "GET", "/mail/settings", None).await.1["confirmed"], false, "a GET confirms nothing");
    let done = press(app, &link).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(done.text.contains("Confirmed"), "{}", done.text);
    assert_eq!(press(app, &link).await.status, StatusCode::CONFLICT, "a confirmation link works once");
    let on = app.call(Some(user), "PUT", "/mail/settings/asks", Some(json!({"on": true}))).await;
    assert_eq!(on.status, StatusCode::NO_CONTENT, "{}", on.text);
    let settings = mail_settings(app, user).await;
    assert_eq!(settings, json!({"available": true, "address": address, "confirmed": true, "askMail": true}));
}

/// `GET /mail/settings` as `user`, without the request's id.
async fn mail_settings(app: &TestApp, user: &TestUser) -> Value {
    let (status, mut settings) = app.json(user, "GET", "/mail/settings", None).await;
    assert_eq!(status, StatusCode::OK, "{settings}");
    settings.as_object_mut().unwrap().remove("requestId");
    settings
}

fn confirm(id: &str, prompt: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "ask_confirm", "input": {"prompt": prompt}}]})
}

/// Sends `prompt` (in `history`, or a new conversation) and returns the conversation and the ask.
async fn ask(app: &TestApp, user: &TestUser, prompt: &str, history: Option<&str>) -> (String, String) {
    let turn = app.prompt(user, json!({"prompt": prompt, "historyId": history})).await;
    (turn.last().unwrap()["historyId"].as_str().unwrap().to_string(), asked(&turn))
}

async fn pending(app: &TestApp, user: &TestUser) -> Vec<Value> {
    app.json(user, "GET", "/gpt/histories/pendingAsks", None).await.1["data"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_ask_mail_answers_only_from_its_page_button_once() {
    let script = json!({"responses": [confirm("call_1", "Send the report to the team?"), {"text": "Sent."}]});
    let (app, ada, sink) = mailing(script).await;
    let settings = mail_settings(&app, &ada).await;
    assert_eq!(settings, json!({"available": true, "confirmed": false, "askMail": false}));
    confirmed(&app, &ada, &sink).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    let title = json!({"title": "Quarterly <script>report</script>"});
    app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(title)).await;
    let (_, ask_id) = ask(&app, &ada, "Send the report", Some(&history)).await;

    let mail = sink.messages(2).await[1].clone();
    assert_eq!(mail["to"], json!(["ada@example.test"]));
    assert_eq!(mail["subject"], "Quarterly <script>report</script>: Send the report to the team?");
    assert_eq!(mail["contentType"], "multipart/alternative");
    let (text, html) = (mail["text"].as_str().unwrap(), mail["html"].as_str().unwrap());
    assert!(text.contains("hours left to answer."), "the time left: {text}");
    assert!(text.contains(&format!("Open the conversation: {PUBLIC_URL}/?c={history}")), "{text}");
    assert!(!html.contains("<script>") && html.contains("&lt;script&gt;"), "escaped: {html}");
    let answers = links(text, "/mail/answer/");
    assert_eq!(answers.len(), 2, "one link per button: {text}");
    assert!(answers.iter().all(|link| html.contains(&format!("{PUBLIC_URL}{link}"))));

    // Opening the link, as a mail scanner would, answers nothing.
    for _ in 0..2 {
        let page = open(&app, &answers[0]).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.text);
        assert!(page.text.contains("Send the report to the team?"), "{}", page.text);
        assert!(page.text.contains("Quarterly &lt;script&gt;report&lt;/script&gt;") && !page.text.contains("<script>"));
        assert!(page.text.contains("Your answer will be: <strong data-testid=\"answer\">"), "{}", page.text);
    }
    assert_eq!(pending(&app, &ada).await.len(), 1, "the ask still waits after the GETs");

    let done = press(&app, &answers[0]).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.text);
    assert!(done.text.contains("Answered: <strong>"), "{}", done.text);
    assert!(done.text.contains(&format!("href=\"{PUBLIC_URL}/?c={history}\"")), "{}", done.text);
    assert!(pending(&app, &ada).await.is_empty(), "the ask is answered");
    let mut resumed = false;
    for _ in 0..500 {
        if app.mock_log().len() >= 2 {
            resumed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(resumed, "the turn resumed with the answer");
    let trail = palaver_core::audit::store::page(&app.pool, None, None, 50).await.unwrap().entries;
    let entry = trail.iter().find(|entry| entry.tool_call_id == ask_id).expect("the answer's audit entry");
    assert_eq!((entry.surface.as_str(), entry.actor.as_deref()), ("mail", Some("ada")));

    let again = press(&app, &answers[0]).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("used already"));
    assert_eq!(open(&app, &answers[0]).await.status, StatusCode::CONFLICT);
    let other = press(&app, &answers[1]).await;
    assert_eq!(other.status, StatusCode::GONE, "the other link, once the ask ended: {}", other.text);
    assert!(other.text.contains("This question has ended"));
    assert_eq!(open(&app, &answers[1]).await.status, StatusCode::GONE);
}

#[tokio::test]
async fn a_link_answers_only_its_own_ask_until_it_ends_and_forgeries_are_unknown() {
    let script = json!({"responses": [confirm("call_1", "First?"), confirm("call_2", "Second?"), {"text": "Ok."}]});
    let (app, ada, sink) = mailing(script).await;
    confirmed(&app, &ada, &sink).await;
    let (_, first_ask) = ask(&app, &ada, "One", None).await;
    let (_, second_ask) = ask(&app, &ada, "Two", None).await;
    let mails = sink.messages(3).await;
    let links_of = |question: &str| -> Vec<String> {
        let mail = mails.iter().find(|mail| mail["subject"].as_str().unwrap().ends_with(question)).expect("its mail");
        links(mail["text"].as_str().unwrap(), "/mail/answer/")
    };
    let (first_links, second_links) = (links_of("First?"), links_of("Second?"));

    // Forged or cut short: unknown, to the GET and the POST, signed in or not.
    let token = second_links[0].rsplit('/').next().unwrap().to_string();
    for forged in ["A".repeat(43), token[..42].to_string(), format!("{}=", &token[..42])] {
        let path = format!("/mail/answer/{forged}");
        assert_eq!(open(&app, &path).await.status, StatusCode::NOT_FOUND, "{forged}");
        let pressed = press(&app, &path).await;
        assert_eq!(pressed.status, StatusCode::NOT_FOUND, "{forged}");
        assert!(pressed.text.contains("This link does not work"));
    }
    // A mail link's token is no push capability, nor the other way.
    let as_push = app.call(None, "POST", "/push/answer", Some(json!({"token": token}))).await;
    assert_eq!(as_push.status, StatusCode::NOT_FOUND, "{}", as_push.text);
    assert_eq!(pending(&app, &ada).await.len(), 2, "nothing was answered");

    // The second ask's link answers the second ask and nothing else.
    assert_eq!(press(&app, &second_links[0]).await.status, StatusCode::OK);
    let left = pending(&app, &ada).await;
    assert_eq!(left.len(), 1);
    assert_eq!(left[0]["toolCallId"], first_ask.as_str(), "the first still waits");
    assert_ne!(first_ask, second_ask);
    // The first's links past its deadline: ended.
    sqlx::query("UPDATE answer_links SET expires_at = '2000-01-01T00:00:00.000Z' WHERE tool_call_id = $1")
        .bind(&first_ask)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(open(&app, &first_links[0]).await.status, StatusCode::GONE);
    assert_eq!(press(&app, &first_links[0]).await.status, StatusCode::GONE);
    assert_eq!(pending(&app, &ada).await.len(), 1, "the first ask is not answered by an ended link");
}

#[tokio::test]
async fn no_ask_mail_unconfirmed_or_switched_off_and_a_destructive_approval_has_no_answer_links() {
    let delete = json!({"toolCalls": [{"id": "call_3", "name": "deleteCompletedTodos", "input": {}}]});
    let script = json!({"responses": [confirm("call_1", "Unconfirmed?"), confirm("call_2", "Switched off?"), delete]});
    let (app, ada, sink) = mailing(script).await;
    // Ada's address is never confirmed; Bob's is, with ask mails off; Carol's is, with them on.
    let address = json!({"address": " ada@example.test "});
    let set = app.call(Some(&ada), "PUT", "/mail/settings/address", Some(address)).await;
    assert_eq!(set.status, StatusCode::ACCEPTED, "{}", set.text);
    let on = json!({"on": true});
    assert_eq!(app.call(Some(&ada), "PUT", "/mail/settings/asks", Some(on)).await.status, StatusCode::NO_CONTENT);
    let bob = app.user("bob", Role::User).await;
    confirmed(&app, &bob, &sink).await;
    let off = json!({"on": false});
    assert_eq!(app.call(Some(&bob), "PUT", "/mail/settings/asks", Some(off)).await.status, StatusCode::NO_CONTENT);
    let carol = app.user("carol", Role::User).await;
    confirmed(&app, &carol, &sink).await;

    ask(&app, &ada, "Unconfirmed", None).await;
    ask(&app, &bob, "Switched off", None).await;
    app.seed_completed_todo(&carol).await;
    let (history, _) = ask(&app, &carol, "Clean up", None).await;

    // One task decides the mails, in the order the asks were made: once Carol's has come, Ada's
    // and Bob's would have.
    let mails = sink.messages(4).await;
    assert_eq!(mails.len(), 4, "three confirmations and Carol's approval only: {mails:#?}");
    assert_eq!(mails[3]["to"], json!(["carol@example.test"]));
    let text = mails[3]["text"].as_str().unwrap();
    assert!(links(text, "/mail/answer/").is_empty(), "no answer links: {text}");
    assert!(!mails[3]["html"].as_str().unwrap().contains("/mail/answer/"));
    assert!(text.contains(&format!("Open the conversation: {PUBLIC_URL}/?c={history}")), "{text}");
}

#[tokio::test]
async fn an_address_is_checked_and_mail_settings_need_an_address_and_a_mailing_server() {
    let (app, ada, _sink) = mailing(json!({"responses": []})).await;
    let bad = app.call(Some(&ada), "PUT", "/mail/settings/address", Some(json!({"address": "not an address"}))).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert_eq!(
        app.call(Some(&ada), "PUT", "/mail/settings/asks", Some(json!({"on": true}))).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.call(Some(&ada), "DELETE", "/mail/settings/address", None).await.status, StatusCode::NOT_FOUND);
    let set = app.call(Some(&ada), "PUT", "/mail/settings/address", Some(json!({"address": "ada@example.test"}))).await;
    assert_eq!(set.status, StatusCode::ACCEPTED);
    assert_eq!(app.call(Some(&ada), "DELETE", "/mail/settings/address", None).await.status, StatusCode::NO_CONTENT);
    assert_eq!(mail_settings(&app, &ada).await, json!({"available": true, "confirmed": false, "askMail": false}));

    // The address and its links go with the account.
    let again =
        app.call(Some(&ada), "PUT", "/mail/settings/address", Some(json!({"address": "ada@example.test"}))).await;
    assert_eq!(again.status, StatusCode::ACCEPTED);
    let gone = app.call(Some(&ada), "DELETE", "/auth/me", Some(json!({"password": "correct horse battery"}))).await;
    assert!(gone.status.is_success(), "{}", gone.text);
    for table in ["mail_addresses", "mail_confirmations"] {
        let (left,): (i64,) =
            sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&app.pool).await.unwrap();
        assert_eq!(left, 0, "{table} kept the account's rows");
    }

    let off = TestApp::with_mock(r#"{"responses": []}"#).await;
    let bob = off.user("bob", Role::User).await;
    assert_eq!(off.json(&bob, "GET", "/mail/settings", None).await.1["available"], false);
    let refused =
        off.call(Some(&bob), "PUT", "/mail/settings/address", Some(json!({"address": "bob@example.test"}))).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.text);
}
