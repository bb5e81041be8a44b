//! Requests racing against a real process: twelve answers to one ask, twelve prompts into one
//! conversation, an answer and a prompt at once, two tabs sending in one conversation and a
//! Stop that names one of them. Each race ends with every request answered, nothing stored
//! twice, nothing lost, and each turn's rows stored in the order the turns began.

use futures::future::join_all;
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;

/// The text a streamed reply said, from its `data:` lines.
fn said(reply: &str) -> String {
    reply
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter_map(|event| event["text"].as_str().map(str::to_string))
        .collect()
}

fn status(reply: &str) -> u16 {
    reply.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0)
}

#[tokio::test]
async fn twelve_answers_racing_give_one_turn_and_eleven_conflicts() {
    let script = json!({"responses": [crate::process::choice_ask(), {"text": "Taken."}]});
    let server = crate::process::start(&script, &[]).await;
    let cookie = server.log_in().await;
    let (history_id, tool_call_id) = server.paused(&cookie).await;
    let answers = (0..12).map(|n| {
        let body = crate::process::answer(&history_id, &tool_call_id, if n % 2 == 0 { "a" } else { "b" }).to_string();
        let (server, cookie) = (&server, &cookie);
        async move { server.send("POST", "/gpt/prompt", cookie, "application/json", body.as_bytes()).await }
    });
    let replies = join_all(answers).await;
    let codes: Vec<u16> = replies.iter().map(|reply| status(reply)).collect();
    assert_eq!(codes.iter().filter(|code| **code == 200).count(), 1, "{codes:?}");
    assert_eq!(codes.iter().filter(|code| **code == 409).count(), 11, "{codes:?}");
    let taken = replies.iter().find(|reply| status(reply) == 200).unwrap();
    assert!(said(taken) == "Taken." && taken.contains("\"done\":true"), "{taken}");
    let rows = server.stored_rows().await;
    let answers = rows.iter().filter(|row| row.to_string().contains("\"selected\":[")).count();
    assert_eq!(answers, 1, "one answer stored: {rows:?}");
}

#[tokio::test]
async fn twelve_prompts_racing_into_one_conversation_are_each_answered_and_stored_once() {
    let responses: Vec<Value> = (1..=13).map(|n| json!({"text": format!("Reply {n}.")})).collect();
    let server =
        crate::process::start(&json!({"responses": responses}), &[("PALAVER_MAX_TURNS_PER_USER", "16".into())]).await;
    let cookie = server.log_in().await;
    let (_, events) = server.turn_until(&cookie, &json!({"prompt": "Hello"}), crate::process::is_done).await;
    let history_id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let prompts = (1..=12).map(|n| {
        let body = json!({"historyId": history_id, "prompt": format!("Message {n}")}).to_string();
        let (server, cookie) = (&server, &cookie);
        async move { server.send("POST", "/gpt/prompt", cookie, "application/json", body.as_bytes()).await }
    });
    let replies = join_all(prompts).await;
    for reply in &replies {
        assert!(reply.starts_with("HTTP/1.1 200") && reply.contains("\"done\":true"), "{reply}");
    }
    let rows = server.stored_rows().await;
    for n in 1..=12 {
        let message = format!("Message {n}");
        assert_eq!(rows.iter().filter(|row| row["text"] == message.as_str()).count(), 1, "{message} once: {rows:?}");
    }
    let replies = rows.iter().filter(|row| row["type"] == "assistant").count();
    assert_eq!(replies, 13, "every reply stored: {rows:?}");
    // One after another: each message is followed by its own reply.
    for pair in rows.chunks(2) {
        assert_eq!((&pair[0]["type"], &pair[1]["type"]), (&json!("user"), &json!("assistant")), "{rows:?}");
    }
}

