//! Shared test harness: a real SQLite database in a temp folder, the mock model, the router,
//! and signed-in users with bearer tokens.

#![allow(dead_code)]

use std::path::PathBuf;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use palaver_app::state::AppState;
use palaver_core::accounts::PublicOrigins;
use palaver_core::accounts::auth::AuthSettings;
use palaver_wire::accounts::Role;
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

pub struct TestApp {
    pub router: Router,
    pub dir: TempDir,
    pub pool: palaver_core::db::Pool,
    pub state: AppState,
}

/// A user and a bearer token of theirs.
#[derive(Clone, Debug)]
pub struct TestUser {
    pub id: String,
    pub username: String,
    pub token: String,
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|_| panic!("JSON body, got {}", self.text))
    }
}

/// What a test app's turns offer beyond the defaults.
#[derive(Default)]
struct Extras {
    blocks: Option<palaver_core::conversation::BlocksSettings>,
    mcp: palaver_core::mcp::McpHub,
    /// How long asks (and approvals) wait, when not the defaults.
    ask_ttl: Option<std::time::Duration>,
    /// More models to pick from (`PALAVER_MODELS`), beside the script's default.
    model_choices: Option<&'static str>,
    /// How it reaches people outside its tabs (push, webhooks, mail), when not the defaults.
    reach: palaver_server::ReachConfig,
    /// Where MCP Apps are drawn (none: they are not).
    apps: palaver_core::mcp::AppsSandbox,
}

impl TestApp {
    /// A fresh app whose model follows `script` (the mock model's JSON format).
    pub async fn with_mock(script: &str) -> Self {
        Self::with_settings(script, test_auth()).await
    }

    pub async fn with_settings(script: &str, auth: AuthSettings) -> Self {
        Self::build(Some(script), auth, Extras::default()).await
    }

    /// A fresh app whose replies are block documents.
    pub async fn with_blocks(script: &str, blocks: palaver_core::conversation::BlocksSettings) -> Self {
        Self::with_blocks_and_auth(script, blocks, test_auth()).await
    }

    /// A fresh app whose replies are block documents, on these account settings.
    pub async fn with_blocks_and_auth(
        script: &str,
        blocks: palaver_core::conversation::BlocksSettings,
        auth: AuthSettings,
    ) -> Self {
        Self::build(Some(script), auth, Extras { blocks: Some(blocks), ..Extras::default() }).await
    }

    /// A fresh app whose turns offer these MCP servers' tools.
    pub async fn with_mcp(script: &str, mcp: palaver_core::mcp::McpHub) -> Self {
        Self::build(Some(script), test_auth(), Extras { mcp, ..Extras::default() }).await
    }

    /// A fresh app whose turns offer these MCP servers' tools, and whose chat draws their apps
    /// from the sandbox at `apps_origin`.
    pub async fn with_mcp_apps(script: &str, mcp: palaver_core::mcp::McpHub, apps_origin: &str) -> Self {
        let apps = palaver_core::mcp::AppsSandbox { origins: Some(apps_origin.into()) };
        Self::build(Some(script), test_auth(), Extras { mcp, apps, ..Extras::default() }).await
    }

    /// A fresh app whose asks and approvals expire after `ttl`.
    pub async fn with_ask_ttl(script: &str, ttl: std::time::Duration) -> Self {
        Self::build(Some(script), test_auth(), Extras { ask_ttl: Some(ttl), ..Extras::default() }).await
    }

    /// A fresh app on `script` (the default model) that also offers `choices`, as
    /// `PALAVER_MODELS` lists them.
    pub async fn with_model_choices(script: &str, choices: &'static str) -> Self {
        Self::build(Some(script), test_auth(), Extras { model_choices: Some(choices), ..Extras::default() }).await
    }

    /// A fresh app on `script` that reaches people as `reach` says (a mail server, quick webhooks).
    pub async fn with_reach(script: &str, reach: palaver_server::ReachConfig) -> Self {
        Self::build(Some(script), test_auth(), Extras { reach, ..Extras::default() }).await
    }

    /// A fresh app with the keyless demo agent.
    pub async fn with_demo() -> Self {
        Self::build(None, test_auth(), Extras::default()).await
    }

