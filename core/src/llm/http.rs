//! What the hosted-model providers share: one HTTP client with timeouts, retries with backoff
//! that never repeat a call once its output has started, a byte-safe event-stream reader, and
//! errors that carry the provider's message but never a secret.

use std::time::Duration;

use futures::channel::mpsc;
use futures::{SinkExt, StreamExt};
use reqwest::{RequestBuilder, Response, StatusCode};
use serde_json::Value;

use futures::stream::BoxStream;

use super::{FinishReason, ModelEvent, ToolCall, Usage};
use palaver_contract::sse::SseDecoder;

/// How long to wait for a connection, and for each piece of a streamed reply.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// When and how often a failed call is tried again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetryPolicy {
    /// Tries after the first one.
    pub max_retries: u32,
    /// The first wait; each retry doubles it, up to `max_delay`, with jitter.
    pub base_delay: Duration,
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy { max_retries: 3, base_delay: Duration::from_millis(500), max_delay: Duration::from_secs(20) }
    }
}

impl RetryPolicy {
    /// The wait before retry `attempt` (0-based): `Retry-After` when the provider sent one (capped
    /// at `max_delay`), else exponential backoff with up to 50% jitter.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let backoff = self.base_delay.saturating_mul(1 << attempt.min(16)).min(self.max_delay);
        let jitter = backoff.mul_f64(jitter_fraction() * 0.5);
        backoff + jitter
    }
}

/// A fraction in [0, 1) that differs between calls (jitter needs no cryptographic randomness).
fn jitter_fraction() -> f64 {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    f64::from(nanos % 1000) / 1000.0
}

pub fn client() -> reqwest::Client {
    crate::outbound::client_builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .read_timeout(READ_TIMEOUT)
        .build()
        .expect("a client with only timeouts set builds")
}

fn retry_after(response: &Response) -> Option<Duration> {
    let header = response.headers().get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    header
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
        .map(Duration::from_secs_f64)
}

fn retryable(status: StatusCode) -> bool {
    status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

/// Sends the request built by `build`, trying again on connection errors, 429 and 5xx (nothing
/// has streamed yet at this point). Any other failure is final.
async fn send(build: impl Fn() -> RequestBuilder, policy: RetryPolicy, provider: &str) -> Result<Response, String> {
    let mut attempt = 0;
    loop {
        let outcome = build().send().await;
        let wait = match &outcome {
            Ok(response) if response.status().is_success() => None,
            Ok(response) if retryable(response.status()) => Some(retry_after(response)),
            Ok(_) => None,
            Err(error) if error.is_connect() || error.is_timeout() => Some(None),
            Err(_) => None,
        };
        match (wait, outcome) {
            (Some(retry_after), _) if attempt < policy.max_retries => {
                tokio::time::sleep(policy.delay(attempt, retry_after)).await;
                attempt += 1;
            }
            (_, Ok(response)) if response.status().is_success() => return Ok(response),
            (_, Ok(response)) => {
                let status = response.status();
                let body = response.text().await.unwrap_or_default();
                return Err(provider_error(provider, status, &body));
            }
            (_, Err(error)) => return Err(format!("{provider} could not be reached: {}", error_kind(&error))),
        }
    }
}

/// A transport error in words, without the URL (it may hold a key in a query string).
fn error_kind(error: &reqwest::Error) -> &'static str {
    if error.is_timeout() {
        "the request timed out"
    } else if error.is_connect() {
        "the connection failed"
    } else {
        "the request failed"
    }
}

/// The provider's own error message, when its body has one (OpenAI and Anthropic both use
/// `{"error": {"message": …}}`).
pub fn provider_error(provider: &str, status: StatusCode, body: &str) -> String {
    let json = serde_json::from_str::<Value>(body).ok();
    if json.as_ref().is_some_and(|json| says_context_too_long(&json["error"])) {
        return super::CONTEXT_TOO_LONG.to_string();
    }
    let message =
        json.and_then(|json| json["error"]["message"].as_str().or(json["message"].as_str()).map(str::to_string));
    match message {
        Some(message) => format!("{provider} answered {}: {message}", status.as_u16()),
        None => format!("{provider} answered {}.", status.as_u16()),
    }
}

/// Whether a provider's `error` object says the request was longer than the model reads:
/// OpenAI's code `context_length_exceeded`, Anthropic's `prompt is too long: …`.
pub fn says_context_too_long(error: &Value) -> bool {
    error["code"] == "context_length_exceeded"
        || error["message"].as_str().is_some_and(|message| message.starts_with("prompt is too long"))
}

/// Reads the `data` payloads of a streamed response, one at a time, decoding UTF-8 safely
/// even when a chunk splits a character.
struct EventReader {
    body: BoxStream<'static, reqwest::Result<Vec<u8>>>,
    decoder: SseDecoder,
    pending: Vec<u8>,
    ready: std::collections::VecDeque<String>,
    provider: &'static str,
}

impl EventReader {
    fn new(response: Response, provider: &'static str) -> Self {
        EventReader {
            body: response.bytes_stream().map(|chunk| chunk.map(|bytes| bytes.to_vec())).boxed(),
            decoder: SseDecoder::default(),
            pending: Vec::new(),
            ready: Default::default(),
            provider,
        }
    }

