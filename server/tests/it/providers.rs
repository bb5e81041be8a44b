//! The hosted-model providers against a fake provider: a real HTTP listener on 127.0.0.1 that
//! replays recorded-shape event streams and records every request Palaver sends.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::TestApp;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use futures::StreamExt;
use palaver_core::llm::{
    AnthropicModel, ChatModel, ContentPart, FinishReason, ModelEvent, ModelMessage, ModelRequest, OpenAiModel,
    RetryPolicy, ToolCall, ToolDefinition, Usage,
};
use palaver_wire::accounts::Role;
use serde_json::{Value, json};

/// One scripted reply: a status, headers, and body pieces (`None` cuts the connection).
#[derive(Clone)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, &'static str)>,
    chunks: Vec<Option<String>>,
}

fn stream_of(events: &[Value]) -> Reply {
    let mut chunks: Vec<Option<String>> = events.iter().map(|event| Some(format!("data: {event}\n\n"))).collect();
    chunks.push(Some("data: [DONE]\n\n".into()));
    Reply { status: 200, headers: vec![("content-type", "text/event-stream")], chunks }
}

fn status(code: u16, body: &str, headers: Vec<(&'static str, &'static str)>) -> Reply {
    Reply { status: code, headers, chunks: vec![Some(body.to_string())] }
}

#[derive(Clone, Default)]
struct Fake {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    requests: Arc<Mutex<Vec<(HeaderMap, Value)>>>,
    /// Bodies the client stopped reading before they ended (the connection was dropped).
    abandoned: Arc<std::sync::atomic::AtomicUsize>,
}

/// Counts a body as abandoned when it is dropped before its last piece was sent.
struct Unfinished(Arc<std::sync::atomic::AtomicUsize>, bool);

impl Drop for Unfinished {
    fn drop(&mut self) {
        if !self.1 {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

impl Fake {
    fn bodies(&self) -> Vec<Value> {
        self.requests.lock().unwrap().iter().map(|(_, body)| body.clone()).collect()
    }
}

async fn answer(State(fake): State<Fake>, headers: HeaderMap, body: Bytes) -> Response {
    fake.requests.lock().unwrap().push((headers, serde_json::from_slice(&body).unwrap_or(Value::Null)));
    let reply = fake.replies.lock().unwrap().pop_front().expect("the fake provider ran out of replies");
    let count = reply.chunks.len();
    let guard = Arc::new(Mutex::new(Unfinished(fake.abandoned.clone(), false)));
    let pieces = futures::stream::iter(reply.chunks.into_iter().enumerate()).then(move |(index, chunk)| {
        let guard = guard.clone();
        async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            if index + 1 == count {
                guard.lock().unwrap().1 = true;
            }
            chunk.map(Bytes::from).ok_or_else(|| std::io::Error::other("cut"))
        }
    });
    let mut response = Response::builder().status(reply.status);
    for (name, value) in reply.headers {
        response = response.header(name, value);
    }
    response.body(Body::from_stream(pieces)).unwrap()
}

/// Starts the fake provider with its replies; returns it and its base URL.
async fn fake_provider(replies: Vec<Reply>) -> (Fake, String) {
    let fake = Fake { replies: Arc::new(Mutex::new(replies.into())), ..Fake::default() };
    let router = axum::Router::new()
        .route("/v1/chat/completions", axum::routing::post(answer))
        .route("/v1/messages", axum::routing::post(answer))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (fake, format!("http://{address}"))
}

const FAST_RETRY: RetryPolicy =
    RetryPolicy { max_retries: 2, base_delay: Duration::from_millis(10), max_delay: Duration::from_millis(50) };

fn openai(base: &str) -> OpenAiModel {
    OpenAiModel::new("test-model", &format!("{base}/v1"), Some("sk-test".into()), FAST_RETRY)
}

fn anthropic(base: &str) -> AnthropicModel {
    AnthropicModel::new("claude-test", base, "ak-test".into(), FAST_RETRY)
}

async fn events(model: &dyn ChatModel, request: ModelRequest) -> Vec<ModelEvent> {
    model.stream(request).collect().await
}

fn hello() -> ModelRequest {
    ModelRequest {
        system: "Be brief.".into(),
        messages: vec![ModelMessage::User { text: "Hi".into(), parts: vec![] }],
        ..Default::default()
    }
}

fn delta(content: Value) -> Value {
    json!({"choices": [{"index": 0, "delta": content, "finish_reason": null}]})
}

fn finish(reason: &str) -> Value {
    json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]})
}

