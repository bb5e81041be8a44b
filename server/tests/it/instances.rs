//! Two real Palaver processes on one PostgreSQL database, as behind a load balancer: a client
//! may reach either with any request. These run in scripts/test.sh's PostgreSQL pass
//! (`PALAVER_TEST_POSTGRES_URL`); SQLite serves one instance only, so the SQLite pass skips them.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::process::{Server, create_ada, start_instance};

fn plan_call(id: &str) -> Value {
    json!({"id": id, "name": "ask_choice", "input": {"prompt": "Which plan?", "select": "one",
        "options": [{"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]}})
}

/// A reply long enough to be stopped, cut into slow parts.
fn slow_reply() -> Value {
    json!({"parts": vec!["word "; 40], "chunkDelayMs": 250})
}

struct Pair {
    a: Server,
    b: Server,
    http: reqwest::Client,
    cookie: String,
    /// The files both instances keep: one folder, as on a shared volume, or one bucket.
    data: tempfile::TempDir,
}

/// Instances A and B on one fresh database, each with its own mock script; `None` (the test
/// is skipped) without a PostgreSQL server.
async fn pair(script_a: Value, script_b: Value, settings: &[(&str, String)]) -> Option<Pair> {
    if std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default().is_empty() {
        eprintln!("skipped: two instances need PostgreSQL (PALAVER_TEST_POSTGRES_URL)");
        return None;
    }
    let data = tempfile::tempdir().unwrap();
    let url = palaver_core::db::scratch_url(data.path()).await.unwrap();
    create_ada(&url);
    let mut with_log = settings.to_vec();
    // One bucket prefix for both, when the test run has an S3-compatible server.
    with_log.extend(palaver_core::uploads::scratch_url().map(|url| ("PALAVER_FILES_URL", url)));
    let (a_log, b_log) = (data.path().join("a.jsonl"), data.path().join("b.jsonl"));
    with_log.push(("PALAVER_MOCK_LOG", a_log.display().to_string()));
    let a = start_instance(&url, data.path(), &json!({"responses": script_a}), &with_log).await;
    with_log.pop();
    with_log.push(("PALAVER_MOCK_LOG", b_log.display().to_string()));
    let b = start_instance(&url, data.path(), &json!({"responses": script_b}), &with_log).await;
    let http = palaver_core::outbound::client_builder().build().unwrap();
    let login = http
        .post(format!("http://127.0.0.1:{}/auth/login", a.port))
        .header("origin", format!("http://127.0.0.1:{}", a.port))
        .json(&json!({"username": "ada", "password": "correct horse battery"}))
        .send()
        .await
        .unwrap();
    let cookie = login.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    Some(Pair { a, b, http, cookie, data })
}

impl Pair {
    /// A request to `server` as ada, with her session (made on A: sessions are shared).
    fn request(&self, server: &Server, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let origin = format!("http://127.0.0.1:{}", server.port);
        self.http.request(method, format!("{origin}{path}")).header("cookie", &self.cookie).header("origin", origin)
    }

    /// A turn, asking for its events' ids as Palaver's browser client does.
    async fn prompt(&self, server: &Server, body: Value) -> reqwest::Response {
        let request = self.request(server, reqwest::Method::POST, "/gpt/prompt");
        request.header(palaver_wire::body::EVENT_IDS_HEADER, "1").json(&body).send().await.unwrap()
    }

    /// A whole turn's stream, as its events.
    async fn turn(&self, server: &Server, body: Value) -> Vec<Value> {
        let reply = self.prompt(server, body).await;
        assert_eq!(reply.status(), StatusCode::OK);
        events(&reply.text().await.unwrap())
    }

    /// Stop for the conversation's turns, sent to `server` (the server function the chat calls).
    async fn stop(&self, server: &Server, history: &str) -> String {
        let reply = self
            .request(server, reqwest::Method::POST, "/api/stop_turn")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("id={history}"))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), StatusCode::OK);
        reply.text().await.unwrap()
    }

    /// A new conversation's id.
    async fn new_history(&self, server: &Server) -> String {
        let reply =
            self.request(server, reqwest::Method::POST, "/gpt/histories").json(&json!({})).send().await.unwrap();
        assert_eq!(reply.status(), StatusCode::CREATED);
        reply.json::<Value>().await.unwrap()["data"]["id"].as_str().unwrap().to_owned()
    }

    async fn history(&self, server: &Server, id: &str) -> Value {
        let reply = self.request(server, reqwest::Method::GET, &format!("/gpt/histories/{id}")).send().await.unwrap();
        assert_eq!(reply.status(), StatusCode::OK);
        reply.json::<Value>().await.unwrap()["data"].clone()
    }

    /// The model requests instance `name` ("a" or "b") made.
    fn model_requests(&self, name: &str) -> Vec<Value> {
        let log = std::fs::read_to_string(self.data.path().join(format!("{name}.jsonl"))).unwrap_or_default();
        log.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    }
}

/// The `data:` events of a stream.
fn events(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str(data).ok())
        .collect()
}

fn history_id(events: &[Value]) -> String {
    events.iter().find_map(|event| event["historyId"].as_str()).expect("a history id").to_owned()
}

/// Reads `reply`'s stream until an event satisfies `wanted`; all events so far.
async fn read_until(reply: &mut reqwest::Response, wanted: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut text = String::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), reply.chunk()).await.expect("in time").unwrap();
        let Some(chunk) = chunk else { panic!("the stream ended first: {text}") };
        text.push_str(&String::from_utf8_lossy(&chunk));
        let seen = events(&text);
        if seen.iter().any(&wanted) {
            return seen;
        }
    }
}