    /// A fresh app on the given model (a provider pointed at a fake server).
    pub async fn with_model(model: std::sync::Arc<dyn palaver_core::llm::ChatModel>) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        Self::assemble(dir, palaver_core::llm::Models::single(model), test_auth(), Extras::default()).await
    }

    async fn build(script: Option<&str>, auth: AuthSettings, extras: Extras) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let spec = match script {
            Some(script) => {
                let script_path = dir.path().join("mock.json");
                std::fs::write(&script_path, script).expect("write the mock script");
                format!("mock:{}", script_path.display())
            }
            None => "demo".to_string(),
        };
        let log = Some(dir.path().join("mock-log.jsonl"));
        let models =
            palaver_core::llm::Models::from_settings(Some(&spec), extras.model_choices, log, &Default::default())
                .expect("models");
        Self::assemble(dir, models, auth, extras).await
    }

    async fn assemble(
        dir: tempfile::TempDir,
        models: palaver_core::llm::Models,
        auth: AuthSettings,
        Extras { blocks, mcp, ask_ttl, reach, apps, .. }: Extras,
    ) -> Self {
        let url = palaver_core::db::scratch_url(dir.path()).await.expect("a scratch database");
        let pool = palaver_core::db::connect(&url).await.expect("database");
        let options = LeptosOptions::builder().output_name("palaver").build();
        let defaults = palaver_core::turn::TurnSettings::default();
        let turn_settings = palaver_core::turn::TurnSettings {
            blocks,
            ask_ttl: ask_ttl.unwrap_or(defaults.ask_ttl),
            approval_ttl: ask_ttl.unwrap_or(defaults.approval_ttl),
            ..defaults
        };
        let turn_dependencies = palaver_core::turn::TurnDependencies {
            files: Some(palaver_core::uploads::FileStore::scratch(dir.path()).expect("a scratch file store")),
            ..Default::default()
        };
        let signals = palaver_core::signals::Signals::connect(&pool).await.expect("signals");
        let mut state = palaver_server::app_state(
            options,
            pool.clone(),
            models,
            auth,
            turn_settings,
            turn_dependencies,
            mcp,
            signals,
            reach,
        )
        .expect("the app's state");
        state.apps = apps;
        let router = palaver_server::router(state.clone());
        Self { router, dir, pool, state }
    }

    /// Creates an account (the first one becomes admin) and a bearer token for it.
    pub async fn user(&self, username: &str, role: Role) -> TestUser {
        let user = palaver_core::accounts::service::create_account(&self.pool, username, "correct horse battery", role)
            .await
            .expect("account");
        let caller = palaver_core::accounts::auth::Caller {
            user: user.clone(),
            via: palaver_core::accounts::auth::CallerVia::Session,
        };
        let token = palaver_core::accounts::service::create_token(&self.state.accounts, &caller, "tests", None)
            .await
            .expect("token")
            .token;
        TestUser { id: user.id, username: user.username, token }
    }

    pub fn mock_log(&self) -> Vec<Value> {
        let path: PathBuf = self.dir.path().join("mock-log.jsonl");
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).expect("log line is JSON"))
            .collect()
    }

    /// Uploads a file through `POST /files/upload` as `user`.
    pub async fn upload(&self, user: &TestUser, filename: &str, mime_type: &str, bytes: &[u8]) -> Reply {
        let boundary = "palaver-test-boundary";
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\nContent-Type: {mime_type}\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let request = Request::builder()
            .method("POST")
            .uri("/files/upload")
            .header(header::HOST, "palaver.test")
            .header(header::AUTHORIZATION, format!("Bearer {}", user.token))
            .header(header::CONTENT_TYPE, format!("multipart/form-data; boundary={boundary}"))
            .body(Body::from(body))
            .unwrap();
        self.dispatch(request).await
    }

    /// Sends a built request through the router and reads the whole reply.
    /// Calls a server function with form-encoded arguments, as `user` (by API token) or nobody.
    pub async fn server_fn(&self, user: Option<&TestUser>, path: &str, args: &str) -> Reply {
        let mut builder = Request::builder()
            .method("POST")
            .uri(path)
            .header("host", "palaver.test")
            .header("content-type", "application/x-www-form-urlencoded");
        if let Some(user) = user {
            builder = builder.header("authorization", format!("Bearer {}", user.token));
        }
        self.dispatch(builder.body(Body::from(args.to_string())).expect("request")).await
    }

    pub async fn dispatch(&self, request: Request<Body>) -> Reply {
        let response = self.router.clone().oneshot(request).await.expect("response");
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.expect("body").to_bytes();
        Reply { status, headers, text: String::from_utf8_lossy(&bytes).into_owned() }
    }

    /// Calls a server function with form-encoded arguments as `user`.
    pub async fn call_form(&self, user: &TestUser, path: &str, form: &str) -> Reply {
        let request = Request::builder()
            .method("POST")
            .uri(path)
            .header(header::HOST, "palaver.test")
            .header(header::AUTHORIZATION, format!("Bearer {}", user.token))
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(Body::from(form.to_string()))
            .unwrap();
        self.dispatch(request).await
    }

    /// Sends a request with extra headers (e.g. a cookie or an Origin); its host is
    /// palaver.test unless the headers name another.
    pub async fn send(&self, method: &str, uri: &str, headers: &[(&str, &str)], body: Option<Value>) -> Reply {
        let mut builder = Request::builder().method(method).uri(uri);
        if !headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("host")) {
            builder = builder.header(header::HOST, "palaver.test");
        }
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        self.dispatch(builder.body(body).unwrap()).await
    }

    /// Gives `user` a completed todo, so `deleteCompletedTodos` has one to delete (and asks).
    pub async fn seed_completed_todo(&self, user: &TestUser) {
        sqlx::query("INSERT INTO todos (id, owner_id, title, completed) VALUES ('t1', $1, 'done', 1)")
            .bind(&user.id)
            .execute(&self.pool)
            .await
            .expect("a completed todo");
    }

    /// Sends a request as `user` (bearer token), or anonymously.
    pub async fn call(&self, user: Option<&TestUser>, method: &str, uri: &str, body: Option<Value>) -> Reply {
        let bearer = user.map(|user| format!("Bearer {}", user.token));
        let headers: Vec<(&str, &str)> = bearer.as_deref().map(|value| ("authorization", value)).into_iter().collect();
        self.send(method, uri, &headers, body).await
    }

    pub async fn json(&self, user: &TestUser, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let reply = self.call(Some(user), method, uri, body).await;
        (reply.status, reply.json())
    }

    /// Posts to `/gpt/prompt` as `user` and returns the streamed events.
    pub async fn prompt(&self, user: &TestUser, body: Value) -> Vec<Value> {
        let reply = self.call(Some(user), "POST", "/gpt/prompt", Some(body)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
        assert_eq!(reply.headers.get(header::CONTENT_TYPE).unwrap(), "text/event-stream");
        sse_events(&reply.text)
    }
}

