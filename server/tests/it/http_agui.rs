//! The AG-UI face over HTTP (`POST /agui`): runs in AG-UI events, checked in order by the AG-UI
//! verifier; asks as interrupts; resumes answered once, replays changing nothing, a race with
//! the chat won once; threads their owners'; a lost stream attached to again.

use std::time::Duration;

use ag_ui::event::Event;
use ag_ui::server::EventVerifier;
use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::{StreamEvent, TestApp, TestUser};
use palaver_wire::accounts::Role;

const CHOICE: &str = r#"{"responses": [
    {"text": "Let me ask.", "toolCalls": [{"id": "call_when", "name": "ask_choice", "input": {
        "prompt": "Which time works?", "select": "one",
        "options": [{"id": "early", "label": "18:00"}, {"id": "late", "label": "19:00"}]}}]},
    {"text": "Booked for 19:00."},
    {"text": "Anything else?"}
]}"#;

/// A run's events (`id`, JSON), from a finished SSE body.
fn run_events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let field = |name: &str| block.lines().find_map(|line| line.strip_prefix(name).map(str::to_string));
            Some((field("id: ")?, serde_json::from_str(&field("data: ")?).expect("data is JSON")))
        })
        .collect()
}

/// Checks a run's events in order as AG-UI's verifier does; `resumed`: the call a resume
/// answers, started in the run before (the verifier knows one run's calls only).
fn verified(events: &[(String, Value)], resumed: Option<&str>) {
    let mut verifier = EventVerifier::new();
    for (n, (_, event)) in events.iter().enumerate() {
        let event: Event = serde_json::from_value(event.clone()).unwrap_or_else(|err| panic!("{err}: {event}"));
        verifier.observe(&event).unwrap_or_else(|err| panic!("event {n}: {err}"));
        if let (0, Some(id)) = (n, resumed) {
            verifier.observe(&Event::tool_call_start(id, "ask_choice")).unwrap();
            verifier.observe(&Event::tool_call_end(id)).unwrap();
        }
    }
}

fn types(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(_, event)| event["type"].as_str().unwrap()).collect()
}

fn finished(events: &[(String, Value)]) -> &Value {
    let (_, last) = events.last().expect("events");
    assert_eq!(last["type"], "RUN_FINISHED", "{events:?}");
    last
}

fn input(thread: &str, run: &str, messages: Value, resume: Option<Value>) -> Value {
    let mut input = json!({"threadId": thread, "runId": run, "messages": messages, "tools": [], "context": [],
        "state": {"mine": 1}, "forwardedProps": {}});
    if let Some(resume) = resume {
        input["resume"] = resume;
    }
    input
}