fn usage(input: u32, output: u32) -> Value {
    json!({"choices": [], "usage": {"prompt_tokens": input, "completion_tokens": output}})
}

#[tokio::test]
async fn openai_text_then_a_tool_call_whose_arguments_arrive_in_pieces() {
    let (fake, base) = fake_provider(vec![stream_of(&[
        delta(json!({"role": "assistant", "content": "Let me "})),
        delta(json!({"content": "check."})),
        delta(json!({"tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "listTodos", "arguments": ""}}]})),
        delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"sta"}}]})),
        delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": "tus\": \"open\"}"}}]})),
        finish("tool_calls"),
        usage(42, 7),
    ])])
    .await;
    let got = events(&openai(&base), hello()).await;
    assert_eq!(
        got,
        [
            ModelEvent::TextDelta("Let me ".into()),
            ModelEvent::TextDelta("check.".into()),
            // The arguments stream in pieces (for an ask's preview), then the call whole.
            ModelEvent::ToolCallDelta { id: "call_1".into(), name: "listTodos".into(), piece: "{\"sta".into() },
            ModelEvent::ToolCallDelta {
                id: "call_1".into(),
                name: "listTodos".into(),
                piece: "tus\": \"open\"}".into()
            },
            ModelEvent::ToolCall(ToolCall {
                id: "call_1".into(),
                name: "listTodos".into(),
                input: json!({"status": "open"})
            }),
            ModelEvent::Finish { reason: FinishReason::ToolCalls, usage: Usage { input_tokens: 42, output_tokens: 7 } },
        ]
    );
    let (headers, body) = fake.requests.lock().unwrap()[0].clone();
    assert_eq!(headers["authorization"], "Bearer sk-test");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
}

#[tokio::test]
async fn dropping_the_stream_closes_the_connection() {
    let mut slow: Vec<Value> = (0..200).map(|n| delta(json!({"content": format!("w{n} ")}))).collect();
    slow.push(finish("stop"));
    let (fake, base) = fake_provider(vec![stream_of(&slow)]).await;
    let model = openai(&base);
    let mut stream = model.stream(hello());
    assert_eq!(stream.next().await, Some(ModelEvent::TextDelta("w0 ".into())));
    drop(stream); // what the turn runner does when the user stops a turn
    for _ in 0..100 {
        if fake.abandoned.load(std::sync::atomic::Ordering::SeqCst) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the provider kept streaming to nobody");
}

#[tokio::test]
async fn openai_usage_is_estimated_when_the_server_reports_none() {
    let (_, base) = fake_provider(vec![stream_of(&[delta(json!({"content": "Twelve chars"})), finish("stop")])]).await;
    let got = events(&openai(&base), hello()).await;
    let ModelEvent::Finish { usage, .. } = got.last().unwrap() else { panic!("{got:?}") };
    assert_eq!(usage.output_tokens, 3, "about four characters a token");
    assert!(usage.input_tokens > 0);
}

#[tokio::test]
async fn openai_two_tool_calls_in_one_step_and_malformed_arguments() {
    let (_, base) = fake_provider(vec![stream_of(&[
        delta(json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "addTodo", "arguments": "{\"title\":"}}]})),
        delta(json!({"tool_calls": [{"index": 1, "id": "b", "function": {"name": "addTodo", "arguments": "{\"title\": \"tea\"}"}}]})),
        delta(json!({"tool_calls": [{"index": 0, "function": {"arguments": " \"milk\"}"}}]})),
        delta(json!({"tool_calls": [{"index": 2, "id": "c", "function": {"name": "addTodo", "arguments": "{not json"}}]})),
        finish("tool_calls"),
    ])])
    .await;
    let calls: Vec<ToolCall> = events(&openai(&base), hello())
        .await
        .into_iter()
        .filter_map(|event| match event {
            ModelEvent::ToolCall(call) => Some(call),
            _ => None,
        })
        .collect();
    let inputs: Vec<(&str, &Value)> = calls.iter().map(|call| (call.id.as_str(), &call.input)).collect();
    assert_eq!(inputs, [("a", &json!({"title": "milk"})), ("b", &json!({"title": "tea"})), ("c", &json!("{not json"))]);
}