/// The account settings tests run with: users reach the server at http://palaver.test, the
/// host every test request names.
/// The id of the ask a turn's streamed events paused on (Palaver mints it).
pub fn asked(events: &[Value]) -> String {
    let ask = events.iter().find_map(|event| event["ask"]["toolCallId"].as_str());
    ask.unwrap_or_else(|| panic!("the turn asks: {events:?}")).to_string()
}

pub fn test_auth() -> AuthSettings {
    AuthSettings { public_origins: PublicOrigins::parse("http://palaver.test").expect("origin"), ..Default::default() }
}

pub fn sse_events(text: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter_map(|block| block.lines().find_map(|line| line.strip_prefix("data: ")))
        .map(|data| serde_json::from_str(data).expect("event is JSON"))
        .collect()
}

/// The text of a turn's `{text}` events, joined.
pub fn streamed_text(events: &[Value]) -> String {
    events.iter().filter_map(|event| event["text"].as_str()).collect()
}

/// An open event stream (`GET /gpt/events`), read an event at a time.
pub struct EventStream {
    body: Body,
    buffer: String,
}

/// One server-sent event: its `id:` and its JSON `data:`.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamEvent {
    pub id: Option<String>,
    pub data: Value,
}

impl TestApp {
    /// Posts `body` to `uri` as `user` and opens the reply as an event stream, asking for the
    /// events' ids as Palaver's browser client does.
    pub async fn open_post_stream(&self, user: &TestUser, uri: &str, body: Value) -> EventStream {
        let request = Request::builder()
            .method("POST")
            .uri(uri)
            .header(header::HOST, "palaver.test")
            .header(header::AUTHORIZATION, format!("Bearer {}", user.token))
            .header(header::CONTENT_TYPE, "application/json")
            .header(palaver_wire::body::EVENT_IDS_HEADER, "1")
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = self.router.clone().oneshot(request).await.expect("response");
        assert_eq!(response.status(), StatusCode::OK);
        EventStream { body: response.into_body(), buffer: String::new() }
    }

    /// Opens `uri` as `user`'s event stream, as a client that last saw `last_event_id`.
    pub async fn open_stream(&self, user: &TestUser, uri: &str, last_event_id: Option<&str>) -> EventStream {
        let mut builder = Request::builder()
            .uri(uri)
            .header(header::HOST, "palaver.test")
            .header(header::AUTHORIZATION, format!("Bearer {}", user.token));
        if let Some(id) = last_event_id {
            builder = builder.header("last-event-id", id);
        }
        let response = self.router.clone().oneshot(builder.body(Body::empty()).unwrap()).await.expect("response");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        EventStream { body: response.into_body(), buffer: String::new() }
    }
}

impl EventStream {
    /// The next event with data, or `None` when none comes within `wait`.
    pub async fn next(&mut self, wait: std::time::Duration) -> Option<StreamEvent> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let field = |name: &str| block.lines().find_map(|line| line.strip_prefix(name).map(str::to_string));
                if let Some(data) = field("data: ") {
                    let data = serde_json::from_str(&data).expect("event data is JSON");
                    return Some(StreamEvent { id: field("id: "), data });
                }
            }
            let frame = tokio::time::timeout_at(deadline, self.body.frame()).await.ok()??.ok()?;
            if let Ok(bytes) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&bytes));
            }
        }
    }

    /// Every event up to and including `{done}`.
    pub async fn until_done(&mut self) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        while let Some(event) = self.next(std::time::Duration::from_secs(5)).await {
            let done = event.data.get("done").is_some();
            events.push(event);
            if done {
                return events;
            }
        }
        panic!("the stream ended without done: {events:?}");
    }

    /// The next `count` events (each within a second).
    pub async fn take(&mut self, count: usize) -> Vec<StreamEvent> {
        let mut events = Vec::new();
        for _ in 0..count {
            match self.next(std::time::Duration::from_secs(2)).await {
                Some(event) => events.push(event),
                None => panic!("only {} of {count} events came: {events:?}", events.len()),
            }
        }
        events
    }
}

/// Each event's name (its only key).
pub fn event_names(events: &[StreamEvent]) -> Vec<String> {
    events.iter().filter_map(|event| event.data.as_object()?.keys().next().cloned()).collect()
}
