//! Shutting down as a real process: SIGTERM stops accepting, gives running turns the grace
//! period, then stops them; each saves what it said, whether its client is still there or
//! left; open event streams do not hold the exit up.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

struct Server {
    child: Child,
    port: u16,
    dir: tempfile::TempDir,
}

/// A test that fails leaves no server behind.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn database(dir: &tempfile::TempDir) -> String {
    format!("sqlite://{}?mode=rwc", dir.path().join("palaver.db").display())
}

async fn start(grace_seconds: u64) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let parts: Vec<String> = (1..=20).map(|n| format!("Part {n}. ")).collect();
    let script = json!({"responses": [{"parts": parts, "chunkDelayMs": 300}, {"parts": parts, "chunkDelayMs": 300}]});
    std::fs::write(dir.path().join("mock.json"), script.to_string()).unwrap();
    let mut create = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(["users", "create", "ada"])
        .env("PALAVER_DATABASE_URL", database(&dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut create.stdin.take().unwrap(), b"correct horse battery").unwrap();
    assert!(create.wait().unwrap().success());
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("LEPTOS_OUTPUT_NAME", "palaver")
        .env("LEPTOS_SITE_ROOT", "target/site")
        .env("LEPTOS_SITE_PKG_DIR", "pkg")
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("PALAVER_DATABASE_URL", database(&dir))
        .env("PALAVER_DATA_DIR", dir.path())
        .env("PALAVER_MODEL", format!("mock:{}", dir.path().join("mock.json").display()))
        .env("PALAVER_SHUTDOWN_GRACE_SECONDS", grace_seconds.to_string())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Held from here, so a server that never answers is killed with the failing test.
    let server = Server { child, port, dir };
    for _ in 0..100 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return server;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server did not start");
}

impl Server {
    async fn request(&self, method: &str, path: &str, cookie: &str, body: &Value) -> TcpStream {
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

    async fn log_in(&self) -> String {
        let login = json!({"username": "ada", "password": "correct horse battery"});
        let mut reply = String::new();
        self.request("POST", "/auth/login", "", &login).await.read_to_string(&mut reply).await.unwrap();
        let cookie = reply.lines().find_map(|line| line.strip_prefix("set-cookie: ")).expect("a session cookie");
        cookie.split(';').next().unwrap().to_string()
    }

    /// Starts a turn and reads its stream until the first text: the reply is under way.
    async fn start_turn(&self, cookie: &str) -> BufReader<TcpStream> {
        let mut stream = BufReader::new(self.request("POST", "/gpt/prompt", cookie, &json!({"prompt": "Talk"})).await);
        let mut line = String::new();
        while stream.read_line(&mut line).await.unwrap() > 0 {
            if line.contains("\"text\"") {
                return stream;
            }
            line.clear();
        }
        panic!("the turn sent no text");
    }

    fn terminate(&self) {
        assert!(Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status().unwrap().success());
    }

    /// Waits for the process to exit; how long it took.
    async fn exited(&mut self) -> Duration {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return started.elapsed();
            }
            assert!(started.elapsed() < Duration::from_secs(20), "the server did not exit");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn replies(&self) -> Vec<String> {
        let pool = app::db::connect(&database(&self.dir)).await.unwrap();
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT json_extract(payload, '$.text') FROM history_rows WHERE row_type = 'assistant' ORDER BY seq",
        )
        .fetch_all(&pool)
        .await
        .unwrap();
        rows.into_iter().map(|(text,)| text).collect()
    }
}

#[tokio::test]
async fn sigterm_gives_turns_their_grace_then_stops_them_and_each_saves_what_it_said() {
    let mut server = start(1).await;
    let cookie = server.log_in().await;
    // One client stays; another leaves mid-reply; an event stream is open.
    let mut staying = server.start_turn(&cookie).await;
    drop(server.start_turn(&cookie).await);
    let _events = server.request("GET", "/gpt/events", &cookie, &json!({})).await;

    server.terminate();
    let mut rest = String::new();
    staying.read_to_string(&mut rest).await.unwrap();
    assert!(rest.contains("\"done\":true"), "the staying client's stream ends with done: {rest}");
    let took = server.exited().await;
    assert!(took < Duration::from_secs(8), "1 s of grace, then the turns stop and save: took {took:?}");

    let replies = server.replies().await;
    assert_eq!(replies.len(), 2, "both turns saved, the one whose client left too: {replies:?}");
    for reply in &replies {
        assert!(reply.starts_with("Part 1. ") && !reply.contains("Part 20."), "what was said, cut: {reply}");
    }
}

#[tokio::test]
async fn a_second_signal_stops_the_turns_at_once_and_they_still_save() {
    let mut server = start(60).await;
    let cookie = server.log_in().await;
    let _turn = server.start_turn(&cookie).await;
    server.terminate();
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.terminate();
    let took = server.exited().await;
    assert!(took < Duration::from_secs(5), "not the minute of grace: {took:?}");
    let replies = server.replies().await;
    assert_eq!(replies.len(), 1);
    assert!(replies[0].starts_with("Part 1. ") && !replies[0].contains("Part 20."), "{replies:?}");
}
