//! `GET /openapi.json`: every route of the table is in it (and nothing else), with the
//! reference's operation ids for the routes it documents and `pendingAsk` read-only; and the
//! answers the routes really give, success and error, match the schemas it declares for them.

use std::collections::BTreeSet;

use crate::common::{Reply, TestApp, TestUser};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

async fn document(app: &TestApp) -> Value {
    let reply = app.call(None, "GET", "/openapi.json", None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.json()
}

fn operation<'a>(document: &'a Value, path: &str, method: &str) -> &'a Value {
    let operation = &document["paths"][path][method];
    assert!(operation.is_object(), "{method} {path} is in the document");
    operation
}

/// `schema` with the document's components beside it, so its `$ref`s resolve.
fn validator(document: &Value, schema: &Value) -> jsonschema::Validator {
    let mut rooted = json!({"allOf": [schema], "components": document["components"]});
    rooted["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    jsonschema::validator_for(&rooted).unwrap_or_else(|err| panic!("a schema that compiles: {err}\n{schema}"))
}

fn assert_valid(document: &Value, schema: &Value, instance: &Value, what: &str) {
    let validator = validator(document, schema);
    let errors: Vec<String> =
        validator.iter_errors(instance).map(|error| format!("{} at {}", error, error.instance_path())).collect();
    assert!(errors.is_empty(), "{what} does not match the document: {errors:#?}\n{instance:#}");
}

/// Checks real answers against the document and remembers which operations were answered.
struct Checker {
    document: Value,
    answered: BTreeSet<(String, String)>,
}

impl Checker {
    /// Checks `reply` as `method path` (the path as the document names it), and the body sent.
    fn check(&mut self, method: &str, path: &str, sent: Option<&Value>, reply: &Reply) {
        let operation = operation(&self.document, path, method).clone();
        // A body sent to be refused need not match; one the route took must.
        if let Some(sent) = sent.filter(|_| reply.status.is_success()) {
            let schema = &operation["requestBody"]["content"]["application/json"]["schema"];
            assert!(schema.is_object(), "{method} {path} declares its JSON body");
            assert_valid(&self.document, schema, sent, &format!("the body sent to {method} {path}"));
        }
        let status = reply.status.as_u16().to_string();
        let response = match &operation["responses"][&status] {
            Value::Null => &operation["responses"]["default"],
            declared => declared,
        };
        assert!(response.is_object(), "{method} {path} declares {status}: {}", reply.text);
        let content_type = reply.headers.get("content-type").and_then(|value| value.to_str().ok()).unwrap_or_default();
        let media = content_type.split(';').next().unwrap_or_default();
        match &response["content"] {
            Value::Null => assert!(reply.text.is_empty(), "{method} {path} {status} declares no body"),
            content => {
                assert!(content.get(media).is_some(), "{method} {path} {status} declares {media}: {content}");
                if media == "application/json" {
                    let body: Value = reply.json();
                    assert_valid(
                        &self.document,
                        &content[media]["schema"],
                        &body,
                        &format!("{method} {path} {status}"),
                    );
                }
            }
        }
        if reply.status.is_success() {
            self.answered.insert((method.to_string(), path.to_string()));
        }
    }

    async fn call(
        &mut self,
        app: &TestApp,
        user: Option<&TestUser>,
        method: &str,
        uri: &str,
        path: &str,
        body: Option<Value>,
    ) -> Reply {
        let reply = app.call(user, method, uri, body.clone()).await;
        self.check(&method.to_ascii_lowercase(), path, body.as_ref(), &reply);
        reply
    }
}

#[tokio::test]
async fn parameters_are_where_requests_send_them_and_the_references_routes_have_its_summaries() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let document = document(&app).await;
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().expect("a name");
                let templated = path.contains(&format!("{{{name}}}"));
                assert_eq!(parameter["in"] == "path", templated, "{method} {path}: {parameter}");
            }
        }
    }
    for (path, method) in [("/gpt/histories/pendingAsks", "get"), ("/gpt/histories/{id}/turn", "post")] {
        let parameters = operation(&document, path, method)["parameters"].as_array().cloned().unwrap_or_default();
        let include = parameters.iter().find(|parameter| parameter["name"] == "include");
        let include = include.unwrap_or_else(|| panic!("{method} {path} declares include"));
        assert_eq!((&include["in"], &include["required"]), (&json!("query"), &json!(false)), "{include}");
    }
    for (path, method, summary) in [
        ("/gpt/prompt", "post", "Stream a GPT chat response"),
        ("/gpt/histories/{id}/rating", "patch", "Rate a prompt in a GPT history"),
        ("/gpt/histories/pendingAsks", "get", "List the caller's pending asks"),
        ("/gpt/histories/{id}/turn", "post", "Run a chat turn and return the reply as JSON"),
        ("/gpt/actions", "post", "Run a host callback from a block button"),
        ("/files/upload", "post", "Upload a file"),
    ] {
        assert_eq!(operation(&document, path, method)["summary"], summary, "{method} {path}");
    }
}

