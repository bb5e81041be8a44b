//! The listener's limits against a real process: a client that sends its headers too slowly,
//! or holds a connection idle, is closed at the header timeout while others are served; a
//! client address holds at most so many connections, and all clients together at most the server's cap.

use std::time::{Duration, Instant};

use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn connect(port: u16) -> TcpStream {
    TcpStream::connect(("127.0.0.1", port)).await.unwrap()
}

/// Reads until the server closes the connection; how long that took (at most `limit`).
async fn closed_after(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 1024];
    loop {
        match tokio::time::timeout(limit.saturating_sub(started.elapsed()), stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
            Err(_) => return None,
        }
    }
}

async fn health(port: u16) -> String {
    let mut stream = connect(port).await;
    stream.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await.unwrap();
    reply
}

#[tokio::test]
async fn slow_headers_and_idle_connections_are_closed_at_the_header_timeout_while_others_are_served() {
    let server =
        crate::process::start(&json!({"responses": []}), &[("PALAVER_HEADER_TIMEOUT_SECONDS", "1".into())]).await;
    let mut slow = connect(server.port).await;
    // One header line, then a byte now and then: never a whole header.
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n").await.unwrap();
    let mut idle = connect(server.port).await;
    let trickle = tokio::spawn(async move {
        for _ in 0..8 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            if slow.write_all(b"X").await.is_err() {
                break;
            }
        }
        slow
    });
    assert!(health(server.port).await.starts_with("HTTP/1.1 200"), "others are served meanwhile");
    let mut slow = trickle.await.unwrap();
    let slow_closed = closed_after(&mut slow, Duration::from_secs(3)).await;
    assert!(slow_closed.is_some(), "a header sent a byte at a time is cut off");
    let idle_closed = closed_after(&mut idle, Duration::from_secs(3)).await;
    assert!(idle_closed.is_some(), "an idle connection is closed");
}

#[tokio::test]
async fn a_client_holds_at_most_its_share_of_connections() {
    let settings =
        [("PALAVER_MAX_CONNECTIONS_PER_CLIENT", "3".to_string()), ("PALAVER_HEADER_TIMEOUT_SECONDS", "30".to_string())];
    let server = crate::process::start(&json!({"responses": []}), &settings).await;
    // The start-up probe's connection may still be counted for a moment.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let held: Vec<TcpStream> = three_connections(server.port).await;
    let mut fourth = connect(server.port).await;
    assert!(closed_after(&mut fourth, Duration::from_secs(2)).await.is_some(), "a fourth connection is closed");
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(health(server.port).await.starts_with("HTTP/1.1 200"), "places come back as connections close");
}

#[tokio::test]
async fn past_the_servers_connection_cap_a_client_is_told_it_is_busy_in_the_problem_shape() {
    let settings = [("PALAVER_MAX_CONNECTIONS", "3".to_string()), ("PALAVER_HEADER_TIMEOUT_SECONDS", "30".to_string())];
    let server = crate::process::start(&json!({"responses": []}), &settings).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let held = three_connections(server.port).await;
    let mut fourth = connect(server.port).await;
    let mut reply = String::new();
    tokio::time::timeout(Duration::from_secs(2), fourth.read_to_string(&mut reply)).await.unwrap().unwrap();
    assert!(reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(reply.contains("retry-after: 1") && reply.contains("\"code\":\"server-busy\""), "{reply}");
    let body: serde_json::Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["status"], 503);
    drop(held);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(health(server.port).await.starts_with("HTTP/1.1 200"), "places come back as connections close");
}

async fn three_connections(port: u16) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect(port).await);
    }
    // Each is taken by the server before the next test step.
    tokio::time::sleep(Duration::from_millis(200)).await;
    held
}

#[tokio::test]
async fn a_reply_streaming_longer_than_the_header_timeout_is_not_cut() {
    let parts: Vec<String> = (1..=8).map(|n| format!("Part {n}. ")).collect();
    let script = json!({"responses": [{"parts": parts, "chunkDelayMs": 400}]});
    let server = crate::process::start(&script, &[("PALAVER_HEADER_TIMEOUT_SECONDS", "1".into())]).await;
    let cookie = server.log_in().await;
    let mut stream = server.start_turn(&cookie).await;
    let mut rest = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut rest)).await.unwrap().unwrap();
    assert!(rest.contains("Part 8.") && rest.contains("\"done\""), "the whole reply came: {rest}");
}

#[tokio::test]
async fn a_body_that_stalls_fails_at_the_body_timeout_in_the_problem_shape() {
    let settings = [("PALAVER_BODY_TIMEOUT_SECONDS", "1".to_string())];
    let server = crate::process::start(&json!({"responses": []}), &settings).await;
    let cookie = server.log_in().await;
    let mut stream = connect(server.port).await;
    let head = format!(
        "POST /gpt/histories HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{{\"title\":",
        port = server.port
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let started = Instant::now();
    let mut reply = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut reply)).await.unwrap().unwrap();
    assert!(started.elapsed() < Duration::from_secs(4), "it did not wait for the rest");
    assert!(reply.starts_with("HTTP/1.1 4"), "{reply}");
    assert!(reply.contains("application/problem+json") || reply.contains("\"status\""), "{reply}");
}

#[tokio::test]
async fn over_the_wire_a_request_without_a_body_needs_no_content_type_and_a_text_body_is_refused() {
    let server = crate::process::start(&json!({"responses": []}), &[]).await;
    let cookie = server.log_in().await;
    let mut get = connect(server.port).await;
    let me = format!(
        "GET /auth/me HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n",
        server.port
    );
    get.write_all(me.as_bytes()).await.unwrap();
    let mut reply = String::new();
    get.read_to_string(&mut reply).await.unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    let mut post = connect(server.port).await;
    let body = r#"{"title": "Plain"}"#;
    let head = format!(
        "POST /gpt/histories HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\
         Content-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len(),
        port = server.port
    );
    post.write_all(head.as_bytes()).await.unwrap();
    let mut reply = String::new();
    post.read_to_string(&mut reply).await.unwrap();
    assert!(reply.starts_with("HTTP/1.1 415"), "{reply}");
}
