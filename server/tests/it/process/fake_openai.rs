//! A fake OpenAI-compatible model server on 127.0.0.1 for real instances (`PALAVER_MODEL=openai:…`
//! with [`FakeOpenAi::settings`]): each `POST /v1/chat/completions` is answered from its body
//! alone, streamed as Chat Completions chunks, so an instance killed and started again meets
//! the same model, and any instance may make any call.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::response::Response;
use futures::StreamExt;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

/// What the model answers a request with.
pub enum FakeReply {
    /// Text, streamed piece by piece.
    Text(Vec<String>),
    /// One function call, whole.
    ToolCall { id: String, name: String, arguments: Value },
}

type Answer = dyn Fn(&Value) -> FakeReply + Send + Sync;

#[derive(Clone)]
struct Model {
    answer: Arc<Answer>,
    /// The pause before each piece of text.
    piece_delay: Duration,
    requests: Arc<AtomicUsize>,
}

pub struct FakeOpenAi {
    base_url: String,
    requests: Arc<AtomicUsize>,
    serving: JoinHandle<()>,
}

impl Drop for FakeOpenAi {
    fn drop(&mut self) {
        self.serving.abort();
    }
}

impl FakeOpenAi {
    /// Serves `answer`'s replies, a text's pieces `piece_delay` apart.
    pub async fn start(
        answer: impl Fn(&Value) -> FakeReply + Send + Sync + 'static,
        piece_delay: Duration,
    ) -> FakeOpenAi {
        let requests = Arc::new(AtomicUsize::new(0));
        let model = Model { answer: Arc::new(answer), piece_delay, requests: requests.clone() };
        let router = axum::Router::new().route("/v1/chat/completions", axum::routing::post(reply)).with_state(model);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
        let serving = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        FakeOpenAi { base_url, requests, serving }
    }

    /// An instance's settings for this model, named `model`.
    pub fn settings(&self, model: &str) -> [(&'static str, String); 2] {
        [("PALAVER_MODEL", format!("openai:{model}")), ("PALAVER_OPENAI_BASE_URL", self.base_url.clone())]
    }

    /// How many calls it has answered.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }
}

fn chunk(delta: Value, finish_reason: Option<&str>) -> Bytes {
    let chunk = json!({"object": "chat.completion.chunk",
                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]});
    Bytes::from(format!("data: {chunk}\n\n"))
}

async fn reply(State(model): State<Model>, body: Bytes) -> Response {
    model.requests.fetch_add(1, Ordering::Relaxed);
    let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let (pieces, finish) = match (model.answer)(&request) {
        FakeReply::Text(pieces) => {
            (pieces.into_iter().map(|piece| (model.piece_delay, json!({"content": piece}))).collect(), "stop")
        }
        FakeReply::ToolCall { id, name, arguments } => {
            let call = json!({"index": 0, "id": id, "type": "function",
                              "function": {"name": name, "arguments": arguments.to_string()}});
            (vec![(Duration::ZERO, json!({"tool_calls": [call]}))], "tool_calls")
        }
    };
    let start = futures::stream::iter([(Duration::ZERO, chunk(json!({"role": "assistant"}), None))]);
    let pieces = futures::stream::iter(pieces).map(|(delay, delta)| (delay, chunk(delta, None)));
    let end = futures::stream::iter([
        (Duration::ZERO, chunk(json!({}), Some(finish))),
        (Duration::ZERO, Bytes::from_static(b"data: [DONE]\n\n")),
    ]);
    let body = start.chain(pieces).chain(end).then(|(delay, bytes)| async move {
        tokio::time::sleep(delay).await;
        Ok::<_, std::io::Error>(bytes)
    });
    Response::builder().header("content-type", "text/event-stream").body(Body::from_stream(body)).unwrap()
}