#[tokio::test]
async fn openai_retries_a_429_honouring_retry_after_but_never_after_output() {
    let (fake, base) = fake_provider(vec![
        status(429, r#"{"error": {"message": "Slow down"}}"#, vec![("retry-after", "0")]),
        status(503, "upstream busy", vec![]),
        stream_of(&[delta(json!({"content": "Done."})), finish("stop")]),
    ])
    .await;
    let got = events(&openai(&base), hello()).await;
    assert_eq!(got[0], ModelEvent::TextDelta("Done.".into()));
    assert_eq!(fake.bodies().len(), 3, "two retries, then success");

    let cut = Reply {
        status: 200,
        headers: vec![],
        chunks: vec![Some(format!("data: {}\n\n", delta(json!({"content": "Half"})))), None],
    };
    let (fake, base) = fake_provider(vec![cut, stream_of(&[finish("stop")])]).await;
    let got = events(&openai(&base), hello()).await;
    assert_eq!(got[0], ModelEvent::TextDelta("Half".into()));
    assert!(matches!(&got[1], ModelEvent::Error(message) if message.contains("cut off")), "{got:?}");
    assert_eq!(got.len(), 2);
    assert_eq!(fake.bodies().len(), 1, "no retry once output has streamed");
}

#[tokio::test]
async fn openai_errors_carry_the_providers_message_and_no_secret() {
    let (fake, base) =
        fake_provider(vec![status(400, r#"{"error": {"message": "Unknown model test-model"}}"#, vec![])]).await;
    let got = events(&openai(&base), hello()).await;
    assert_eq!(got, [ModelEvent::Error("The model server answered 400: Unknown model test-model".into())]);
    assert_eq!(fake.bodies().len(), 1, "a 400 is not retried");

    let (_, base) =
        fake_provider(vec![status(429, "{}", vec![]), status(429, "{}", vec![]), status(429, "{}", vec![])]).await;
    let got = events(&openai(&base), hello()).await;
    assert_eq!(got, [ModelEvent::Error("The model server answered 429.".into())]);
    assert!(!format!("{got:?}").contains("sk-test"));

    let got = events(&openai("http://127.0.0.1:9"), hello()).await;
    assert!(matches!(&got[..], [ModelEvent::Error(message)] if message.contains("could not be reached")), "{got:?}");
}

#[tokio::test]
async fn a_title_call_asks_both_providers_for_temperature_0_3_and_a_turn_leaves_it_unset() {
    let title = palaver_core::turn::title::title_request("Set up billing", "Team it is.");
    let (fake, base) = fake_provider(vec![
        stream_of(&[delta(json!({"content": "Team billing"})), finish("stop")]),
        stream_of(&[delta(json!({"content": "Hi"})), finish("stop")]),
    ])
    .await;
    events(&openai(&base), title.clone()).await;
    events(&openai(&base), hello()).await;
    let bodies = fake.bodies();
    assert_eq!((bodies[0]["temperature"].clone(), bodies[1].get("temperature")), (json!(0.3), None));
    assert_eq!(
        bodies[0]["messages"][0],
        json!({"role": "system", "content": palaver_core::turn::title::TITLE_GENERATION_PROMPT})
    );

    let (fake, base) = fake_provider(vec![anthropic_stream(&[
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 3, "output_tokens": 1}}}),
        json!({"type": "message_stop"}),
    ])])
    .await;
    events(&anthropic(&base), title).await;
    assert_eq!(fake.bodies()[0]["temperature"], json!(0.3));
}

