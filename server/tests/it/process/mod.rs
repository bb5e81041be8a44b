//! A real `palaver serve` process for the tests that need one (signals, the listener's limits):
//! a temporary database with the user ada, the scripted mock model, and extra settings; a fake
//! OpenAI-compatible model (`fake_openai`) and a database proxy that can cut an instance off
//! (`proxy`) for the tests of several instances.
#![allow(dead_code)] // Each test file uses its own part of this.

pub mod fake_openai;
pub mod proxy;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

pub struct Server {
    pub child: Child,
    pub port: u16,
    /// The folders it uses (its mock script's; its database's and files', when they are its
    /// own), kept while it runs.
    pub dirs: Vec<tempfile::TempDir>,
    pub database_url: String,
}

/// A test that fails leaves no server behind.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The setting that connects a server to these MCP servers (`mcpServers` entries), written to a
/// file in `folder`.
pub fn mcp_config(folder: &std::path::Path, servers: Value) -> (&'static str, String) {
    let config = folder.join("mcp.json");
    std::fs::write(&config, serde_json::json!({"mcpServers": servers}).to_string()).unwrap();
    ("PALAVER_MCP_CONFIG", config.display().to_string())
}

/// Starts the server with the mock `script` and these extra environment settings, once it
/// accepts connections: on a fresh database with the user ada, its files in its own folder.
pub async fn start(script: &Value, settings: &[(&str, String)]) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let database_url = palaver_core::db::scratch_url(dir.path()).await.unwrap();
    create_ada(&database_url);
    let data_dir = dir.path().to_path_buf();
    let mut settings = settings.to_vec();
    settings.extend(palaver_core::uploads::scratch_url().map(|url| ("PALAVER_FILES_URL", url)));
    let mut server = start_instance(&database_url, &data_dir, script, &settings).await;
    server.dirs.push(dir);
    server
}

/// Creates the user ada (password `correct horse battery`) on the database.
pub fn create_ada(database_url: &str) {
    create_user(database_url, "ada");
}

/// Creates the user `username`, with ada's password.
pub fn create_user(database_url: &str, username: &str) {
    let mut create = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(["users", "create", username])
        .env("PALAVER_DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut create.stdin.take().unwrap(), b"correct horse battery").unwrap();
    assert!(create.wait().unwrap().success());
}

/// Starts one more instance on `database_url`, keeping files in `data_dir` (several instances
/// may share both), with its own mock `script`.
pub async fn start_instance(
    database_url: &str,
    data_dir: &std::path::Path,
    script: &Value,
    settings: &[(&str, String)],
) -> Server {
    spawn_instance(database_url, data_dir, script, settings, Stdio::inherit()).await
}

/// [`start_instance`], its log (stderr) appended to the file `log`.
pub async fn start_logged_instance(
    database_url: &str,
    data_dir: &std::path::Path,
    script: &Value,
    settings: &[(&str, String)],
    log: &std::path::Path,
) -> Server {
    let log = std::fs::OpenOptions::new().create(true).append(true).open(log).unwrap();
    spawn_instance(database_url, data_dir, script, settings, log.into()).await
}

async fn spawn_instance(
    database_url: &str,
    data_dir: &std::path::Path,
    script: &Value,
    settings: &[(&str, String)],
    log: Stdio,
) -> Server {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("mock.json"), script.to_string()).unwrap();
    let port = free_port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_palaver"));
    command
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("LEPTOS_OUTPUT_NAME", "palaver")
        .env("LEPTOS_SITE_ROOT", "target/site")
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("PALAVER_DATABASE_URL", database_url)
        .env("PALAVER_DATA_DIR", data_dir)
        .env("PALAVER_MODEL", format!("mock:{}", dir.path().join("mock.json").display()))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(log);
    for (name, value) in settings {
        command.env(name, value);
    }
    // Held from here, so a server that never answers is killed with the failing test.
    let server =
        Server { child: command.spawn().unwrap(), port, dirs: vec![dir], database_url: database_url.to_owned() };
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server did not start");
}