/// The answer `response` to the ask `asked` (the events of the turn that asked).
fn answer(asked: &[Value], response: Value) -> Value {
    let mut response = response;
    response["toolCallId"] = asked.iter().find_map(|event| event["ask"].get("toolCallId")).expect("an ask").clone();
    json!({"historyId": history_id(asked), "askResponse": response})
}

#[tokio::test]
async fn twelve_answers_split_across_two_instances_resume_the_turn_once() {
    let Some(pair) = pair(
        json!([{"toolCalls": [plan_call("call_1")]}, {"text": "Team it is, from A."}]),
        json!([{"text": "Team it is, from B."}]),
        &[],
    )
    .await
    else {
        return;
    };
    let asked = pair.turn(&pair.a, json!({"prompt": "Set up billing"})).await;
    let history = history_id(&asked);
    let body = answer(&asked, json!({"action": "accept", "content": {"selected": ["team"]}}));
    let replies = futures::future::join_all(
        (0..12).map(|n| pair.prompt(if n % 2 == 0 { &pair.a } else { &pair.b }, body.clone())),
    )
    .await;
    let mut statuses: Vec<u16> = replies.iter().map(|reply| reply.status().as_u16()).collect();
    statuses.sort();
    assert_eq!(statuses, [[200].as_slice(), &[409; 11]].concat(), "one winner across both instances");
    for reply in replies {
        let _ = reply.text().await;
    }
    let rows = pair.history(&pair.b, &history).await["prompts"].clone();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.iter().filter(|row| row["type"] == "tool-result").count(), 1, "one answer stored");
    let replies: Vec<&Value> = rows
        .iter()
        .filter(|row| row["type"] == "assistant" && row["text"].as_str().unwrap_or("").starts_with("Team"))
        .collect();
    assert_eq!(replies.len(), 1, "one continuation: {rows:?}");
}

#[tokio::test]
async fn an_ask_made_on_one_instance_shows_live_on_the_other_and_is_answered_there() {
    let Some(pair) =
        pair(json!([{"toolCalls": [plan_call("call_1")]}]), json!([{"text": "Answered on B."}]), &[]).await
    else {
        return;
    };
    let mut live = pair.request(&pair.b, reqwest::Method::GET, "/gpt/events").send().await.unwrap();
    assert_eq!(live.status(), StatusCode::OK);
    let asked = pair.turn(&pair.a, json!({"prompt": "Set up billing"})).await;
    let history = history_id(&asked);
    let seen = read_until(&mut live, |event| event["askCreated"]["historyId"] == history.as_str()).await;
    assert!(seen.iter().any(|event| event["turnStarted"]["historyId"] == history.as_str()), "{seen:?}");

    let pending = pair.request(&pair.b, reqwest::Method::GET, "/gpt/histories/pendingAsks").send().await.unwrap();
    let listed = pending.json::<Value>().await.unwrap()["data"][0]["toolCallId"].clone();
    assert_eq!(Some(&listed), asked.iter().find_map(|event| event["ask"].get("toolCallId")));
    let turn = pair.turn(&pair.b, answer(&asked, json!({"action": "accept", "content": {"selected": ["team"]}}))).await;
    assert_eq!(turn[0]["askResolved"]["action"], "accept", "{turn:?}");
    let text: String = turn.iter().filter_map(|event| event["text"].as_str()).collect();
    assert_eq!(text, "Answered on B.");
    read_until(&mut live, |event| event["askResolved"]["historyId"] == history.as_str()).await;
}