fn conversation_with_an_answered_files_ask() -> ModelRequest {
    ModelRequest {
        system: "System text.".into(),
        messages: vec![
            ModelMessage::User { text: "Here is my receipt".into(), parts: vec![] },
            ModelMessage::Assistant {
                text: String::new(),
                tool_calls: vec![ToolCall {
                    id: "call_f".into(),
                    name: "ask_files".into(),
                    input: json!({"prompt": "Upload it"}),
                }],
            },
            ModelMessage::Tool {
                tool_call_id: "call_f".into(),
                tool_name: "ask_files".into(),
                result: json!({"action": "accept", "content": {"files": [{"fileId": "f1"}]}}),
                parts: vec![ContentPart::ImageData { mime_type: "image/png".into(), data: "iVBO".into() }],
            },
        ],
        tools: vec![
            ToolDefinition {
                name: "ask_confirm".into(),
                description: "Ask to confirm.".into(),
                input_schema: json!({"type": "object", "properties": {"prompt": {"type": "string"}, "title": {"type": "string"}}, "required": ["prompt"], "additionalProperties": false}),
            },
            ToolDefinition {
                name: "listTodos".into(),
                description: "List todos.".into(),
                input_schema: json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false}),
            },
        ],
        ..Default::default()
    }
}

#[tokio::test]
async fn openai_request_bodies_carry_tools_answers_and_images() {
    let (fake, base) = fake_provider(vec![stream_of(&[finish("stop")])]).await;
    events(&openai(&base), conversation_with_an_answered_files_ask()).await;
    assert_eq!(
        fake.bodies()[0],
        json!({
            "model": "test-model",
            "stream": true,
            "stream_options": {"include_usage": true},
            "messages": [
                {"role": "system", "content": "System text."},
                {"role": "user", "content": "Here is my receipt"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_f", "type": "function", "function": {"name": "ask_files", "arguments": "{\"prompt\":\"Upload it\"}"}}
                ]},
                {"role": "tool", "tool_call_id": "call_f", "content": "{\"action\":\"accept\",\"content\":{\"files\":[{\"fileId\":\"f1\"}]}}"},
                {"role": "user", "content": [
                    {"type": "text", "text": "The files of that answer:"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}
                ]}
            ],
            "tools": [
                {"type": "function", "function": {"name": "ask_confirm", "description": "Ask to confirm.",
                    "parameters": {"type": "object", "properties": {"prompt": {"type": "string"}, "title": {"type": "string"}}, "required": ["prompt"], "additionalProperties": false}}},
                {"type": "function", "function": {"name": "listTodos", "description": "List todos.", "strict": true,
                    "parameters": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}}}
            ]
        })
    );
}

fn anthropic_stream(events: &[Value]) -> Reply {
    let chunks = events
        .iter()
        .map(|event| Some(format!("event: {}\ndata: {event}\n\n", event["type"].as_str().unwrap())))
        .collect();
    Reply { status: 200, headers: vec![("content-type", "text/event-stream")], chunks }
}

#[tokio::test]
async fn anthropic_streams_text_and_tool_use_and_sends_native_blocks() {
    let (fake, base) = fake_provider(vec![
        status(529, r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#, vec![]),
        anthropic_stream(&[
            json!({"type": "message_start", "message": {"usage": {"input_tokens": 30, "output_tokens": 1}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "ping"}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Got it."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "addTodo", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"title\": \"re"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "ceipt\"}"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 12}}),
            json!({"type": "message_stop"}),
        ]),
    ])
    .await;
    let got = events(&anthropic(&base), conversation_with_an_answered_files_ask()).await;
    assert_eq!(
        got,
        [
            ModelEvent::TextDelta("Got it.".into()),
            ModelEvent::ToolCallDelta {
                id: "toolu_1".into(),
                name: "addTodo".into(),
                piece: "{\"title\": \"re".into()
            },
            ModelEvent::ToolCallDelta { id: "toolu_1".into(), name: "addTodo".into(), piece: "ceipt\"}".into() },
            ModelEvent::ToolCall(ToolCall {
                id: "toolu_1".into(),
                name: "addTodo".into(),
                input: json!({"title": "receipt"})
            }),
            ModelEvent::Finish {
                reason: FinishReason::ToolCalls,
                usage: Usage { input_tokens: 30, output_tokens: 12 }
            },
        ]
    );
    let requests = fake.requests.lock().unwrap().clone();
    assert_eq!(requests.len(), 2, "the 529 was retried");
    let (headers, body) = &requests[1];
    assert_eq!(headers["x-api-key"], "ak-test");
    assert_eq!(headers["anthropic-version"], "2023-06-01");
    assert_eq!(body["system"], "System text.");
    assert_eq!(
        body["messages"],
        json!([
            {"role": "user", "content": [{"type": "text", "text": "Here is my receipt"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "call_f", "name": "ask_files", "input": {"prompt": "Upload it"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_f", "content": [
                {"type": "text", "text": "{\"action\":\"accept\",\"content\":{\"files\":[{\"fileId\":\"f1\"}]}}"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}}
            ]}]}
        ])
    );
    assert_eq!(
        body["tools"][1],
        json!({"name": "listTodos", "description": "List todos.", "input_schema": {"type": "object", "properties": {}, "required": [], "additionalProperties": false}})
    );
}