    /// The next payload; `None` once the body has ended.
    async fn next(&mut self) -> Option<Result<String, String>> {
        loop {
            if let Some(data) = self.ready.pop_front() {
                return Some(Ok(data));
            }
            let chunk = match self.body.next().await? {
                Ok(chunk) => chunk,
                Err(error) => {
                    return Some(Err(format!("The {} reply was cut off: {}.", self.provider, error_kind(&error))));
                }
            };
            self.pending.extend_from_slice(&chunk);
            let complete = match std::str::from_utf8(&self.pending) {
                Ok(_) => self.pending.len(),
                Err(error) if error.error_len().is_none() => error.valid_up_to(),
                Err(_) => return Some(Err(format!("The {} reply was not UTF-8 text.", self.provider))),
            };
            let text = String::from_utf8_lossy(&self.pending[..complete]).into_owned();
            self.pending.drain(..complete);
            self.ready.extend(self.decoder.push(&text));
        }
    }
}

/// A token count from a provider's usage report (0 when absent or not a count).
pub fn token_count(value: &Value) -> u32 {
    value.as_u64().and_then(|count| u32::try_from(count).ok()).unwrap_or(0)
}

/// How a provider's stream becomes model events: one `data` payload at a time, then the end.
pub trait ReplyFolder: Send + 'static {
    /// Reads one payload; returns the events it carried as they stream (text, pieces of a
    /// tool call's arguments).
    fn read(&mut self, data: &str) -> Result<Vec<ModelEvent>, String>;
    /// The tool calls and the finish once the stream ended; an error when it ended early.
    fn end(self) -> Result<(Vec<ToolCall>, FinishReason, Usage), String>;
}

/// Runs one provider call in its own task and hands back its events: text as it arrives, then
/// the tool calls and `Finish`, or one `Error`. Dropping the stream (the turn was stopped, or
/// the client left) ends the task, which drops the HTTP connection.
pub fn stream_call<F: ReplyFolder>(
    build: impl Fn() -> RequestBuilder + Send + 'static,
    retry: RetryPolicy,
    provider: &'static str,
    mut folder: F,
) -> BoxStream<'static, ModelEvent> {
    let (mut sender, receiver) = mpsc::channel(64);
    tokio::spawn(async move {
        let response = match send(build, retry, provider).await {
            Ok(response) => response,
            Err(error) => {
                emit(&mut sender, ModelEvent::Error(error)).await;
                return;
            }
        };
        let mut events = EventReader::new(response, provider);
        while let Some(data) = events.next().await {
            let streamed = match data.and_then(|data| folder.read(&data)) {
                Ok(streamed) => streamed,
                Err(error) => {
                    emit(&mut sender, ModelEvent::Error(error)).await;
                    return;
                }
            };
            for event in streamed {
                if !emit(&mut sender, event).await {
                    return;
                }
            }
        }
        match folder.end() {
            Ok((calls, reason, usage)) => {
                for call in calls {
                    if !emit(&mut sender, ModelEvent::ToolCall(call)).await {
                        return;
                    }
                }
                emit(&mut sender, ModelEvent::Finish { reason, usage }).await;
            }
            Err(error) => {
                emit(&mut sender, ModelEvent::Error(error)).await;
            }
        }
    });
    receiver.boxed()
}

/// Sends an event; false when nobody listens any more.
async fn emit(sender: &mut mpsc::Sender<ModelEvent>, event: ModelEvent) -> bool {
    sender.send(event).await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_honours_retry_after() {
        let policy =
            RetryPolicy { max_retries: 3, base_delay: Duration::from_millis(100), max_delay: Duration::from_secs(1) };
        for attempt in 0..3 {
            let delay = policy.delay(attempt, None);
            let base = Duration::from_millis(100 * (1 << attempt));
            assert!(delay >= base && delay <= base.mul_f64(1.5), "{attempt}: {delay:?}");
        }
        let capped = policy.delay(10, None);
        assert!(capped >= Duration::from_secs(1) && capped <= Duration::from_millis(1500), "{capped:?}");
        assert_eq!(policy.delay(0, Some(Duration::from_secs(3))), Duration::from_secs(1));
        assert_eq!(policy.delay(0, Some(Duration::from_millis(200))), Duration::from_millis(200));
    }

    #[test]
    fn provider_errors_carry_the_message() {
        let body = r#"{"error": {"message": "Rate limit reached", "type": "rate_limit"}}"#;
        assert_eq!(
            provider_error("OpenAI", StatusCode::TOO_MANY_REQUESTS, body),
            "OpenAI answered 429: Rate limit reached"
        );
        assert_eq!(provider_error("OpenAI", StatusCode::BAD_GATEWAY, "<html>"), "OpenAI answered 502.");
    }

    #[test]
    fn a_context_too_long_is_told_in_the_persons_words() {
        let openai = r#"{"error": {"message": "This model's maximum context length is 128000 tokens.",
                                   "type": "invalid_request_error", "code": "context_length_exceeded"}}"#;
        let anthropic = r#"{"type": "error", "error": {"type": "invalid_request_error",
                            "message": "prompt is too long: 210000 tokens > 200000 maximum"}}"#;
        for body in [openai, anthropic] {
            assert_eq!(provider_error("X", StatusCode::BAD_REQUEST, body), crate::llm::CONTEXT_TOO_LONG);
        }
    }
}