async fn run(app: &TestApp, user: &TestUser, input: Value) -> Vec<(String, Value)> {
    let reply = app.call(Some(user), "POST", "/agui", Some(input)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(reply.headers["content-type"], "text/event-stream");
    run_events(&reply.text)
}

fn hello() -> Value {
    json!([{"id": "u1", "role": "user", "content": "Book a table"}])
}

fn model_calls(app: &TestApp) -> usize {
    app.mock_log().len()
}

#[tokio::test]
async fn an_ask_ends_the_run_as_an_interrupt_and_its_resume_goes_on_once() {
    let app = TestApp::with_mock(CHOICE).await;
    let ada = app.user("ada", Role::User).await;

    let first = run(&app, &ada, input("t-1", "r1", hello(), None)).await;
    verified(&first, None);
    assert!(first.iter().enumerate().all(|(n, (id, _))| *id == format!("r1.{n}")), "{first:?}");
    assert_eq!(
        types(&first),
        [
            "RUN_STARTED",
            "STEP_STARTED",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "STEP_FINISHED",
            "STATE_SNAPSHOT",
            "MESSAGES_SNAPSHOT",
            "RUN_FINISHED"
        ]
    );
    // The step's text before its call was taken back: it is never sent.
    assert!(!serde_json::to_string(&first).unwrap().contains("Let me ask."));
    let interrupt = &finished(&first)["outcome"]["interrupts"][0];
    let id = interrupt["id"].as_str().unwrap().to_string();
    assert_eq!(finished(&first)["outcome"]["type"], "interrupt");
    assert_eq!(interrupt["toolCallId"], id.as_str());
    assert_eq!(first[2].1["toolCallId"], id.as_str(), "the interrupt names the call the run streamed");
    assert_eq!(interrupt["reason"], "input_required");
    assert_eq!(interrupt["message"], "Which time works?");
    assert_eq!(interrupt["metadata"]["palaver"]["kind"], "choice");
    assert!(interrupt["expiresAt"].is_string(), "{interrupt}");
    // The schema takes the answer the resume sends, and not one with an id the ask lacks.
    let schema = jsonschema::validator_for(&interrupt["responseSchema"]).expect("a JSON Schema");
    assert_eq!(interrupt["responseSchema"]["type"], "object", "{interrupt}");
    assert!(schema.is_valid(&json!({"action": "accept", "content": {"selected": ["late"]}})));
    assert!(!schema.is_valid(&json!({"action": "accept", "content": {"selected": ["midnight"]}})));
    let state = &first[6].1["snapshot"];
    assert_eq!((state["mine"].clone(), state["palaver"]["openInterrupt"].clone()), (json!(1), json!(id)));
    let snapshot = &first[7].1["messages"];
    assert_eq!(snapshot[0]["content"], "Book a table");
    let history = state["palaver"]["historyId"].as_str().unwrap();
    assert_eq!(snapshot[0]["id"], format!("{history}-0"));

    // The client sends its own message again under its own id (it did not apply the
    // snapshot): it is not taken in twice.
    let resume = json!([{"interruptId": id, "status": "resolved",
        "payload": {"action": "accept", "content": {"selected": ["late"]}}}]);
    let second = run(&app, &ada, input("t-1", "r2", hello(), Some(resume.clone()))).await;
    verified(&second, Some(&id));
    assert_eq!(types(&second)[..2], ["RUN_STARTED", "TOOL_CALL_RESULT"]);
    assert_eq!(second[1].1["toolCallId"], id.as_str());
    let result: Value = serde_json::from_str(second[1].1["content"].as_str().unwrap()).unwrap();
    assert_eq!(result["content"]["selected"], json!(["late"]));
    assert!(second.iter().any(|(_, event)| event["delta"] == "Booked for 19:00."), "{second:?}");
    assert_eq!(finished(&second)["outcome"]["type"], "success");
    assert_eq!(model_calls(&app), 2);

    // Replayed: nothing changes, and the run says so.
    let replay = run(&app, &ada, input("t-1", "r3", hello(), Some(resume))).await;
    verified(&replay, None);
    assert_eq!(types(&replay), ["RUN_STARTED", "STATE_SNAPSHOT", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]);
    assert_eq!(finished(&replay)["result"]["alreadyAnswered"], json!([id]));
    assert_eq!(finished(&replay)["outcome"]["type"], "success");
    assert_eq!(model_calls(&app), 2, "no turn ran");
    let messages = replay[2].1["messages"].as_array().unwrap();
    assert_eq!(messages.last().unwrap()["content"], "Booked for 19:00.");
    assert_eq!(messages.iter().filter(|message| message["role"] == "user").count(), 1);
}

#[tokio::test]
async fn bad_resumes_are_run_errors_and_leave_the_interrupt_open() {
    let app = TestApp::with_mock(CHOICE).await;
    let ada = app.user("ada", Role::User).await;
    let first = run(&app, &ada, input("t-2", "r1", hello(), None)).await;
    let id = finished(&first)["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_string();

    let wrong = json!([{"interruptId": id, "status": "resolved",
        "payload": {"action": "accept", "content": {"selected": ["midnight"]}}}]);
    let refused = run(&app, &ada, input("t-2", "r2", hello(), Some(wrong))).await;
    verified(&refused, None);
    assert_eq!(types(&refused), ["RUN_STARTED", "RUN_ERROR"]);
    assert_eq!(refused[1].1["code"], "invalid_answer");
    let errors = &refused[1].1["metadata"]["errors"];
    assert!(errors[0]["path"].as_str().unwrap().contains("selected"), "{errors}");
    assert!(!errors[0]["message"].as_str().unwrap().is_empty());

    let unknown = json!([{"interruptId": "call_never", "status": "cancelled"}]);
    let refused = run(&app, &ada, input("t-2", "r3", hello(), Some(unknown))).await;
    assert_eq!(
        (refused[1].1["type"].clone(), refused[1].1["code"].clone()),
        (json!("RUN_ERROR"), json!("unknown_interrupt"))
    );

    let mut messages = hello();
    messages.as_array_mut().unwrap().push(json!({"id": "u2", "role": "user", "content": "Never mind"}));
    let refused = run(&app, &ada, input("t-2", "r4", messages, None)).await;
    assert_eq!(refused[1].1["code"], "interrupt_pending", "{refused:?}");
    assert!(refused[1].1["message"].as_str().unwrap().contains(&id));

    // Nothing new: a sync, which shows the interrupt still open; no turn ran for any of these.
    let sync = run(&app, &ada, input("t-2", "r5", hello(), None)).await;
    assert_eq!(finished(&sync)["outcome"]["interrupts"][0]["id"], id.as_str());
    assert_eq!(model_calls(&app), 1);
}

#[tokio::test]
async fn an_approval_is_a_confirmation_and_cancelling_it_denies_the_call() {
    let script = json!({"responses": [
        {"toolCalls": [{"id": "call_clean", "name": "deleteCompletedTodos", "input": {}}]},
        {"text": "Left as it was."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    app.seed_completed_todo(&ada).await;
    let first =
        run(&app, &ada, input("t-3", "r1", json!([{"id": "u1", "role": "user", "content": "Clean up"}]), None)).await;
    verified(&first, None);
    let interrupt = &finished(&first)["outcome"]["interrupts"][0];
    assert_eq!(interrupt["reason"], "confirmation", "{first:?}");
    assert_eq!(interrupt["metadata"]["palaver"]["toolName"], "deleteCompletedTodos");
    let id = interrupt["id"].as_str().unwrap();
    // The interrupt is about the call the model made, streamed once under its own name.
    let calls: Vec<&Value> =
        first.iter().filter(|(_, event)| event["type"] == "TOOL_CALL_START").map(|(_, event)| event).collect();
    assert_eq!(calls.len(), 1, "{first:?}");
    assert_eq!(calls[0]["toolCallName"], "deleteCompletedTodos");
    assert_eq!(interrupt["toolCallId"], calls[0]["toolCallId"]);
    assert_ne!(interrupt["toolCallId"].as_str(), Some(id), "the approval is not a call of its own");

    let cancel = json!([{"interruptId": id, "status": "cancelled"}]);
    let second = run(&app, &ada, input("t-3", "r2", json!([]), Some(cancel))).await;
    verified(&second, interrupt["toolCallId"].as_str());
    let result = &second[1].1;
    assert_eq!(
        (result["type"].as_str(), result["toolCallId"].clone()),
        (Some("TOOL_CALL_RESULT"), interrupt["toolCallId"].clone())
    );
    assert!(result["content"].as_str().unwrap().contains("\"approved\":false"), "{result}");
    assert!(second.iter().any(|(_, event)| event["delta"] == "Left as it was."), "{second:?}");
    let snapshot = &second[second.len() - 2].1["messages"];
    let called: Vec<&Value> = snapshot
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|message| message["toolCalls"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(called.len(), 1, "{snapshot}");
    let left: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM todos WHERE owner_id = $1")
        .bind(&ada.id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(left.0, 1, "the call did not run");
}

#[tokio::test]
async fn an_interrupt_answered_in_the_chat_is_closed_here_and_a_race_is_won_once() {
    let app = TestApp::with_mock(CHOICE).await;
    let ada = app.user("ada", Role::User).await;
    let first = run(&app, &ada, input("t-4", "r1", hello(), None)).await;
    let id = finished(&first)["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_string();
    let history = first[6].1["snapshot"]["palaver"]["historyId"].as_str().unwrap().to_string();

    let resume = json!([{"interruptId": id, "status": "resolved",
        "payload": {"action": "accept", "content": {"selected": ["early"]}}}]);
    let chat = json!({"historyId": history, "askResponse": {"toolCallId": id, "action": "accept", "content": {"selected": ["late"]}}});
    let (agui, chat) = tokio::join!(
        app.call(Some(&ada), "POST", "/agui", Some(input("t-4", "r2", json!([]), Some(resume.clone())))),
        app.call(Some(&ada), "POST", "/gpt/prompt", Some(chat)),
    );
    let agui = run_events(&agui.text);
    let agui_won = agui.iter().any(|(_, event)| event["type"] == "TOOL_CALL_RESULT");
    let chat_won = chat.status == StatusCode::OK;
    assert!(agui_won != chat_won, "exactly one answer wins: agui {agui:?}, chat {} {}", chat.status, chat.text);
    if !agui_won {
        assert_eq!(finished(&agui)["result"]["alreadyAnswered"], json!([id]), "{agui:?}");
    }
    assert_eq!(model_calls(&app), 2, "the turn went on once");

    // A client that comes back later sees the interrupt closed.
    let back = run(&app, &ada, input("t-4", "r3", json!([]), Some(resume))).await;
    assert_eq!(finished(&back)["result"]["alreadyAnswered"], json!([id]));
    assert_eq!(finished(&back)["outcome"]["type"], "success");
}

#[tokio::test]
async fn threads_belong_to_their_owners_and_bad_input_is_refused_in_words() {
    let app = TestApp::with_mock(r#"{"responses": [{"text": "Hi."}, {"text": "Again."}, {"text": "Here."}]}"#).await;
    let ada = app.user("ada", Role::User).await;
    let bob = app.user("bob", Role::User).await;
    let adas =
        run(&app, &ada, input("t-5", "r1", json!([{"id": "u1", "role": "user", "content": "Hello"}]), None)).await;
    let adas_conversation = adas[adas.len() - 3].1["snapshot"]["palaver"]["historyId"].clone();

    // Each person names threads in a namespace of their own: bob's "t-5" is his, and new.
    let bobs = run(&app, &bob, input("t-5", "r2", json!([]), None)).await;
    assert_eq!(bobs[bobs.len() - 2].1["messages"], json!([]), "nothing of ada's: {bobs:?}");
    let bobs =
        run(&app, &bob, input("t-5", "r3", json!([{"id": "u1", "role": "user", "content": "Mine"}]), None)).await;
    let bobs_conversation = &bobs[bobs.len() - 3].1["snapshot"]["palaver"]["historyId"];
    assert_ne!(bobs_conversation, &adas_conversation);
    assert!(bobs.iter().any(|(_, event)| event["delta"] == "Again."), "{bobs:?}");

    // A conversation of one's own is a thread under its own id.
    let (_, created) = app.json(&ada, "POST", "/gpt/histories", Some(json!({}))).await;
    let own = created["data"]["id"].as_str().unwrap_or_else(|| panic!("{created}")).to_string();
    let events =
        run(&app, &ada, input(&own, "r3", json!([{"id": "u9", "role": "user", "content": "Here"}]), None)).await;
    assert_eq!(events[events.len() - 2].1["messages"][0]["id"], format!("{own}-0"));
    let others = app.call(Some(&bob), "POST", "/agui", Some(input(&own, "r4", json!([]), None))).await;
    assert_eq!(others.status, StatusCode::NOT_FOUND);

    let bad_id = app.call(Some(&ada), "POST", "/agui", Some(input("has spaces", "r5", json!([]), None))).await;
    assert_eq!(bad_id.status, StatusCode::BAD_REQUEST);
    assert!(bad_id.text.contains("threadId must be 1 to 200 characters"), "{}", bad_id.text);
    // A run id goes out in every event's id: a line break in it could not.
    let bad_run = app.call(Some(&ada), "POST", "/agui", Some(input("t-5", "r\nid", json!([]), None))).await;
    assert_eq!(bad_run.status, StatusCode::BAD_REQUEST);
    assert!(bad_run.text.contains("runId must be"), "{}", bad_run.text);
    let mut many = input("t-5", "r7", json!([]), None);
    many["resume"] =
        json!((0..65).map(|n| json!({"interruptId": format!("i{n}"), "status": "cancelled"})).collect::<Vec<_>>());
    let refused = app.call(Some(&ada), "POST", "/agui", Some(many)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text.contains("at most 64 interrupts"), "{}", refused.text);
    let not_input = app.call(Some(&ada), "POST", "/agui", Some(json!({"threadId": "t-5"}))).await;
    assert_eq!(not_input.status, StatusCode::BAD_REQUEST);
    assert!(not_input.text.contains("RunAgentInput"), "{}", not_input.text);
    let anonymous = app.call(None, "POST", "/agui", Some(input("t-5", "r6", json!([]), None))).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    let (status, capabilities) = app.json(&ada, "GET", "/agui/capabilities", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(capabilities["humanInTheLoop"]["interrupts"], true, "{capabilities}");
}

#[tokio::test]
async fn a_client_that_lost_its_stream_attaches_again_after_the_last_event_it_saw() {
    let app = TestApp::with_mock(r#"{"responses": [{"text": "Still thinking", "stall": true}]}"#).await;
    let ada = app.user("ada", Role::User).await;
    let mut stream = app
        .open_post_stream(
            &ada,
            "/agui",
            input("t-6", "r1", json!([{"id": "u1", "role": "user", "content": "Think"}]), None),
        )
        .await;
    let seen = stream.take(2).await;
    assert_eq!(
        seen.iter().map(|event| (event.id.clone().unwrap(), event.data["type"].clone())).collect::<Vec<_>>(),
        [("r1.0".to_string(), json!("RUN_STARTED")), ("r1.1".to_string(), json!("STEP_STARTED"))]
    );
    drop(stream);

    let mut again = app.open_stream(&ada, "/agui/threads/t-6/stream", Some("r1.0")).await;
    let first: StreamEvent = again.next(Duration::from_secs(5)).await.expect("an event");
    assert_eq!((first.id.as_deref(), first.data["type"].as_str()), (Some("r1.1"), Some("STEP_STARTED")));
    let history = {
        let (_, list) = app.json(&ada, "GET", "/gpt/histories", None).await;
        list["data"][0]["id"].as_str().unwrap().to_string()
    };
    let stopped = app.call_form(&ada, "/api/stop_turn", &format!("id={history}")).await;
    assert_eq!(stopped.status, StatusCode::OK, "{}", stopped.text);
    let mut rest = Vec::new();
    while let Some(event) = again.next(Duration::from_secs(5)).await {
        rest.push(event);
    }
    let names: Vec<&str> = rest.iter().map(|event| event.data["type"].as_str().unwrap()).collect();
    assert_eq!(names.last(), Some(&"RUN_FINISHED"), "{rest:?}");
    assert!(
        rest.iter().any(|event| event.data["delta"] == "Still thinking"),
        "a stopped step keeps its text: {rest:?}"
    );
    assert_eq!(rest[0].id.as_deref(), Some("r1.2"), "ids go on from the first stream's");

    let nothing = app.call(Some(&ada), "GET", "/agui/threads/t-6/stream", None).await;
    assert_eq!(nothing.status, StatusCode::NO_CONTENT);
    let not_theirs = app.user("bob", Role::User).await;
    let theirs = app.call(Some(&not_theirs), "GET", "/agui/threads/t-6/stream", None).await;
    assert_eq!(theirs.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_call_of_the_apps_own_tool_is_an_interrupt_whose_resume_is_its_result_taken_once() {
    let script = json!({"responses": [
        {"toolCalls": [{"id": "call_colour", "name": "pick_colour", "input": {"of": "sky"}}]},
        {"text": "The sky is blue."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let tools = json!([{"name": "pick_colour", "description": "Asks the app for a colour",
        "parameters": {"type": "object", "properties": {"of": {"type": "string"}}}}]);
    let with_tools = |mut input: Value| {
        input["tools"] = tools.clone();
        input
    };
    let first = run(
        &app,
        &ada,
        with_tools(input("t-7", "r1", json!([{"id": "u1", "role": "user", "content": "Colour?"}]), None)),
    )
    .await;
    verified(&first, None);
    let offered = &app.mock_log()[0]["tools"];
    assert!(offered.to_string().contains("pick_colour"), "the model is offered the app's tool: {offered}");
    let interrupt = &finished(&first)["outcome"]["interrupts"][0];
    assert_eq!(interrupt["reason"], "tool_call", "{interrupt}");
    let id = interrupt["id"].as_str().unwrap().to_string();
    assert_eq!(interrupt["toolCallId"], id.as_str());
    assert_eq!(interrupt["metadata"]["palaver"]["arguments"], json!({"of": "sky"}));
    let started = first.iter().find(|(_, event)| event["type"] == "TOOL_CALL_START").unwrap();
    assert_eq!(
        (started.1["toolCallId"].as_str(), started.1["toolCallName"].as_str()),
        (Some(id.as_str()), Some("pick_colour"))
    );

    // A message instead of the result is refused; the call stays open.
    let refused =
        run(&app, &ada, with_tools(input("t-7", "r2", json!([{"id": "u2", "role": "user", "content": "Hm"}]), None)))
            .await;
    assert_eq!(refused[1].1["code"], "interrupt_pending", "{refused:?}");

    let resume = json!([{"interruptId": id, "status": "resolved", "payload": {"colour": "blue"}}]);
    let (a, b) = tokio::join!(
        app.call(Some(&ada), "POST", "/agui", Some(with_tools(input("t-7", "r3", json!([]), Some(resume.clone()))))),
        app.call(Some(&ada), "POST", "/agui", Some(with_tools(input("t-7", "r4", json!([]), Some(resume.clone()))))),
    );
    let (a, b) = (run_events(&a.text), run_events(&b.text));
    let went_on = |events: &[(String, Value)]| events.iter().any(|(_, event)| event["type"] == "TOOL_CALL_RESULT");
    assert!(went_on(&a) != went_on(&b), "one resume goes on: {a:?} {b:?}");
    let (second, other) = if went_on(&a) { (a, b) } else { (b, a) };
    verified(&second, Some(&id));
    assert_eq!(finished(&other)["result"]["alreadyAnswered"], json!([id]));
    assert_eq!(second[1].1["type"], "TOOL_CALL_RESULT");
    assert_eq!(
        serde_json::from_str::<Value>(second[1].1["content"].as_str().unwrap()).unwrap(),
        json!({"colour": "blue"})
    );
    assert!(second.iter().any(|(_, event)| event["delta"] == "The sky is blue."), "{second:?}");
    assert_eq!(finished(&second)["outcome"]["type"], "success");
    let log = app.mock_log();
    assert_eq!(log.len(), 2, "the model was called once more");
    assert!(log[1].to_string().contains("blue"), "the model is given the result: {}", log[1]);

    let replay = run(&app, &ada, with_tools(input("t-7", "r5", json!([]), Some(resume)))).await;
    assert_eq!(finished(&replay)["result"]["alreadyAnswered"], json!([id]));
    assert_eq!(app.mock_log().len(), 2);

    let clash = json!([{"name": "ask_choice", "description": "mine"}]);
    let mut bad = input("t-8", "r1", json!([{"id": "u1", "role": "user", "content": "Hi"}]), None);
    bad["tools"] = clash;
    let refused = app.call(Some(&ada), "POST", "/agui", Some(bad)).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert!(refused.text.contains("is the name of one of Palaver's own tools"), "{}", refused.text);
}

#[tokio::test]
async fn a_block_document_reply_is_an_activity_not_text() {
    let document = "v: 1\nblocks:\n  - type: metric\n    label: Guests\n    value: \"4\"\n";
    let script = json!({"responses": [{"text": document}]});
    let app = TestApp::with_blocks(&script.to_string(), palaver_core::conversation::BlocksSettings::default()).await;
    let ada = app.user("ada", Role::User).await;
    let events =
        run(&app, &ada, input("t-9", "r1", json!([{"id": "u1", "role": "user", "content": "Guests?"}]), None)).await;
    verified(&events, None);
    assert!(!types(&events).contains(&"TEXT_MESSAGE_CONTENT"), "the document's source is not text: {events:?}");
    let (_, activity) = events.iter().find(|(_, event)| event["type"] == "ACTIVITY_SNAPSHOT").expect("an activity");
    assert_eq!(activity["activityType"], "palaver-blocks");
    assert_eq!(activity["content"]["check"]["ok"], true, "{activity}");
    assert_eq!(activity["content"]["check"]["doc"]["blocks"][0]["type"], "metric");
    assert!(activity["content"]["text"].as_str().unwrap().contains("Guests"));
}

#[tokio::test]
async fn an_expired_interrupt_cannot_be_resolved_and_cancelling_it_goes_past() {
    let app = TestApp::with_ask_ttl(CHOICE, Duration::from_secs(1)).await;
    let ada = app.user("ada", Role::User).await;
    let first = run(&app, &ada, input("t-10", "r1", hello(), None)).await;
    let id = finished(&first)["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_string();
    // Past the ask's deadline, however busy the machine: it was a second.
    tokio::time::sleep(Duration::from_millis(1100)).await;

    let late = json!([{"interruptId": id, "status": "resolved", "payload": {"action": "decline"}}]);
    let refused = run(&app, &ada, input("t-10", "r2", hello(), Some(late))).await;
    assert_eq!(
        (refused[1].1["type"].clone(), refused[1].1["code"].clone()),
        (json!("RUN_ERROR"), json!("interrupt_expired"))
    );
    let cancel = json!([{"interruptId": id, "status": "cancelled"}]);
    let past = run(&app, &ada, input("t-10", "r3", hello(), Some(cancel))).await;
    assert_eq!(finished(&past)["result"]["alreadyAnswered"], json!([id]), "{past:?}");
    assert_eq!(finished(&past)["outcome"]["type"], "success");
    assert_eq!(model_calls(&app), 1, "nothing ran for the expired interrupt");
}

#[tokio::test]
async fn the_session_cookie_runs_same_site_and_is_refused_cross_site() {
    let app = TestApp::with_mock(r#"{"responses": [{"text": "Hi."}]}"#).await;
    let same_site = ("origin", "http://palaver.test");
    let body = json!({"username": "ada", "password": "correct horse battery"});
    let signed_up = app.send("POST", "/auth/signup", &[same_site], Some(body)).await;
    let cookie = signed_up.headers["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let message = json!([{"id": "u1", "role": "user", "content": "Hello"}]);
    let foreign = app
        .send(
            "POST",
            "/agui",
            &[("cookie", &cookie), ("origin", "https://evil.example")],
            Some(input("t-11", "r1", message.clone(), None)),
        )
        .await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.text);
    assert_eq!(model_calls(&app), 0);
    let own =
        app.send("POST", "/agui", &[("cookie", &cookie), same_site], Some(input("t-11", "r2", message, None))).await;
    assert_eq!(own.status, StatusCode::OK, "{}", own.text);
    assert!(run_events(&own.text).iter().any(|(_, event)| event["delta"] == "Hi."));
}

#[tokio::test]
async fn one_message_sent_by_two_runs_at_once_is_taken_once() {
    let app = TestApp::with_mock(r#"{"responses": [{"text": "Once."}, {"text": "Twice?"}]}"#).await;
    let ada = app.user("ada", Role::User).await;
    let first = input("t-12", "r1", json!([{"id": "u1", "role": "user", "content": "Hello"}]), None);
    let second = input("t-12", "r2", json!([{"id": "u1", "role": "user", "content": "Hello"}]), None);
    let (a, b) = tokio::join!(
        app.call(Some(&ada), "POST", "/agui", Some(first)),
        app.call(Some(&ada), "POST", "/agui", Some(second)),
    );
    assert_eq!((a.status, b.status), (StatusCode::OK, StatusCode::OK), "{} {}", a.text, b.text);
    assert_eq!(model_calls(&app), 1, "the model was called once");
    let sync =
        run(&app, &ada, input("t-12", "r3", json!([{"id": "u1", "role": "user", "content": "Hello"}]), None)).await;
    let messages = sync[sync.len() - 2].1["messages"].as_array().unwrap().clone();
    assert_eq!(messages.iter().filter(|message| message["role"] == "user").count(), 1, "{messages:?}");
}

#[tokio::test]
async fn a_step_that_called_a_host_tool_and_the_apps_goes_on_with_both_results() {
    let script = json!({"responses": [
        {"toolCalls": [
            {"id": "call_list", "name": "listTodos", "input": {}},
            {"id": "call_colour", "name": "pick_colour", "input": {"of": "sky"}}
        ]},
        {"text": "Nothing to do, and the sky is blue."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let tools = json!([{"name": "pick_colour", "description": "Asks the app for a colour"}]);
    let mut asking = input("t-13", "r1", json!([{"id": "u1", "role": "user", "content": "Todos and colour"}]), None);
    asking["tools"] = tools.clone();
    let first = run(&app, &ada, asking).await;
    let interrupts = &finished(&first)["outcome"]["interrupts"];
    assert_eq!(interrupts.as_array().unwrap().len(), 1, "only the app's call waits: {interrupts}");
    let id = interrupts[0]["id"].as_str().unwrap().to_string();
    let mut resuming =
        input("t-13", "r2", json!([]), Some(json!([{"interruptId": id, "status": "resolved", "payload": "blue"}])));
    resuming["tools"] = tools;
    let second = run(&app, &ada, resuming).await;
    verified(&second, Some(&id));
    assert!(second.iter().any(|(_, event)| event["delta"] == "Nothing to do, and the sky is blue."), "{second:?}");
    // The model goes on from its whole step: the host tool's call and result, then the app's.
    let told = app.mock_log()[1].to_string();
    let (listed, coloured) = (told.find("listTodos").expect("the host call"), told.find("blue").expect("the result"));
    assert!(listed < coloured, "{told}");
}

#[tokio::test]
async fn a_client_that_does_not_resume_answers_the_apps_tool_with_a_tool_message() {
    let script = json!({"responses": [
        {"toolCalls": [{"id": "call_colour", "name": "pick_colour", "input": {"of": "sky"}}]},
        {"text": "Blue it is."}
    ]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let tools = json!([{"name": "pick_colour", "description": "Asks the app for a colour"}]);
    let asked = json!([{"id": "u1", "role": "user", "content": "Colour?"}]);
    let mut first = input("t-14", "r1", asked.clone(), None);
    first["tools"] = tools.clone();
    let events = run(&app, &ada, first).await;
    let id = finished(&events)["outcome"]["interrupts"][0]["id"].as_str().unwrap().to_string();
    // As clients before interrupts did: the history again, the call, and its result.
    let mut messages = asked;
    messages.as_array_mut().unwrap().extend([
        json!({"id": "a1", "role": "assistant", "toolCalls": [
            {"id": id, "type": "function", "function": {"name": "pick_colour", "arguments": "{\"of\":\"sky\"}"}}]}),
        json!({"id": "t1", "role": "tool", "toolCallId": id, "content": "{\"colour\":\"blue\"}"}),
    ]);
    let mut second = input("t-14", "r2", messages.clone(), None);
    second["tools"] = tools;
    let answered = run(&app, &ada, second).await;
    assert!(answered.iter().any(|(_, event)| event["delta"] == "Blue it is."), "{answered:?}");
    assert!(app.mock_log()[1].to_string().contains("colour"), "the model is given the result");
    // Sent again with the next message, the old tool message answers nothing twice.
    let again = run(&app, &ada, input("t-14", "r3", messages, None)).await;
    assert_eq!(finished(&again)["outcome"]["type"], "success");
    assert_eq!(app.mock_log().len(), 2);
}
