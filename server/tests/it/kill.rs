//! Killed (SIGKILL: nothing runs on the way out) at each point of a turn, a real process loses
//! nothing the user saw: started again on the same database, it saves the message and the reply
//! as far as it streamed (at most a second behind), marked interrupted; a paused ask stays
//! answerable (an MCP server's input request too); an answer or a cancel already taken stays
//! taken; a cut-off upload leaves no file.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

/// The drafts no one has saved yet (a swept one stays an hour, for an owner alive after all).
async fn drafts_left(database_url: &str) -> i64 {
    let pool = palaver_core::db::connect(database_url).await.unwrap();
    let unsaved = "SELECT COUNT(*) FROM turn_drafts WHERE swept_first_seq IS NULL";
    sqlx::query_as::<_, (i64,)>(unsaved).fetch_one(&pool).await.unwrap().0
}

/// The stored rows once `ready` holds for them (a restarted server saves cut-off turns as it
/// starts), or after 20 s.
async fn rows_once(server: &crate::process::Server, ready: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    let started = Instant::now();
    loop {
        let rows = server.stored_rows().await;
        if ready(&rows) || started.elapsed() > Duration::from_secs(20) {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The lease a dead process's turns keep on PostgreSQL: short, so they are swept soon.
fn lease() -> [(&'static str, String); 1] {
    [("PALAVER_TURN_LEASE_SECONDS", "2".to_string())]
}

fn slow_reply() -> Value {
    let parts: Vec<String> = (1..=40).map(|n| format!("Part {n}. ")).collect();
    json!({"parts": parts, "chunkDelayMs": 200})
}

/// Reads a turn's text until `enough` has streamed, then waits past the draft's second.
async fn streamed_until(stream: &mut tokio::io::BufReader<tokio::net::TcpStream>, enough: &str) -> String {
    let mut seen = String::new();
    let events = crate::process::read_events(stream, |event| {
        event["delta"].as_str().is_some_and(|text| text.contains(enough)) || crate::process::is_done(event)
    })
    .await;
    for event in events {
        seen.push_str(event["delta"].as_str().unwrap_or_default());
    }
    assert!(seen.contains(enough), "the reply streamed: {seen:?}");
    tokio::time::sleep(Duration::from_millis(1300)).await;
    seen
}

#[tokio::test]
async fn a_paused_ask_outlives_a_kill_and_is_answered_after_it() {
    let script = json!({"responses": [crate::process::choice_ask(), {"text": "Apples it is."}]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let (history_id, tool_call_id) = server.paused(&cookie).await;
    server.kill();
    let again = server.start_again(&json!({"responses": [{"text": "Apples it is."}]}), &lease()).await;
    let cookie = again.log_in().await;
    let (_, events) = again
        .turn_until(&cookie, &crate::process::answer(&history_id, &tool_call_id, "a"), crate::process::is_done)
        .await;
    assert!(events.iter().any(|event| event["askResolved"].is_object()), "the answer was taken: {events:?}");
    let said: String = events.iter().filter_map(|event| event["text"].as_str()).collect();
    assert_eq!(said, "Apples it is.", "{events:?}");
    let rows = again.stored_rows().await;
    assert_eq!(rows.last().unwrap()["text"], "Apples it is.", "{rows:?}");
}

#[tokio::test]
async fn a_continuation_cut_by_a_kill_keeps_the_answer_and_the_reply_so_far() {
    let script = json!({"responses": [crate::process::choice_ask(), slow_reply()]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let (history_id, tool_call_id) = server.paused(&cookie).await;
    let (mut stream, _) = server
        .turn_until(&cookie, &crate::process::answer(&history_id, &tool_call_id, "a"), |event| {
            event["delta"].is_string()
        })
        .await;
    streamed_until(&mut stream, "Part 3. ").await;
    server.kill();
    let again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&again, |rows| rows.last().is_some_and(|row| row["type"] == "assistant")).await;
    let reply = rows.last().unwrap();
    assert!(reply["text"].as_str().unwrap().starts_with("Part 1. Part 2. Part 3. "), "{reply}");
    assert_eq!(reply["interrupted"], true);
    assert!(rows.iter().any(|row| row.to_string().contains("\"selected\":[\"a\"]")), "the answer is kept: {rows:?}");
    // The ask reads answered and cannot be answered again.
    let cookie = again.log_in().await;
    let mut reply = String::new();
    let mut sent =
        again.request("POST", "/gpt/prompt", &cookie, &crate::process::answer(&history_id, &tool_call_id, "a")).await;
    tokio::io::AsyncReadExt::read_to_string(&mut sent, &mut reply).await.unwrap();
    assert!(reply.starts_with("HTTP/1.1 409"), "{reply}");
}

#[tokio::test]
async fn a_prompt_that_cancelled_an_ask_is_kept_when_a_kill_cuts_its_reply() {
    let script = json!({"responses": [crate::process::choice_ask(), slow_reply()]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let (history_id, _) = server.paused(&cookie).await;
    let never_mind = json!({"historyId": history_id, "prompt": "Never mind, tell me a story"});
    let (mut stream, _) = server.turn_until(&cookie, &never_mind, |event| event["delta"].is_string()).await;
    streamed_until(&mut stream, "Part 3. ").await;
    server.kill();
    let again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&again, |rows| rows.last().is_some_and(|row| row["type"] == "assistant")).await;
    let texts: Vec<&str> = rows.iter().filter_map(|row| row["text"].as_str()).collect();
    assert!(texts.contains(&"Never mind, tell me a story"), "the prompt is kept: {rows:?}");
    assert!(rows.last().unwrap()["text"].as_str().unwrap().starts_with("Part 1. "), "{rows:?}");
    assert_eq!(rows.last().unwrap()["interrupted"], true);
    let cookie = again.log_in().await;
    let mut reply = String::new();
    let path = format!("/gpt/histories/{history_id}");
    let mut read = again.request("GET", &path, &cookie, &json!({})).await;
    tokio::io::AsyncReadExt::read_to_string(&mut read, &mut reply).await.unwrap();
    assert!(
        reply.starts_with("HTTP/1.1 200") && !reply.contains("\"pendingAsk\":{"),
        "the ask stays cancelled: {reply}"
    );
}

#[tokio::test]
async fn a_message_waiting_for_the_reply_before_it_is_kept_through_a_kill() {
    let script = json!({"responses": [{"text": "Hi."}, slow_reply(), {"text": "Unused."}]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let (_, events) = server.turn_until(&cookie, &json!({"prompt": "Hello"}), crate::process::is_done).await;
    let history_id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let (mut running, _) = server
        .turn_until(&cookie, &json!({"historyId": history_id, "prompt": "Talk"}), |event| event["delta"].is_string())
        .await;
    // Sent from another tab: it waits for the reply that runs.
    let _waiting =
        server.request("POST", "/gpt/prompt", &cookie, &json!({"historyId": history_id, "prompt": "And then?"})).await;
    streamed_until(&mut running, "Part 3. ").await;
    server.kill();
    let again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&again, |rows| rows.iter().any(|row| row["text"] == "And then?")).await;
    let texts: Vec<&str> = rows.iter().filter_map(|row| row["text"].as_str()).collect();
    let (talk, waited) =
        (texts.iter().position(|text| *text == "Talk"), texts.iter().position(|text| *text == "And then?"));
    assert!(talk.is_some() && waited.is_some(), "both messages are kept: {rows:?}");
    assert!(talk < waited, "in the order they were sent: {rows:?}");
    assert!(texts[talk.unwrap() + 1].starts_with("Part 1. "), "the reply that ran, cut off: {rows:?}");
    assert_eq!(drafts_left(&again.database_url).await, 0);
}

/// Sends `body` to `/gpt/prompt` and kills the server the moment its response's head has
/// arrived: the client was told the message was accepted.
async fn killed_as_acknowledged(server: &mut crate::process::Server, cookie: &str, body: &Value) {
    let mut stream = tokio::io::BufReader::new(server.request("POST", "/gpt/prompt", cookie, body).await);
    let mut line = String::new();
    stream.read_line(&mut line).await.unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    while line != "\r\n" {
        line.clear();
        stream.read_line(&mut line).await.unwrap();
    }
    server.kill();
}

#[tokio::test]
async fn a_message_acknowledged_is_kept_when_the_process_dies_as_the_answer_arrives() {
    let script = json!({"responses": [{"text": "Hi."}, slow_reply(), slow_reply()]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let (_, events) = server.turn_until(&cookie, &json!({"prompt": "Hello"}), crate::process::is_done).await;
    let history_id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    killed_as_acknowledged(&mut server, &cookie, &json!({"historyId": history_id, "prompt": "Keep this"})).await;
    let mut again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&again, |rows| rows.iter().any(|row| row["text"] == "Keep this")).await;
    assert!(rows.iter().any(|row| row["text"] == "Keep this"), "the message was kept: {rows:?}");
    assert_eq!(rows.last().unwrap()["interrupted"], true, "its reply reads cut off: {rows:?}");
    // A regenerate retracts the last exchange and sends its message again: both at once.
    let cookie = again.log_in().await;
    let redo = json!({"historyId": history_id, "replaceLast": true});
    killed_as_acknowledged(&mut again, &cookie, &redo).await;
    let third = again.start_again(&script, &lease()).await;
    let rows = rows_once(&third, |rows| rows.iter().any(|row| row["text"] == "Keep this")).await;
    let kept: Vec<&Value> = rows.iter().filter(|row| row["text"] == "Keep this").collect();
    assert_eq!(kept.len(), 1, "the regenerated message, once: {rows:?}");
    assert_eq!(drafts_left(&third.database_url).await, 0);
}

#[tokio::test]
async fn a_kill_mid_burst_saves_every_turn_once_and_leaves_the_database_sound() {
    let script = json!({"responses": [slow_reply(), slow_reply(), slow_reply(), slow_reply()]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let mut streams = Vec::new();
    for _ in 0..4 {
        streams.push(server.start_turn(&cookie).await);
    }
    tokio::time::sleep(Duration::from_millis(1300)).await;
    server.kill();
    let again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&again, |rows| rows.iter().filter(|row| row["type"] == "assistant").count() == 4).await;
    let replies: Vec<&Value> = rows.iter().filter(|row| row["type"] == "assistant").collect();
    assert_eq!(replies.len(), 4, "each turn's reply, once: {rows:?}");
    assert!(
        replies
            .iter()
            .all(|reply| reply["interrupted"] == true && reply["text"].as_str().unwrap().starts_with("Part 1. "))
    );
    assert_eq!(rows.iter().filter(|row| row["type"] == "user").count(), 4, "and each message");
    assert_eq!(drafts_left(&again.database_url).await, 0);
    if again.database_url.starts_with("sqlite") {
        let pool = palaver_core::db::connect(&again.database_url).await.unwrap();
        let (check,): (String,) = sqlx::query_as("PRAGMA integrity_check").fetch_one(&pool).await.unwrap();
        assert_eq!(check, "ok");
    }
    drop(streams);
}

#[tokio::test]
async fn an_upload_cut_off_by_a_kill_leaves_no_file_and_the_next_upload_works() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut server = crate::process::start(&json!({"responses": []}), &lease()).await;
    let cookie = server.log_in().await;
    let mut upload = tokio::net::TcpStream::connect(("127.0.0.1", server.port)).await.unwrap();
    let head = format!(
        "POST /files/upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 2000000\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\n\r\n",
        port = server.port
    );
    upload.write_all(head.as_bytes()).await.unwrap();
    upload.write_all(&vec![b'x'; 600_000]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    server.kill();
    let again = server.start_again(&json!({"responses": []}), &lease()).await;
    let pool = palaver_core::db::connect(&again.database_url).await.unwrap();
    let (files,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM files").fetch_one(&pool).await.unwrap();
    assert_eq!(files, 0, "no file is listed from a cut-off upload");
    let cookie = again.log_in().await;
    let mut whole = tokio::net::TcpStream::connect(("127.0.0.1", again.port)).await.unwrap();
    let body =
        "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"small.txt\"\r\n\r\nhello\r\n--XyZ--\r\n";
    let request = format!(
        "POST /files/upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len(),
        port = again.port
    );
    whole.write_all(request.as_bytes()).await.unwrap();
    let mut reply = String::new();
    whole.read_to_string(&mut reply).await.unwrap();
    assert!(reply.starts_with("HTTP/1.1 201"), "{reply}");
    let (files,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM files").fetch_one(&pool).await.unwrap();
    assert_eq!(files, 1);
}

#[tokio::test]
async fn a_reply_cut_by_a_kill_is_saved_as_far_as_it_streamed_once_the_server_is_back() {
    let script = json!({"responses": [slow_reply()]});
    let mut server = crate::process::start(&script, &lease()).await;
    let cookie = server.log_in().await;
    let mut stream = server.start_turn(&cookie).await;
    let mut seen = String::new();
    let mut line = String::new();
    while !seen.contains("Part 4. ") {
        line.clear();
        assert!(stream.read_line(&mut line).await.unwrap() > 0, "the stream ended early");
        if let Some(data) = line.strip_prefix("data: ")
            && let Ok(event) = serde_json::from_str::<Value>(data)
            && let Some(text) = event["delta"].as_str()
        {
            seen.push_str(text);
        }
    }
    // What was shown is stored at most a second behind.
    tokio::time::sleep(Duration::from_millis(1300)).await;
    server.kill();
    assert!(drafts_left(&server.database_url).await == 1, "the turn's draft outlived the process");
    assert_eq!(server.stored_rows().await.len(), 0, "nothing saved as rows yet");

    let _again = server.start_again(&script, &lease()).await;
    let rows = rows_once(&server, |rows| !rows.is_empty()).await;
    assert_eq!(rows.len(), 2, "the message and the reply: {rows:?}");
    assert_eq!((rows[0]["type"].as_str(), rows[0]["text"].as_str()), (Some("user"), Some("Talk")));
    assert_eq!(rows[1]["type"], "assistant");
    assert_eq!(rows[1]["interrupted"], true, "{:?}", rows[1]);
    let reply = rows[1]["text"].as_str().unwrap();
    // `start_turn` read the first part; `seen` is every part after it, up to the kill.
    assert!(
        reply.starts_with(&format!("Part 1. {seen}")),
        "every part shown before the kill is kept: {reply:?} after {seen:?}"
    );
    assert!(!reply.contains("Part 40."), "and only what streamed: {reply:?}");
    assert_eq!(drafts_left(&server.database_url).await, 0, "saved once, its draft gone");
}

#[tokio::test]
async fn an_mcp_servers_input_request_outlives_a_kill_and_the_call_finishes_after_it() {
    let mcp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    let python = mcp.join(".venv/bin/python");
    assert!(python.exists(), "the test MCP servers are not installed: run scripts/install-tools.sh --test");
    let folder = tempfile::tempdir().unwrap();
    let settings =
        [lease(), [crate::process::mcp_config(folder.path(), json!({"desk": crate::http_apps::desk_entry("never")}))]]
            .concat();

    let greet = json!({"toolCalls": [{"id": "call_g", "name": "desk__greet", "input": {}}]});
    let mut server = crate::process::start(&json!({"responses": [greet]}), &settings).await;
    let cookie = server.log_in().await;
    server.wait_for_mcp(&cookie, 1).await;
    let (_, events) = server.turn_until(&cookie, &json!({"prompt": "Say hello"}), crate::process::is_done).await;
    let ask = events.iter().find(|event| event.get("ask").is_some()).expect("the server's question is asked");
    let history_id = ask["historyId"].as_str().unwrap().to_string();
    let question = ask["ask"]["toolCallId"].as_str().unwrap().to_string();
    let name = ask["ask"]["input"]["fields"][0]["id"].as_str().unwrap().to_string();
    server.kill();

    // Answered at once: the new process waits for its MCP server to connect, then sends the call again.
    let again = server.start_again(&json!({"responses": [{"text": "Greeted."}]}), &settings).await;
    let cookie = again.log_in().await;
    let answer = json!({"historyId": history_id, "askResponse": {"toolCallId": question, "action": "accept",
        "content": {"values": {name: "Grace"}}}});
    let (_, events) = again.turn_until(&cookie, &answer, crate::process::is_done).await;
    let result = events.iter().find_map(|event| event.get("toolResult")).expect("the call finished");
    assert_eq!(result["toolCallId"], "call_g", "{events:?}");
    assert_eq!(result["result"]["result"], "Hello, Grace.", "{events:?}");
    let said: String = events.iter().filter_map(|event| event["text"].as_str()).collect();
    assert_eq!(said, "Greeted.", "{events:?}");
}

#[tokio::test]
async fn a_task_outlives_a_kill_and_the_turn_goes_on_from_its_result() {
    let mcp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    let python = mcp.join(".venv/bin/python");
    assert!(python.exists(), "the test MCP servers are not installed: run scripts/install-tools.sh --test");
    let folder = tempfile::tempdir().unwrap();
    let (log, release) = (folder.path().join("tasks.log"), folder.path().join("release"));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    // Over HTTP, the task server is a process of its own: its tasks outlive Palaver's.
    let _tasks = tokio::process::Command::new(&python)
        .arg(mcp.join("task_server.py"))
        .env("PORT", port.to_string())
        .env("TASK_LOG", &log)
        .env("TASK_RELEASE", &release)
        .kill_on_drop(true)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the task server starts");
    let started = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "the task server did not listen");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let tasks = json!({"tasks": {"url": format!("http://127.0.0.1:{port}/mcp"), "approval": "never"}});
    let settings = [lease(), [crate::process::mcp_config(folder.path(), tasks)]].concat();

    let tally = json!({"toolCalls": [{"id": "call_t", "name": "tasks__tally", "input": {}}]});
    let mut server = crate::process::start(&json!({"responses": [tally]}), &settings).await;
    let cookie = server.log_in().await;
    server.wait_for_mcp(&cookie, 1).await;
    // Its status shows once Palaver follows the task, which it stored first.
    let (_, events) = server
        .turn_until(&cookie, &json!({"prompt": "Tally the replies"}), |event| event.get("toolStatus").is_some())
        .await;
    assert!(events.iter().any(|event| event.get("toolStatus").is_some()), "the task is followed: {events:?}");
    server.kill();

    let again = server.start_again(&json!({"responses": [{"text": "Tallied."}]}), &settings).await;
    // Released while the new process follows it (or before): the task ends the same.
    std::fs::write(&release, "").unwrap();
    let rows = rows_once(&again, |rows| rows.last().is_some_and(|row| row["text"] == "Tallied.")).await;
    let shapes: Vec<(&str, &str)> = rows
        .iter()
        .map(|row| (row["type"].as_str().unwrap_or_default(), row["toolCallId"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        shapes,
        [("user", ""), ("tool-call", "call_t"), ("tool-result", "call_t"), ("assistant", "")],
        "the turn went on from the task's result: {rows:?}"
    );
    assert_eq!(rows[2]["result"], json!({"text": "12 replies."}));
    assert!(rows[3].get("interrupted").is_none(), "the reply finished: {:?}", rows[3]);
    let created = std::fs::read_to_string(&log).unwrap().lines().filter(|line| line.starts_with("created")).count();
    assert_eq!(created, 1, "the call ran once: only its task's result was fetched again");
    assert_eq!(drafts_left(&server.database_url).await, 0, "nothing is left to sweep");
}