#[tokio::test]
async fn anthropic_error_events_and_cut_streams_fail_the_call() {
    let (_, base) = fake_provider(vec![anthropic_stream(&[
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 3}}}),
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ])])
    .await;
    assert_eq!(
        events(&anthropic(&base), hello()).await,
        [ModelEvent::Error("Anthropic reported an error: Overloaded".into())]
    );

    let (_, base) = fake_provider(vec![anthropic_stream(&[
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Half"}}),
    ])])
    .await;
    let got = events(&anthropic(&base), hello()).await;
    assert_eq!(got[0], ModelEvent::TextDelta("Half".into()));
    assert!(matches!(&got[1], ModelEvent::Error(message) if message.contains("ended before it finished")));
}

/// A whole turn through the OpenAI-compatible provider: the model asks, the user answers, and
/// the answer reaches the model as the tool result; usage lands in the request log.
#[tokio::test]
async fn a_turn_asks_and_resumes_through_the_provider() {
    let ask = json!({"prompt": "Which plan?", "select": "one", "options": [{"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]});
    let (fake, base) = fake_provider(vec![
        stream_of(&[
            delta(json!({"tool_calls": [{"index": 0, "id": "call_plan", "function": {"name": "ask_choice", "arguments": ask.to_string()}}]})),
            finish("tool_calls"),
            usage(100, 20),
        ]),
        stream_of(&[delta(json!({"content": "Team it is."})), finish("stop"), usage(150, 5)]),
    ])
    .await;
    let app = TestApp::with_model(Arc::new(openai(&base))).await;
    let ada = app.user("ada", Role::User).await;
    let first = app.prompt(&ada, json!({"prompt": "Set up billing"})).await;
    let history_id = first.last().unwrap()["historyId"].clone();
    let ask_id = crate::common::asked(&first);
    assert_ne!(ask_id, "call_plan", "the ask has an id of its own");

    let answer = json!({"action": "accept", "content": {"selected": ["team"]}, "toolCallId": ask_id});
    let second = app.prompt(&ada, json!({"historyId": history_id, "askResponse": answer})).await;
    assert_eq!(crate::common::streamed_text(&second), "Team it is.");

    let bodies = fake.bodies();
    let tools: Vec<&str> =
        bodies[0]["tools"].as_array().unwrap().iter().map(|tool| tool["function"]["name"].as_str().unwrap()).collect();
    assert!(tools.contains(&"ask_choice") && tools.contains(&"listTodos"));
    let messages = bodies[1]["messages"].as_array().unwrap();
    let tool_result = messages.iter().find(|message| message["role"] == "tool").unwrap();
    assert_eq!(tool_result["tool_call_id"], "call_plan");
    let content: Value = serde_json::from_str(tool_result["content"].as_str().unwrap()).unwrap();
    assert_eq!(content, json!({"action": "accept", "content": {"selected": ["team"]}}));

    let logged: Vec<(i64, i64, String)> =
        sqlx::query_as("SELECT input_tokens, output_tokens, model FROM ai_requests ORDER BY created_at")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(logged[0], (100, 20, "openai:test-model".to_string()));
    assert_eq!(logged[1], (150, 5, "openai:test-model".to_string()));
}