#[tokio::test]
async fn a_stop_sent_to_one_instance_stops_the_turn_running_on_the_other() {
    let Some(pair) = pair(json!([slow_reply()]), json!([]), &[]).await else { return };
    let history = pair.new_history(&pair.a).await;
    let mut running = pair.prompt(&pair.a, json!({"prompt": "Talk", "historyId": history})).await;
    read_until(&mut running, |event| event["delta"].is_string()).await;
    let stopped_at = Instant::now();
    assert_eq!(pair.stop(&pair.b, &history).await, "true", "B found the turn on A");
    read_until(&mut running, |event| event["done"] == true).await;
    let took = stopped_at.elapsed();
    assert!(took < Duration::from_secs(3), "the reply would have run 10 s more; it stopped after {took:?}");
    let rows = pair.history(&pair.b, &history).await["prompts"].clone();
    let said = rows.as_array().unwrap().iter().find(|row| row["type"] == "assistant").expect("what it said is kept");
    assert!(said["text"].as_str().unwrap().starts_with("word"), "{said}");
}

#[tokio::test]
async fn a_file_uploaded_through_one_instance_answers_an_ask_through_the_other() {
    let files_call =
        json!({"id": "call_1", "name": "ask_files", "input": {"prompt": "Upload the notes.", "accept": ["text"]}});
    let Some(pair) = pair(json!([{"toolCalls": [files_call]}]), json!([{"text": "Read them."}]), &[]).await else {
        return;
    };
    let asked = pair.turn(&pair.a, json!({"prompt": "notes"})).await;
    let boundary = "palaver-test-boundary";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nMeet at noon.\r\n--{boundary}--\r\n"
    );
    let uploaded = pair
        .request(&pair.a, reqwest::Method::POST, "/files/upload")
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.status(), StatusCode::CREATED);
    let upload: Value = uploaded.json().await.unwrap();
    let files = json!([{"fileId": upload["id"], "filename": "notes.txt", "mimeType": "text/plain", "size": 13}]);
    let turn = pair.turn(&pair.b, answer(&asked, json!({"action": "accept", "content": {"files": files}}))).await;
    assert_eq!(turn[0]["askResolved"]["action"], "accept", "{turn:?}");
    let told = pair.model_requests("b")[0].to_string();
    assert!(told.contains("Meet at noon."), "B read the bytes A stored: {told}");
}