/// The document as it was before Palaver was split into crates (`openapi.snapshot.json`): the
/// wire is the contract with clients, so a change to it is made on purpose, by updating the
/// snapshot (`PALAVER_UPDATE_SNAPSHOT=1`) in the same commit.
#[tokio::test]
async fn the_document_is_the_one_on_record() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let document = document(&app).await;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/openapi.snapshot.json");
    if std::env::var_os("PALAVER_UPDATE_SNAPSHOT").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&document).unwrap() + "\n").unwrap();
    }
    let on_record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert!(document == on_record, "GET /openapi.json differs from {}", path.display());
}

#[tokio::test]
async fn the_document_has_every_route_of_the_table_with_the_references_names() {
    let app = TestApp::with_mock(r#"{"responses": []}"#).await;
    let document = document(&app).await;
    assert!(document.get("requestId").is_none(), "the document's root has only OpenAPI's fields");
    assert!(document["openapi"].as_str().is_some_and(|version| version.starts_with("3.")), "{}", document["openapi"]);

    let table: BTreeSet<(String, String)> = palaver_server::api_route_table()
        .iter()
        .map(|route| (route.path.to_string(), route.method.as_str().to_ascii_lowercase()))
        .collect();
    let mut documented = BTreeSet::new();
    let mut operation_ids = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("a path item") {
            documented.insert((path.clone(), method.clone()));
            let id = operation["operationId"].as_str().unwrap_or_else(|| panic!("{method} {path} has an operationId"));
            assert!(operation_ids.insert(id.to_string()), "operationId {id} is used once");
            assert!(
                operation["summary"].as_str().is_some_and(|summary| !summary.is_empty()),
                "{method} {path} has a summary"
            );
        }
    }
    assert_eq!(documented, table, "the document and the route table name the same routes");

    for (path, method, id) in [
        ("/gpt/histories/pendingAsks", "get", "gpthistories_pendingAsks"),
        ("/gpt/histories/{id}/turn", "post", "gpthistories_turn"),
    ] {
        assert_eq!(operation(&document, path, method)["operationId"], id);
    }
    let turn = operation(&document, "/gpt/histories/{id}/turn", "post");
    assert_eq!(
        turn["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/TurnRequest"
    );
    let schemas = &document["components"]["schemas"];
    let mut published = palaver_contract::asks::ask_json_schemas()
        .into_iter()
        .find(|(file, _)| *file == "turnRequest.schema.json")
        .expect("the published turn request")
        .1;
    published.as_object_mut().unwrap().remove("$schema");
    assert_eq!(schemas["TurnRequest"], published, "the contract's schema, whole");

    assert_eq!(
        schemas["HistoryDocument"]["properties"]["pendingAsk"]["readOnly"], true,
        "{}",
        schemas["HistoryDocument"]
    );
    for body in ["NewHistory", "HistoryFields"] {
        assert_eq!(schemas[body]["properties"]["pendingAsk"]["readOnly"], true, "{body}: {}", schemas[body]);
    }
    let read = operation(&document, "/gpt/histories/{id}", "get");
    assert!(read["responses"]["404"].is_object() && read["responses"]["403"].is_object());
    assert_eq!(read["security"], json!([{"session": []}, {"token": []}]));
    assert!(operation(&document, "/health", "get").get("security").is_none(), "a public route asks for nothing");
}

/// A reply with a checklist whose callback is a host action.
const CHECKLIST: &str = "v: 1\nblocks:\n  - type: checklist\n    id: steps\n    callback: {name: toggleChecklist}\n    items:\n      - {id: first, text: Do the first thing}\n";

/// The origin a browser on the site sends with a sign-up or a log-in.
const SAME_SITE: (&str, &str) = ("origin", "http://palaver.test");

fn plan_call() -> Value {
    json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan should I set up?", "select": "one",
        "options": [{"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]}}]})
}

#[tokio::test]
async fn every_route_answers_as_the_document_says() {
    let push_it = json!({"toolCalls": [{"id": "call_push", "name": "ask_confirm", "input": {"prompt": "Push it?"}}]});
    let script = json!({"title": "Plan setup", "responses": [plan_call(), {"text": "Team it is."}, {"text": "Team it is."}, {"text": CHECKLIST}, {"text": "Shorter."}, push_it, {"text": "Pushed."}]});
    let auth = palaver_core::accounts::auth::AuthSettings { open_signup: true, ..crate::common::test_auth() };
    let app = TestApp::with_blocks_and_auth(&script.to_string(), Default::default(), auth).await;
    let admin = app.user("root", Role::Admin).await;
    let ada = app.user("ada", Role::User).await;
    let mut checker = Checker { document: document(&app).await, answered: BTreeSet::new() };
    let c = &mut checker;

    c.call(&app, None, "GET", "/health", "/health", None).await;
    c.call(&app, None, "GET", "/openapi.json", "/openapi.json", None).await;

    // Accounts and tokens.
    let credentials = json!({"username": "grace", "password": "a long and unguessable phrase"});
    for (path, body) in
        [("/auth/signup", Some(credentials.clone())), ("/auth/login", Some(credentials)), ("/auth/logout", None)]
    {
        let reply = app.send("POST", path, &[SAME_SITE], body.clone()).await;
        c.check("post", path, body.as_ref(), &reply);
    }
    c.call(&app, None, "GET", "/auth/me", "/auth/me", None).await;
    c.call(&app, Some(&ada), "GET", "/auth/me", "/auth/me", None).await;
    // Tokens are made from a session; a token asking for one is refused.
    let watch = Some(json!({"name": "watch"}));
    let refused = c.call(&app, Some(&ada), "POST", "/auth/tokens", "/auth/tokens", watch.clone()).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    let ada_login = json!({"username": "ada", "password": "correct horse battery"});
    let ada_session = app.send("POST", "/auth/login", &[SAME_SITE], Some(ada_login)).await;
    let set_cookie = ada_session.headers["set-cookie"].to_str().unwrap();
    let cookie = set_cookie.split(';').next().unwrap();
    let created = app.send("POST", "/auth/tokens", &[("cookie", cookie), SAME_SITE], watch.clone()).await;
    c.check("post", "/auth/tokens", watch.as_ref(), &created);
    c.call(&app, Some(&ada), "GET", "/auth/tokens", "/auth/tokens", None).await;
    let token_id = created.json()["id"].as_str().expect("a token id").to_string();
    c.call(&app, Some(&ada), "DELETE", &format!("/auth/tokens/{token_id}"), "/auth/tokens/{id}", None).await;
    let change = json!({
        "currentPassword": "correct horse battery",
        "newPassword": "another long unguessable phrase",
        "keepApiTokens": true
    });
    c.call(&app, Some(&ada), "POST", "/auth/password", "/auth/password", Some(change)).await;
    c.call(&app, Some(&ada), "GET", "/admin/users", "/admin/users", None).await;
    c.call(&app, Some(&admin), "GET", "/admin/users", "/admin/users", None).await;
    let grace = app.user("grace2", Role::User).await;
    let grace_user = format!("/admin/users/{}", grace.id);
    c.call(&app, Some(&admin), "PATCH", &grace_user, "/admin/users/{id}", Some(json!({"disabled": true}))).await;
    let reset = json!({"password": "a fresh long unguessable phrase"});
    c.call(&app, Some(&admin), "POST", &format!("{grace_user}/password"), "/admin/users/{id}/password", Some(reset))
        .await;

    // A conversation through the reference's routes: ask, answer with a button, rate, rename.
    c.call(&app, Some(&ada), "GET", "/gpt/models", "/gpt/models", None).await;
    let created = c.call(&app, Some(&ada), "POST", "/gpt/histories", "/gpt/histories", Some(json!({}))).await;
    let id = created.json()["data"]["id"].as_str().expect("an id").to_string();
    let one = format!("/gpt/histories/{id}");
    let turn = format!("{one}/turn");
    let prompt = json!({"prompt": "Set up billing", "surface": "compact"});
    let asked = c.call(&app, Some(&ada), "POST", &turn, "/gpt/histories/{id}/turn", Some(prompt)).await;
    let ask_id = asked.json()["data"]["pendingAsk"]["toolCallId"].clone();
    c.call(&app, Some(&ada), "GET", "/gpt/histories/pendingAsks", "/gpt/histories/pendingAsks", None).await;
    let batch = json!({"answers": [{"historyId": "nowhere", "toolCallId": "call_none", "buttonId": "b"}]});
    let answers = "/gpt/histories/pendingAsks/answers";
    c.call(&app, Some(&ada), "POST", answers, answers, Some(batch)).await;
    c.call(&app, Some(&ada), "POST", answers, answers, Some(json!({"answers": []}))).await;
    c.call(&app, Some(&ada), "GET", "/gpt/approvals/waiting", "/gpt/approvals/waiting", None).await;
    let nowhere = json!({"historyId": "nowhere", "toolCallId": "call_none", "buttonId": "approve"});
    c.call(&app, Some(&ada), "POST", "/gpt/approvals/answer", "/gpt/approvals/answer", Some(nowhere)).await;
    let read = c.call(&app, Some(&ada), "GET", &one, "/gpt/histories/{id}", None).await;
    assert!(read.json()["data"]["pendingAsk"].is_object(), "the read above had a pending ask to check");
    let stale = json!({"toolCallId": "call_gone", "buttonId": "option:team"});
    let gone = c.call(&app, Some(&ada), "POST", &turn, "/gpt/histories/{id}/turn", Some(stale)).await;
    assert_eq!(gone.status, StatusCode::CONFLICT);
    let button = json!({"toolCallId": ask_id, "buttonId": "option:team"});
    c.call(&app, Some(&ada), "POST", &turn, "/gpt/histories/{id}/turn", Some(button.clone())).await;
    // Taken back while it can still be changed, and given again.
    let reopen = format!("{one}/asks/{}/reopen", ask_id.as_str().expect("an ask id"));
    c.call(&app, Some(&ada), "POST", &reopen, "/gpt/histories/{id}/asks/{askId}/reopen", None).await;
    c.call(&app, Some(&ada), "POST", &turn, "/gpt/histories/{id}/turn", Some(button)).await;
    let rating = json!({"promptIndex": 3, "rating": "up"});
    c.call(&app, Some(&ada), "PATCH", &format!("{one}/rating"), "/gpt/histories/{id}/rating", Some(rating)).await;
    let bad_rating = json!({"promptIndex": 3, "rating": "sideways"});
    c.call(&app, Some(&ada), "PATCH", &format!("{one}/rating"), "/gpt/histories/{id}/rating", Some(bad_rating)).await;
    c.call(&app, Some(&ada), "PATCH", &one, "/gpt/histories/{id}", Some(json!({"title": "Billing"}))).await;
    c.call(&app, Some(&admin), "PATCH", &one, "/gpt/histories/{id}", Some(json!({"title": "Mine now"}))).await;
    let listed = c.call(&app, Some(&ada), "GET", "/gpt/histories", "/gpt/histories", None).await;
    assert!(listed.json()["data"][0]["prompts"].as_array().is_some_and(|rows| rows.len() >= 4), "{}", listed.text);
    c.call(&app, Some(&ada), "GET", &format!("{one}/export?format=json"), "/gpt/histories/{id}/export", None).await;
    c.call(&app, Some(&ada), "GET", &format!("{one}/export?format=markdown"), "/gpt/histories/{id}/export", None).await;
    c.call(&app, Some(&ada), "GET", &format!("{one}/export?format=pdf"), "/gpt/histories/{id}/export", None).await;
    let nothing_running =
        c.call(&app, Some(&ada), "GET", &format!("{one}/stream"), "/gpt/histories/{id}/stream", None).await;
    assert_eq!(nothing_running.status, StatusCode::NO_CONTENT);
    c.call(&app, Some(&ada), "GET", "/gpt/audit", "/gpt/audit", None).await;
    c.call(&app, Some(&ada), "GET", "/gpt/audit?limit=0", "/gpt/audit", None).await;
    c.call(&app, Some(&ada), "GET", "/gpt/audit/export", "/gpt/audit/export", None).await;

    // The streamed routes answer with the media type the document names.
    let prompt = json!({"historyId": id, "prompt": "A checklist, please"});
    c.call(&app, Some(&ada), "POST", "/gpt/prompt", "/gpt/prompt", Some(prompt)).await;
    let payload = json!({"itemId": "first", "checked": true, "state": {}});
    let tick = json!({"historyId": id, "name": "toggleChecklist", "blockId": "steps", "payload": payload});
    c.call(&app, Some(&ada), "POST", "/gpt/actions", "/gpt/actions", Some(tick)).await;
    let unknown = json!({"historyId": id, "name": "noSuchAction"});
    c.call(&app, Some(&ada), "POST", "/gpt/actions", "/gpt/actions", Some(unknown)).await;
    // A message edited keeps what it replaced as a version, which shows again.
    let (_, read) = app.json(&ada, "GET", &one, None).await;
    let prompts = read["data"]["prompts"].as_array().expect("prompts");
    let row = prompts.iter().position(|row| row["text"] == "A checklist, please").expect("the message");
    let edit = json!({"historyId": id, "replaceFrom": row, "prompt": "A short checklist, please"});
    c.call(&app, Some(&ada), "POST", "/gpt/prompt", "/gpt/prompt", Some(edit)).await;
    let version = json!({"row": row, "position": 0});
    c.call(&app, Some(&ada), "PUT", &format!("{one}/branches"), "/gpt/histories/{id}/branches", Some(version)).await;
    // Shared by a link anyone may read, then no longer.
    let share = format!("{one}/share");
    let shared = c.call(&app, Some(&ada), "POST", &share, "/gpt/histories/{id}/share", None).await;
    let token = shared.json()["token"].as_str().expect("a share token").to_string();
    c.call(&app, Some(&ada), "GET", &share, "/gpt/histories/{id}/share", None).await;
    c.call(&app, None, "GET", &format!("/shared/{token}"), "/shared/{token}", None).await;
    c.call(&app, Some(&ada), "DELETE", &share, "/gpt/histories/{id}/share", None).await;
    let uploaded = app.upload(&ada, "notes.txt", "text/plain", b"some notes").await;
    c.check("post", "/files/upload", None, &uploaded);
    let file = format!("/files/{}", uploaded.json()["id"].as_str().expect("an upload id"));
    c.call(&app, Some(&ada), "GET", &file, "/files/{id}", None).await;
    c.call(&app, Some(&admin), "GET", &file, "/files/{id}", None).await;

    // Push: the server's key; a device subscribed (and one refused), listed, renamed and
    // removed; a tab's presence; a notification's button used, used again, and one unknown.
    c.call(&app, Some(&ada), "GET", "/push/key", "/push/key", None).await;
    let devices = "/push/subscriptions";
    let subscribed =
        c.call(&app, Some(&ada), "POST", devices, devices, Some(crate::http_push::probe_subscription())).await;
    let refused = json!({"endpoint": "ftp://nowhere", "keys": {"p256dh": "", "auth": ""}});
    c.call(&app, Some(&ada), "POST", devices, devices, Some(refused)).await;
    c.call(&app, Some(&ada), "GET", devices, devices, None).await;
    let device = format!("{devices}/{}", subscribed.json()["id"].as_str().expect("a device id"));
    let renamed = Some(json!({"name": "Tablet"}));
    c.call(&app, Some(&ada), "PATCH", &device, "/push/subscriptions/{id}", renamed).await;
    c.call(&app, Some(&ada), "DELETE", &device, "/push/subscriptions/{id}", None).await;
    c.call(&app, Some(&ada), "DELETE", &device, "/push/subscriptions/{id}", None).await;
    let presence = Some(json!({"tabId": "tab", "historyId": id}));
    c.call(&app, Some(&ada), "PUT", "/push/presence", "/push/presence", presence).await;
    let quiet = Some(json!({"quietHours": {"from": "22:00", "until": "07:00", "timeZone": "Europe/Berlin"}}));
    c.call(&app, Some(&ada), "PUT", "/push/settings", "/push/settings", quiet).await;
    c.call(&app, Some(&ada), "GET", "/push/settings", "/push/settings", None).await;
    let (_, asked) = app.json(&ada, "POST", &turn, Some(json!({"prompt": "Push it"}))).await;
    let ask_id = asked["data"]["pendingAsk"]["toolCallId"].as_str().expect("a confirm ask").to_string();
    let capability = palaver_core::answer_links::Capability::mint().unwrap();
    sqlx::query(
        "INSERT INTO answer_links (token_hash, user_id, history_id, tool_call_id, button_id, expires_at)
         VALUES ($1, $2, $3, $4, 'approve', '2999-01-01T00:00:00.000Z')",
    )
    .bind(&capability.hash)
    .bind(&ada.id)
    .bind(&id)
    .bind(&ask_id)
    .execute(&app.pool)
    .await
    .unwrap();
    let button = Some(json!({"token": capability.token}));
    for expected in [StatusCode::OK, StatusCode::CONFLICT] {
        let answered = c.call(&app, None, "POST", "/push/answer", "/push/answer", button.clone()).await;
        assert_eq!(answered.status, expected, "{}", answered.text);
    }
    c.call(&app, None, "POST", "/push/answer", "/push/answer", Some(json!({"token": "unknown"}))).await;

    // Mail, on an app that mails through the test SMTP server: an address set and confirmed
    // through its link's page, ask mails turned on, an ask's answer link opened and pressed, the
    // address forgotten.
    let mail_it = json!({"toolCalls": [{"id": "call_mail", "name": "ask_confirm", "input": {"prompt": "Mail it?"}}]});
    let (mailing, grace, sink) = crate::http_mail::mailing(json!({"responses": [mail_it, {"text": "Mailed."}]})).await;
    c.call(&mailing, Some(&grace), "GET", "/mail/settings", "/mail/settings", None).await;
    let address = Some(json!({"address": "grace@example.test"}));
    c.call(&mailing, Some(&grace), "PUT", "/mail/settings/address", "/mail/settings/address", address).await;
    let text = sink.messages(1).await[0]["text"].as_str().unwrap_or_default().to_string();
    let confirm = crate::http_mail::links(&text, "/mail/confirm/").pop().expect("a confirmation link");
    c.call(&mailing, None, "GET", &confirm, "/mail/confirm/{token}", None).await;
    c.call(&mailing, None, "POST", &confirm, "/mail/confirm/{token}", None).await;
    c.call(&mailing, None, "POST", &confirm, "/mail/confirm/{token}", None).await;
    let on = Some(json!({"on": true}));
    c.call(&mailing, Some(&grace), "PUT", "/mail/settings/asks", "/mail/settings/asks", on).await;
    mailing.prompt(&grace, json!({"prompt": "Mail it"})).await;
    let text = sink.messages(2).await[1]["text"].as_str().unwrap_or_default().to_string();
    let answer = crate::http_mail::links(&text, "/mail/answer/").pop().expect("an answer link");
    c.call(&mailing, None, "GET", &answer, "/mail/answer/{token}", None).await;
    c.call(&mailing, None, "POST", &answer, "/mail/answer/{token}", None).await;
    c.call(&mailing, None, "POST", &answer, "/mail/answer/{token}", None).await;
    c.call(&mailing, Some(&grace), "DELETE", "/mail/settings/address", "/mail/settings/address", None).await;
    c.call(&mailing, Some(&grace), "DELETE", "/mail/settings/address", "/mail/settings/address", None).await;

    // Webhooks: one registered (and one refused), listed, changed, rotated, pinged, its
    // deliveries read, removed, and removed again.
    let hook = Some(json!({"url": "https://hooks.example.test/palaver", "events": ["ask.created"]}));
    let registered = c.call(&app, Some(&ada), "POST", "/webhooks", "/webhooks", hook).await;
    c.call(&app, Some(&ada), "POST", "/webhooks", "/webhooks", Some(json!({"url": "ftp://nowhere"}))).await;
    c.call(&app, Some(&ada), "GET", "/webhooks", "/webhooks", None).await;

    // MCP Apps: our desk server's seating chart (read-only, so the model's call runs at once),
    // drawn from a sandbox origin; the app's call of a tool that changes things waits for
    // Palaver's card, and is approved; what the app tells the model is kept for its call.
    let desk = crate::http_mcp::connected_hub(json!({"desk": crate::http_apps::desk_entry("unless-read-only")})).await;
    let seats = r#"{"responses": [{"toolCalls": [{"id": "call_seats", "name": "desk__seating_chart", "input": {}}]},
        {"text": "Here is the chart."}]}"#;
    let apps = TestApp::with_mcp_apps(seats, desk.clone(), "http://127.0.0.1:9").await;
    let carol = apps.user("carol", Role::User).await;
    let listed = c.call(&apps, Some(&carol), "GET", "/apps/tools", "/apps/tools", None).await;
    assert_eq!(listed.json()["tools"], json!(["desk__seating_chart"]));
    let history = apps.prompt(&carol, json!({"prompt": "Seating"})).await.last().unwrap()["historyId"].clone();
    let told = json!({"historyId": history, "toolCallId": "call_seats",
        "context": {"content": [{"type": "text", "text": "Row 4"}]}});
    c.call(&apps, Some(&carol), "PUT", "/apps/context", "/apps/context", Some(told)).await;
    let history_id = history.as_str().unwrap();
    let view = format!("/apps/view?tool=desk__seating_chart&historyId={history_id}&toolCallId=call_seats");
    let viewed = c.call(&apps, Some(&carol), "GET", &view, "/apps/view", None).await;
    assert_eq!(viewed.json()["modelContext"]["content"][0]["text"], "Row 4", "{}", viewed.text);
    let seating_view = "/apps/resource?tool=desk__seating_chart&uri=ui%3A%2F%2Fdesk%2Fseating.html";
    let read = c.call(&apps, Some(&carol), "GET", seating_view, "/apps/resource", None).await;
    assert_eq!(read.json()["contents"][0]["mimeType"], "text/html;profile=mcp-app", "{}", read.text);
    let refresh =
        json!({"appTool": "desk__seating_chart", "name": "refresh_seating", "arguments": {}, "historyId": history});
    let held = c.call(&apps, Some(&carol), "POST", "/apps/call", "/apps/call", Some(refresh)).await;
    assert_eq!(held.json()["status"], "approval", "{}", held.text);
    let approval = format!("/apps/approvals/{}", held.json()["approval"]["id"].as_str().unwrap());
    let approve = Some(json!({"approve": true}));
    let refreshed = c.call(&apps, Some(&carol), "POST", &approval, "/apps/approvals/{id}", approve).await;
    assert_eq!(refreshed.json()["content"][0]["text"], "Redrawn.", "{}", refreshed.text);
    let close = json!({"appTool": "desk__seating_chart", "name": "close_desk"});
    let refused = c.call(&apps, Some(&carol), "POST", "/apps/call", "/apps/call", Some(close)).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.text);
    desk.shut_down().await;
    let webhook = format!("/webhooks/{}", registered.json()["webhook"]["id"].as_str().expect("a webhook id"));
    let change = Some(json!({"description": "Team bridge", "enabled": false}));
    c.call(&app, Some(&ada), "PATCH", &webhook, "/webhooks/{id}", change).await;
    c.call(&app, Some(&ada), "POST", &format!("{webhook}/secret"), "/webhooks/{id}/secret", None).await;
    c.call(&app, Some(&ada), "POST", &format!("{webhook}/test"), "/webhooks/{id}/test", None).await;
    c.call(&app, Some(&ada), "GET", &format!("{webhook}/deliveries"), "/webhooks/{id}/deliveries", None).await;
    c.call(&app, Some(&ada), "DELETE", &webhook, "/webhooks/{id}", None).await;
    c.call(&app, Some(&ada), "DELETE", &webhook, "/webhooks/{id}", None).await;

    // AG-UI: a run with nothing new (a sync: no turn), a refused one, the capabilities, and
    // attaching to a thread that never ran.
    let sync = Some(json!({"threadId": "openapi", "runId": "r1", "messages": []}));
    c.call(&app, Some(&ada), "POST", "/agui", "/agui", sync).await;
    c.call(&app, Some(&ada), "POST", "/agui", "/agui", Some(json!({"threadId": "no run id"}))).await;
    c.call(&app, Some(&ada), "GET", "/agui/capabilities", "/agui/capabilities", None).await;
    c.call(&app, Some(&ada), "GET", "/agui/threads/openapi/stream", "/agui/threads/{thread_id}/stream", None).await;
    // A conversation of hers is a thread under its own id: nothing runs there (204).
    let thread = format!("/agui/threads/{}/stream", one.trim_start_matches("/gpt/histories/"));
    c.call(&app, Some(&ada), "GET", &thread, "/agui/threads/{thread_id}/stream", None).await;

    c.call(&app, Some(&ada), "DELETE", &one, "/gpt/histories/{id}", None).await;
    let missing = c.call(&app, Some(&ada), "GET", &one, "/gpt/histories/{id}", None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let account = json!({"password": "another long unguessable phrase"});
    c.call(&app, Some(&ada), "DELETE", "/auth/me", "/auth/me", Some(account)).await;

    // An approval routed to two admins: the first approval is taken (202), the second decides.
    let clean = json!({"responses": [
        {"toolCalls": [{"id": "call_clean", "name": "deleteCompletedTodos", "input": {}}]}, {"text": "Deleted."}
    ]});
    let routed_app = TestApp::with_mock(&clean.to_string()).await;
    let (first, second) = (routed_app.user("root", Role::Admin).await, routed_app.user("sudo", Role::Admin).await);
    let asker = routed_app.user("ada", Role::User).await;
    routed_app.seed_completed_todo(&asker).await;
    let route = palaver_wire::approvers::ApprovalRoute {
        tool: Some("deleteCompletedTodos".into()),
        server: None,
        approver: palaver_wire::approvers::Approver::Admins,
        approvals: 2,
    };
    routed_app.state.turns.preferences().save_approval_routes(&[route]).await.unwrap();
    let turn = routed_app.prompt(&asker, json!({"prompt": "Clean up"})).await;
    let history = turn.last().unwrap()["historyId"].clone();
    let approve = json!({"historyId": history, "toolCallId": crate::common::asked(&turn), "buttonId": "approve"});
    c.call(&routed_app, Some(&first), "GET", "/gpt/approvals/waiting", "/gpt/approvals/waiting", None).await;
    let waits = c
        .call(
            &routed_app,
            Some(&first),
            "POST",
            "/gpt/approvals/answer",
            "/gpt/approvals/answer",
            Some(approve.clone()),
        )
        .await;
    assert_eq!(waits.status, StatusCode::ACCEPTED, "{}", waits.text);
    let runs = c
        .call(&routed_app, Some(&second), "POST", "/gpt/approvals/answer", "/gpt/approvals/answer", Some(approve))
        .await;
    assert_eq!(runs.status, StatusCode::OK, "{}", runs.text);

    // The live events never end: their status and media type are checked on the answer's head.
    let request = axum::http::Request::get("/gpt/events")
        .header("host", "palaver.test")
        .header("authorization", format!("Bearer {}", admin.token))
        .body(axum::body::Body::empty())
        .unwrap();
    let events = tower::ServiceExt::oneshot(app.router.clone(), request).await.expect("an answer");
    let declared = &operation(&checker.document, "/gpt/events", "get")["responses"]["200"]["content"];
    assert_eq!(events.status(), StatusCode::OK);
    let media = events.headers()["content-type"].to_str().unwrap().to_string();
    assert!(declared.get(&media).is_some(), "{media} is declared: {declared}");
    checker.answered.insert(("get".into(), "/gpt/events".into()));

    let documented: BTreeSet<(String, String)> = palaver_server::api_route_table()
        .iter()
        .map(|route| (route.method.as_str().to_ascii_lowercase(), route.path.to_string()))
        .collect();
    let unanswered: Vec<_> = documented.difference(&checker.answered).collect();
    assert!(unanswered.is_empty(), "routes whose success was not checked: {unanswered:?}");
}