impl Server {
    pub async fn request(&self, method: &str, path: &str, cookie: &str, body: &Value) -> TcpStream {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let body = body.to_string();
        let origin = format!("http://127.0.0.1:{}", self.port);
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: {origin}\r\nCookie: {cookie}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.port,
            body.len()
        );
        stream.write_all(format!("{head}{body}").as_bytes()).await.unwrap();
        stream
    }

    /// Sends raw bytes as a request's body with its own content type; the reply, read whole.
    pub async fn send(&self, method: &str, path: &str, cookie: &str, content_type: &str, body: &[u8]) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).await.unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\
             Content-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len(),
            port = self.port
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        // A server that answers before the whole body is read may close on the rest.
        let _ = stream.write_all(body).await;
        let mut reply = Vec::new();
        let _ = stream.read_to_end(&mut reply).await;
        String::from_utf8_lossy(&reply).into_owned()
    }

    /// Waits (30 s at most) until `count` MCP servers are connected, as `/admin`'s status says
    /// (`cookie` is ada's, the first account: an admin).
    pub async fn wait_for_mcp(&self, cookie: &str, count: usize) {
        let started = std::time::Instant::now();
        loop {
            let reply =
                self.send("POST", "/api/admin_mcp_status", cookie, "application/x-www-form-urlencoded", b"").await;
            if reply.matches("\"state\":\"connected\"").count() == count {
                return;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the MCP servers did not connect: {reply}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn log_in(&self) -> String {
        let login = json!({"username": "ada", "password": "correct horse battery"});
        let mut reply = String::new();
        self.request("POST", "/auth/login", "", &login).await.read_to_string(&mut reply).await.unwrap();
        let cookie = reply.lines().find_map(|line| line.strip_prefix("set-cookie: ")).expect("a session cookie");
        cookie.split(';').next().unwrap().to_string()
    }

    /// Sends a turn (`/gpt/prompt` with `body`) and reads its events until `until` holds for
    /// one, or the stream ends; the stream, to read on or drop, and the events read.
    pub async fn turn_until(
        &self,
        cookie: &str,
        body: &Value,
        until: impl Fn(&Value) -> bool,
    ) -> (BufReader<TcpStream>, Vec<Value>) {
        let mut stream = BufReader::new(self.request("POST", "/gpt/prompt", cookie, body).await);
        let events = read_events(&mut stream, until).await;
        (stream, events)
    }

    /// The conversation's stored rows, in order.
    pub async fn stored_rows(&self) -> Vec<Value> {
        let pool = palaver_core::db::connect(&self.database_url).await.unwrap();
        let rows: Vec<(String,)> = sqlx::query_as("SELECT CAST(payload AS TEXT) FROM history_rows ORDER BY seq")
            .fetch_all(&pool)
            .await
            .unwrap();
        pool.close().await;
        rows.into_iter().map(|(json,)| serde_json::from_str(&json).unwrap()).collect()
    }

    /// Sends a prompt the mock answers with [`choice_ask`], and waits for the pause: the
    /// conversation and the ask's tool call id.
    pub async fn paused(&self, cookie: &str) -> (String, String) {
        let (_, events) = self.turn_until(cookie, &json!({"prompt": "Choose for me"}), is_done).await;
        let ask = events.iter().find(|event| event.get("ask").is_some()).expect("the turn asked");
        (ask["historyId"].as_str().unwrap().to_string(), ask["ask"]["toolCallId"].as_str().unwrap().to_string())
    }

    /// SIGKILL: nothing runs on the way out.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Starts the server again on the same database and files, with `script`.
    pub async fn start_again(&self, script: &Value, settings: &[(&str, String)]) -> Server {
        let data_dir = self.dirs.last().unwrap().path().to_path_buf();
        start_instance(&self.database_url, &data_dir, script, settings).await
    }

    /// Starts a turn and reads its stream until the first streamed text (`{delta}`): the reply is under way.
    pub async fn start_turn(&self, cookie: &str) -> BufReader<TcpStream> {
        let mut stream = BufReader::new(self.request("POST", "/gpt/prompt", cookie, &json!({"prompt": "Talk"})).await);
        let mut line = String::new();
        while stream.read_line(&mut line).await.unwrap() > 0 {
            if line.contains("\"delta\"") {
                return stream;
            }
            line.clear();
        }
        panic!("the turn sent no text");
    }
}

/// Reads server-sent events until `until` holds for one (included), or the stream ends.
pub async fn read_events(stream: &mut BufReader<TcpStream>, until: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut events = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).await.unwrap_or(0) == 0 {
            return events;
        }
        let Some(event) = line.strip_prefix("data: ").and_then(|data| serde_json::from_str::<Value>(data).ok()) else {
            continue;
        };
        let done = until(&event);
        events.push(event);
        if done {
            return events;
        }
    }
}

/// A turn's event that ends its stream.
pub fn is_done(event: &Value) -> bool {
    event["done"] == true
}

/// A mock response that asks to pick one of Apples (`a`) and Pears (`b`).
pub fn choice_ask() -> Value {
    json!({"toolCalls": [{"id": "call_pick", "name": "ask_choice", "input": {
        "prompt": "Which one?", "select": "one",
        "options": [{"id": "a", "label": "Apples"}, {"id": "b", "label": "Pears"}]}}]})
}

/// The `/gpt/prompt` body that picks `option` on the pending ask.
pub fn answer(history_id: &str, tool_call_id: &str, option: &str) -> Value {
    json!({"historyId": history_id,
           "askResponse": {"toolCallId": tool_call_id, "action": "accept", "content": {"selected": [option]}}})
}