#[tokio::test]
async fn an_instance_killed_mid_turn_leaves_the_conversation_usable_on_the_other() {
    let settings = [("PALAVER_TURN_LEASE_SECONDS", "2".to_owned()), ("PALAVER_MAX_TURNS_PER_USER", "1".to_owned())];
    let Some(mut pair) = pair(json!([slow_reply()]), json!([{"text": "B is here."}]), &settings).await else {
        return;
    };
    let history = pair.new_history(&pair.a).await;
    let mut running = pair.prompt(&pair.a, json!({"prompt": "Talk", "historyId": history})).await;
    read_until(&mut running, |event| event["delta"].is_string()).await;
    let stream = format!("/gpt/histories/{history}/stream");
    let mut attached = pair.request(&pair.b, reqwest::Method::GET, &stream).send().await.unwrap();
    read_until(&mut attached, |event| event["delta"].is_string()).await;
    pair.a.child.kill().unwrap(); // SIGKILL: no grace, nothing saved, no lease given back.
    pair.a.child.wait().unwrap();

    assert_eq!(pair.history(&pair.b, &history).await["id"], history.as_str(), "B serves the conversation");
    let next = json!({"prompt": "Still there?", "historyId": history});
    let first = pair.prompt(&pair.b, next.clone()).await;
    assert_eq!(first.status(), StatusCode::TOO_MANY_REQUESTS, "A's turn still counts while its lease lasts");
    let seen = read_until(&mut attached, |event| event["error"].is_string()).await;
    assert!(seen.last().unwrap()["error"].as_str().unwrap().contains("cut off"), "{seen:?}");
    assert!(attached.chunk().await.unwrap().is_none(), "the client attached through B is let go");
    let started = Instant::now();
    let reply = loop {
        let reply = pair.prompt(&pair.b, next.clone()).await;
        if reply.status() == StatusCode::OK {
            break reply;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "A's turn was never forgotten");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let text: String = events(&reply.text().await.unwrap()).iter().filter_map(|event| event["text"].as_str()).collect();
    assert_eq!(text, "B is here.");
    assert_eq!(pair.stop(&pair.b, &history).await, "false", "nothing is left running");
}

#[tokio::test]
async fn a_reply_streaming_on_one_instance_is_reattached_through_the_other() {
    let reply = json!({"parts": vec!["part "; 12], "chunkDelayMs": 150});
    let Some(pair) = pair(json!([reply]), json!([]), &[]).await else { return };
    let history = pair.new_history(&pair.a).await;
    let mut running = pair.prompt(&pair.a, json!({"prompt": "Talk", "historyId": history})).await;
    read_until(&mut running, |event| event["delta"].is_string()).await;

    let mut attached =
        pair.request(&pair.b, reqwest::Method::GET, &format!("/gpt/histories/{history}/stream")).send().await.unwrap();
    assert_eq!(attached.status(), StatusCode::OK, "B finds the turn running on A");
    let seen = read_until(&mut attached, |event| event["done"] == true).await;
    assert_eq!(seen[0]["attached"]["prompt"], "Talk");
    let text: String = seen.iter().filter_map(|event| event["text"].as_str()).collect();
    assert_eq!(text, "part ".repeat(12), "the whole reply, from its start");
    assert_eq!(seen.last().unwrap()["historyId"], history.as_str());
    let _ = running.text().await;

    let after = pair.request(&pair.b, reqwest::Method::GET, &format!("/gpt/histories/{history}/stream")).send().await;
    assert_eq!(after.unwrap().status(), StatusCode::NO_CONTENT, "nothing runs any more");
}

#[tokio::test]
async fn a_client_that_comes_back_through_the_other_instance_gets_only_what_it_missed() {
    let reply = json!({"parts": vec!["part "; 16], "chunkDelayMs": 150});
    let Some(pair) = pair(json!([reply]), json!([]), &[]).await else { return };
    let history = pair.new_history(&pair.a).await;
    let mut running = pair.prompt(&pair.a, json!({"prompt": "Talk", "historyId": history})).await;
    // The client reads part of the reply through A, with the events' ids.
    let mut raw = String::new();
    while raw.matches("\"delta\"").count() < 3 {
        let chunk = tokio::time::timeout(Duration::from_secs(10), running.chunk()).await.unwrap().unwrap().unwrap();
        raw.push_str(&String::from_utf8_lossy(&chunk));
    }
    let seen_text: String = events(&raw).iter().filter_map(|event| event["delta"].as_str()).collect();
    let last_id = raw.lines().filter_map(|line| line.strip_prefix("id: ")).next_back().expect("ids").to_owned();
    drop(running);

    let mut back = pair
        .request(&pair.b, reqwest::Method::GET, &format!("/gpt/histories/{history}/stream"))
        .header("last-event-id", &last_id)
        .send()
        .await
        .unwrap();
    assert_eq!(back.status(), StatusCode::OK);
    let rest = read_until(&mut back, |event| event["done"] == true).await;
    let rest_text: String = rest.iter().filter_map(|event| event["delta"].as_str()).collect();
    assert_eq!(format!("{seen_text}{rest_text}"), "part ".repeat(16), "nothing twice, nothing lost");
}

/// The `(id, data)` of each whole event in an event stream's text.
fn events_with_ids(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let field = |name: &str| block.lines().find_map(|line| line.strip_prefix(name));
            Some((field("id: ")?.to_owned(), serde_json::from_str(field("data: ")?).ok()?))
        })
        .collect()
}

