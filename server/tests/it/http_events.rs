//! Live events over HTTP (`GET /gpt/events`): what a user's other tabs and devices hear of
//! their asks, turns and conversations, in order, with ids; what a client that comes back
//! missed; a resync when that is gone; and never another user's events.

use std::time::Duration;

use crate::common::{TestApp, event_names, sse_events, streamed_text};
use axum::http::StatusCode;
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

fn choice(id: &str) -> serde_json::Value {
    json!({"toolCalls": [{"id": id, "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one",
        "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]})
}

#[tokio::test]
async fn a_users_tabs_hear_of_their_asks_and_turns_in_order_and_no_one_else_does() {
    let script = json!({"responses": [choice("call_plan"), {"text": "Team it is."}]}).to_string();
    let app = TestApp::with_mock(&script).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    let mut ada_tab = app.open_stream(&ada, "/gpt/events", None).await;
    let mut bob_tab = app.open_stream(&bob, "/gpt/events", None).await;

    let turn = app.prompt(&ada, json!({"prompt": "Set up billing"})).await;
    let history = turn.last().unwrap()["historyId"].as_str().unwrap().to_string();
    let ask_id = crate::common::asked(&turn);
    let asked = ada_tab.take(4).await;
    assert_eq!(event_names(&asked), ["historyChanged", "turnStarted", "askCreated", "turnDone"]);
    assert_eq!(asked[0].data["historyChanged"], json!({"historyId": history, "change": "created"}));
    assert_eq!(asked[2].data["askCreated"]["toolCallId"], ask_id.as_str());
    assert_eq!(asked[2].data["askCreated"]["kind"], "choice");
    assert!(asked[2].data["askCreated"]["expiresAt"].is_string());
    assert_eq!(asked[3].data["turnDone"], json!({"historyId": history, "pendingAsk": ask_id}));

    let answer = json!({"historyId": history, "askResponse": {"toolCallId": ask_id, "action": "accept", "content": {"selected": ["team"]}}});
    app.prompt(&ada, answer).await;
    let answered = ada_tab.take(4).await;
    // The first reply names the conversation (a turn that only asked names nothing).
    assert_eq!(event_names(&answered), ["askResolved", "turnStarted", "historyChanged", "turnDone"]);
    assert_eq!(answered[2].data["historyChanged"]["title"], "Set up billing");
    assert_eq!(
        answered[0].data["askResolved"],
        json!({"historyId": history, "toolCallId": ask_id, "ending": "answered", "action": "accept"})
    );
    let ids: Vec<String> = asked.iter().chain(&answered).map(|event| event.id.clone().expect("an id")).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(unique.len(), 8, "every event has its own id: {ids:?}");
    assert_eq!(bob_tab.next(Duration::from_millis(300)).await, None, "bob hears nothing of ada's");

    // A tab that saw the third event comes back: it gets the rest, same ids, in order.
    let mut back = app.open_stream(&ada, "/gpt/events", Some(&ids[2])).await;
    let missed = back.take(5).await;
    assert_eq!(missed.iter().map(|event| event.id.clone().unwrap()).collect::<Vec<_>>(), ids[3..]);
    assert_eq!(back.next(Duration::from_millis(200)).await, None);

    // An id the server cannot place (another run's, or beyond the buffer): resync.
    let mut lost = app.open_stream(&ada, "/gpt/events", Some("elsewhere.7")).await;
    assert_eq!(lost.take(1).await[0].data, json!({"resync": {}}));

    let (_, renamed) =
        app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(json!({"title": "Billing"}))).await;
    assert_eq!(renamed["data"]["title"], "Billing");
    let heard = ada_tab.take(1).await;
    assert_eq!(heard[0].data["historyChanged"], json!({"historyId": history, "change": "renamed", "title": "Billing"}));
    assert_eq!(back.take(1).await[0], heard[0], "every open tab hears it");
    assert!(app.call(None, "GET", "/gpt/events", None).await.status.is_client_error(), "signed-in users only");
}

#[tokio::test]
async fn an_expiry_is_heard_as_an_ask_that_ended() {
    let script = json!({"responses": [choice("call_plan")]}).to_string();
    let app = TestApp::with_ask_ttl(&script, Duration::from_secs(1)).await;
    let ada = app.user("ada", Role::User).await;
    let mut tab = app.open_stream(&ada, "/gpt/events", None).await;
    app.prompt(&ada, json!({"prompt": "Set up billing"})).await;
    tab.take(4).await;
    let sweeper = app.state.turns.spawn_sweeper();
    let ended = tab.next(Duration::from_secs(4)).await.expect("the expiry is heard");
    sweeper.abort();
    assert_eq!(ended.data["askResolved"]["ending"], "expired");
    assert_eq!(ended.data["askResolved"]["reason"], "expired");
}

#[tokio::test]
async fn a_reply_whose_connection_dropped_is_attached_to_again_with_nothing_lost_or_twice() {
    let story = json!({"parts": ["Once", " upon", " a", " time", " there", " was"], "chunkDelayMs": 150});
    let app = TestApp::with_mock(&json!({"responses": [story]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    let stream = format!("/gpt/histories/{history}/stream");
    assert_eq!(app.call(Some(&ada), "GET", &stream, None).await.status, axum::http::StatusCode::NO_CONTENT);

    let mut first = app.open_post_stream(&ada, "/gpt/prompt", json!({"historyId": history, "prompt": "Tell me"})).await;
    let seen = first.take(2).await;
    drop(first);
    let last = seen[1].id.clone().expect("events have ids");
    let (turn, n) = last.rsplit_once('.').unwrap();
    assert_eq!(n, "1", "ids count the stream's events: {last}");
    assert_eq!(seen[0].id.as_deref(), Some(format!("{turn}.0").as_str()));

    // One client comes back after the second event; another tab attaches from the start.
    let mut back = app.open_stream(&ada, &stream, Some(&last)).await;
    let mut other = app.open_stream(&ada, &stream, None).await;
    let rest = back.until_done().await;
    let whole = other.until_done().await;
    assert_eq!(rest[0].data, json!({"attached": {"prompt": "Tell me"}}));
    assert_eq!(rest[1].id.as_deref(), Some(format!("{turn}.2").as_str()), "it goes on after the last one seen");
    let text = |events: &[crate::common::StreamEvent]| -> String {
        events.iter().filter_map(|event| event.data["text"].as_str()).collect()
    };
    assert_eq!(text(&seen) + &text(&rest), "Once upon a time there was", "nothing lost, nothing twice");
    assert_eq!(text(&whole), "Once upon a time there was");
    let ids: Vec<String> = whole.iter().skip(1).map(|event| event.id.clone().unwrap()).collect();
    assert_eq!(ids.first().map(String::as_str), Some(format!("{turn}.0").as_str()));
    assert_eq!(ids.len(), seen.len() + rest.len() - 1, "the same events, the same ids");

    // It has ended: nothing to attach to, and the whole reply was saved.
    assert_eq!(app.call(Some(&ada), "GET", &stream, None).await.status, axum::http::StatusCode::NO_CONTENT);
    let (_, view) = app.json(&ada, "GET", &format!("/gpt/histories/{history}"), None).await;
    assert_eq!(view["data"]["prompts"][1]["text"], "Once upon a time there was");
}

#[tokio::test]
async fn an_events_id_is_opaque_so_it_tells_nothing_of_other_users_and_still_resumes() {
    let script = json!({"responses": [{"text": "One."}, {"text": "Two."}, {"text": "Three."}]}).to_string();
    let app = TestApp::with_mock(&script).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    let mut ada_tab = app.open_stream(&ada, "/gpt/events", None).await;
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let history = created["data"]["id"].as_str().unwrap().to_string();
    let before = ada_tab.take(1).await[0].id.clone().expect("an id");
    // Bob is busy: a sequence shared by everyone would jump over each of his events.
    for prompt in ["a", "b"] {
        app.prompt(&bob, json!({"prompt": prompt})).await;
    }
    app.json(&ada, "PATCH", &format!("/gpt/histories/{history}"), Some(json!({"title": "Mine"}))).await;
    let after = ada_tab.take(1).await[0].id.clone().expect("an id");
    for id in [&before, &after] {
        assert!(id.parse::<i64>().is_err() && !id.contains('.'), "not a count of anyone's events: {id}");
    }
    let mut back = app.open_stream(&ada, "/gpt/events", Some(&before)).await;
    let missed = back.take(1).await;
    assert_eq!(
        (missed[0].id.as_deref(), &missed[0].data["historyChanged"]["title"]),
        (Some(after.as_str()), &json!("Mine"))
    );
    assert_eq!(back.next(Duration::from_millis(200)).await, None, "and nothing of bob's");
}

/// A turn as the reference's own route tests read it (its `chatHarness.ts` `parseSse`): blocks
/// split at blank lines, kept only when the block starts `data: `, the rest of it one JSON value.
/// A block that opens with `id:` is skipped whole.
fn data_only_events(body: &str) -> Vec<Value> {
    body.split("\n\n")
        .filter_map(|block| block.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).expect("a data block is one JSON value"))
        .collect()
}

#[tokio::test]
async fn a_client_that_keeps_only_data_blocks_sees_every_event_and_ids_come_only_when_asked_for() {
    let app =
        TestApp::with_mock(&json!({"responses": [{"text": "Hello there."}, {"text": "Again."}]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let bearer = format!("Bearer {}", ada.token);

    // By default the stream is the reference's: data blocks only, and every event is seen.
    let plain =
        app.send("POST", "/gpt/prompt", &[("authorization", bearer.as_str())], Some(json!({"prompt": "Hi"}))).await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.text);
    let events = data_only_events(&plain.text);
    assert_eq!(events, sse_events(&plain.text), "none dropped: {}", plain.text);
    assert_eq!(streamed_text(&events), "Hello there.");
    assert_eq!(events.last().map(|done| done["done"].clone()), Some(json!(true)), "{}", plain.text);
    assert!(!plain.text.lines().any(|line| line.starts_with("id:")), "no ids unasked: {}", plain.text);

    // Palaver's browser client asks for them: each block names `<stream>.<n>` first.
    let headers = [("authorization", bearer.as_str()), (palaver_wire::body::EVENT_IDS_HEADER, "1")];
    let asked = app.send("POST", "/gpt/prompt", &headers, Some(json!({"prompt": "Again"}))).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    let stream = asked.headers[palaver_wire::body::STREAM_ID_HEADER].to_str().unwrap().to_string();
    let blocks: Vec<&str> = asked.text.split("\n\n").filter(|block| block.contains("data: ")).collect();
    assert!(!blocks.is_empty(), "{}", asked.text);
    for (n, block) in blocks.iter().enumerate() {
        assert!(block.starts_with(&format!("id: {stream}.{n}\ndata: ")), "{block}");
    }
    assert_eq!(streamed_text(&sse_events(&asked.text)), "Again.");
    assert!(data_only_events(&asked.text).is_empty(), "why the ids are asked for: a naive reader sees none");
}