#[tokio::test]
async fn an_answer_and_a_prompt_racing_resolve_the_ask_once() {
    for _ in 0..3 {
        let script = json!({"responses": [crate::process::choice_ask(), {"parts": ["One", "."], "chunkDelayMs": 300}, {"text": "Two."}]});
        let server = crate::process::start(&script, &[]).await;
        let cookie = server.log_in().await;
        let (history_id, tool_call_id) = server.paused(&cookie).await;
        let answer = crate::process::answer(&history_id, &tool_call_id, "a").to_string();
        let prompt = json!({"historyId": history_id, "prompt": "Something else"}).to_string();
        let (answered, prompted) = tokio::join!(
            server.send("POST", "/gpt/prompt", &cookie, "application/json", answer.as_bytes()),
            server.send("POST", "/gpt/prompt", &cookie, "application/json", prompt.as_bytes()),
        );
        assert!(prompted.starts_with("HTTP/1.1 200") && prompted.contains("\"done\":true"), "{prompted}");
        let rows = server.stored_rows().await;
        let answers = rows.iter().filter(|row| row.to_string().contains("\"selected\":[\"a\"]")).count();
        let cancels = rows.iter().filter(|row| row.to_string().contains("\"action\":\"cancel\"")).count();
        match status(&answered) {
            // The answer came first: it is stored, the prompt found no ask to cancel, and waited
            // for the answer's reply, which is stored before it.
            200 => {
                assert_eq!((answers, cancels), (1, 0), "{rows:?}");
                let at = |text: &str| rows.iter().position(|row| row["text"] == text);
                assert!(at("One.") < at("Something else") && at("Something else") < at("Two."), "{rows:?}");
            }
            // The prompt came first and cancelled the ask: the answer is too late.
            409 => assert_eq!((answers, cancels), (0, 1), "{rows:?}"),
            other => panic!("the answer got {other}: {answered}"),
        }
        assert_eq!(rows.iter().filter(|row| row["text"] == "Something else").count(), 1, "{rows:?}");
    }
}

/// Reads a turn's response head: its stream id (the `palaver-stream-id` header).
async fn stream_id(stream: &mut tokio::io::BufReader<tokio::net::TcpStream>) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(stream.read_line(&mut line).await.unwrap() > 0, "the response ended in its head");
        assert!(line != "\r\n", "no stream id in the head");
        if let Some(id) = line.trim_end().strip_prefix("palaver-stream-id: ") {
            return id.to_string();
        }
    }
}

/// The second tab's turn waits for the first (turns of a conversation run one after another),
/// and Stop still names either.
#[tokio::test]
async fn with_two_tabs_sending_in_one_conversation_stop_ends_the_turn_it_names() {
    let parts: Vec<String> = (1..=20).map(|n| format!("Part {n}. ")).collect();
    let slow = json!({"parts": parts, "chunkDelayMs": 100});
    let server = crate::process::start(&json!({"responses": [{"text": "Hi."}, slow, slow]}), &[]).await;
    let cookie = server.log_in().await;
    let (_, events) = server.turn_until(&cookie, &json!({"prompt": "Hello"}), crate::process::is_done).await;
    let history_id = events.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let body = json!({"historyId": history_id, "prompt": "Talk"});
    let mut first = tokio::io::BufReader::new(server.request("POST", "/gpt/prompt", &cookie, &body).await);
    let first_id = stream_id(&mut first).await;
    let mut second = tokio::io::BufReader::new(server.request("POST", "/gpt/prompt", &cookie, &body).await);
    let second_id = stream_id(&mut second).await;
    assert_ne!(first_id, second_id);
    let form = format!("id={history_id}&stream={first_id}");
    let stopped =
        server.send("POST", "/api/stop_turn", &cookie, "application/x-www-form-urlencoded", form.as_bytes()).await;
    let body = stopped.split("\r\n\r\n").nth(1).unwrap_or_default();
    assert!(stopped.starts_with("HTTP/1.1 200") && body.contains("true"), "{stopped}");
    let first_events = crate::process::read_events(&mut first, crate::process::is_done).await;
    let second_events = crate::process::read_events(&mut second, crate::process::is_done).await;
    let text_of = |events: &[Value]| events.iter().filter_map(|event| event["text"].as_str()).collect::<String>();
    assert!(!text_of(&first_events).contains("Part 20."), "the named turn stopped: {first_events:?}");
    assert!(text_of(&second_events).contains("Part 20."), "the other went on to its end: {second_events:?}");
    // Stored in the order they began: the stopped turn's rows (its message, and what it said
    // if it said anything), then the second's message and its whole reply.
    let rows = server.stored_rows().await;
    let [.., second_message, second_reply] = rows.as_slice() else { panic!("{rows:?}") };
    assert_eq!((&second_message["type"], &second_message["text"]), (&json!("user"), &json!("Talk")), "{rows:?}");
    assert!(second_reply["text"].as_str().unwrap().contains("Part 20."), "{rows:?}");
    assert_eq!(rows.iter().filter(|row| row["text"] == "Talk").count(), 2, "{rows:?}");
}