#[tokio::test]
async fn a_client_that_comes_back_to_the_other_instance_gets_what_it_missed_by_its_opaque_id() {
    let Some(pair) = pair(json!([]), json!([]), &[]).await else { return };
    let mut tab = pair.request(&pair.a, reqwest::Method::GET, "/gpt/events").send().await.unwrap();
    let first = pair.new_history(&pair.a).await;
    let mut text = String::new();
    let seen = loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), tab.chunk()).await.expect("in time").unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk.expect("the stream goes on")));
        if let Some((id, _)) =
            events_with_ids(&text).into_iter().find(|(_, data)| data["historyChanged"]["historyId"] == first.as_str())
        {
            break id;
        }
    };
    assert!(seen.parse::<i64>().is_err(), "an opaque id, not a count of everyone's events: {seen}");
    drop(tab);
    // While the tab is away, B makes another conversation; the tab comes back through B.
    let second = pair.new_history(&pair.b).await;
    let mut back =
        pair.request(&pair.b, reqwest::Method::GET, "/gpt/events").header("last-event-id", &seen).send().await.unwrap();
    let missed = read_until(&mut back, |event| event["historyChanged"]["historyId"] == second.as_str()).await;
    assert!(missed.iter().all(|event| event.get("resync").is_none()), "{missed:?}");
    assert!(missed.iter().all(|event| event["historyChanged"]["historyId"] != first.as_str()), "only what it missed");
}

#[tokio::test]
async fn a_webhook_made_through_one_instance_is_seen_by_the_others_next_turns() {
    let replies: Vec<Value> = (0..12).map(|n| json!({"text": format!("Reply {n}.")})).collect();
    let Some(pair) = pair(json!([]), json!(replies), &[]).await else { return };
    // B looks at ada's webhooks (she has none) with her turn's end, and keeps what it saw.
    let history = history_id(&pair.turn(&pair.b, json!({"prompt": "Before"})).await);
    let created = pair
        .request(&pair.a, reqwest::Method::POST, "/webhooks")
        .json(&json!({"url": "http://127.0.0.1:9/hook", "events": ["turn.done"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::CREATED);
    let webhook = created.json::<Value>().await.unwrap()["webhook"]["id"].as_str().unwrap().to_owned();
    let deliveries = || async {
        let path = format!("/webhooks/{webhook}/deliveries");
        let listed = pair.request(&pair.a, reqwest::Method::GET, &path).send().await.unwrap();
        listed.json::<Value>().await.unwrap()["deliveries"].as_array().unwrap().len()
    };
    // A tells B through the database's signal; until it arrives B may still go by what it kept.
    // Turns on B follow until one is queued for the new webhook (each waits up to 2 s for it).
    for turn in 0..10 {
        pair.turn(&pair.b, json!({"historyId": history, "prompt": format!("After {turn}")})).await;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(2) {
            if deliveries().await > 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    panic!("ten turns on B after the webhook was made through A, and none was queued for it");
}

#[tokio::test]
async fn instructions_saved_through_one_instance_reach_the_others_next_turns() {
    let replies: Vec<Value> = (0..12).map(|n| json!({"text": format!("Reply {n}.")})).collect();
    let Some(pair) = pair(json!([]), json!(replies), &[]).await else { return };
    // B reads ada's preferences (the defaults) for her first turn, and keeps them.
    let history = history_id(&pair.turn(&pair.b, json!({"prompt": "Before"})).await);
    let saved = pair
        .request(&pair.a, reqwest::Method::POST, "/api/save_preferences")
        .header("content-type", "application/x-www-form-urlencoded")
        .body("instructions=Answer+like+a+pirate.&default_model=")
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), StatusCode::OK);
    // A tells B through the database's signal; until it arrives B may still go by what it kept.
    for turn in 0..10 {
        pair.turn(&pair.b, json!({"historyId": history, "prompt": format!("After {turn}")})).await;
        let told = pair.model_requests("b").last().map(Value::to_string).unwrap_or_default();
        if told.contains("Answer like a pirate.") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("ten turns on B after the instructions were saved through A, and none sent them to the model");
}
