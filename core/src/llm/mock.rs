//! `mock:<path>`: a scripted model for tests.
//!
//! The script is JSON: `{"responses": [R1, R2, …]}`; each call consumes the next response.
//! A response is `{"text"}`, `{"toolCalls": [{"id", "name", "input"}], "text"?}`, `{"error"}` (the
//! call fails before any output) or `{"text", "error"}` (fails after streaming the text). An
//! optional `chunkDelayMs` slows the stream down so tests can watch it arrive; `"stall": true`
//! makes it fall silent after its text and the pieces of its tool calls' `inputParts`, never
//! finishing (so a test stops it at a point of its choosing, not a race). Text streams in three
//! parts, or in the `parts` a response gives instead of `text` (to cut it where a test needs).
//!
//! Browser tests run many conversations against one server, so a script may also hold
//! `"conversations": {"<first user message>": {"responses": […]}}`: a call whose conversation
//! starts with that message consumes that list instead, with its own cursor.
//!
//! A title call (`CallPurpose::Title`) consumes no response: it answers with the script's
//! `title`, and fails when there is none. It is not written to the log. A summary call
//! (`CallPurpose::Summary`) consumes none either: it answers with the script's `summary` (and
//! fails without one); it is logged with `"purpose": "summary"`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use futures::StreamExt;
use futures::stream::{self, BoxStream};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    CallPurpose, ChatModel, FinishReason, ModelEvent, ModelMessage, ModelRequest, ToolCall, Usage, estimate_tokens,
};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Script {
    #[serde(default)]
    responses: Vec<MockResponse>,
    #[serde(default)]
    conversations: HashMap<String, ConversationScript>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    summary: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConversationScript {
    responses: Vec<MockResponse>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct MockResponse {
    text: Option<String>,
    parts: Option<Vec<String>>,
    #[serde(default)]
    tool_calls: Vec<MockToolCall>,
    error: Option<String>,
    #[serde(default)]
    chunk_delay_ms: u64,
    #[serde(default)]
    stall: bool,
}

/// A scripted tool call: its input whole, or as the pieces the model streams it in
/// (`inputParts`, joined, must be JSON).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct MockToolCall {
    id: String,
    name: String,
    #[serde(default)]
    input: Value,
    input_parts: Option<Vec<String>>,
}

pub struct MockModel {
    script: Script,
    /// Next response index per script: `None` is the top-level list, `Some(prompt)` a conversation's.
    cursors: Mutex<HashMap<Option<String>, usize>>,
    log_path: Option<PathBuf>,
}

impl MockModel {
    pub fn from_file(path: &Path, log_path: Option<PathBuf>) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|err| format!("Cannot read the mock model script {}: {err}", path.display()))?;
        Self::from_json(&text, log_path)
            .map_err(|err| format!("The mock model script {} is not valid: {err}", path.display()))
    }

    pub fn from_json(text: &str, log_path: Option<PathBuf>) -> Result<Self, String> {
        let script: Script = serde_json::from_str(text).map_err(|err| err.to_string())?;
        let responses = script.conversations.values().flat_map(|conversation| &conversation.responses);
        if script.responses.iter().chain(responses).any(|response| response.text.is_some() && response.parts.is_some())
        {
            return Err("a response gives its text as `text` or as `parts`, not both".to_string());
        }
        Ok(Self { script, cursors: Mutex::new(HashMap::new()), log_path })
    }

    /// The conversation's own script, when it has one: the key is its first message.
    fn conversation_key(&self, request: &ModelRequest) -> Option<String> {
        let first_prompt = request.messages.iter().find_map(|message| match message {
            ModelMessage::User { text, .. } => Some(text.clone()),
            _ => None,
        });
        first_prompt.filter(|prompt| self.script.conversations.contains_key(prompt))
    }

    /// The answer to a call that consumes no response: a title's or a summary's.
    fn aside(&self, purpose: CallPurpose) -> Result<MockResponse, String> {
        let text = match purpose {
            CallPurpose::Summary => self.script.summary.clone().ok_or("The mock model has no summary scripted.")?,
            _ => self.script.title.clone().ok_or("The mock model has no title scripted.")?,
        };
        Ok(MockResponse {
            text: Some(text),
            parts: None,
            tool_calls: Vec::new(),
            error: None,
            chunk_delay_ms: 0,
            stall: false,
        })
    }

    fn next_response(&self, request: &ModelRequest) -> Result<MockResponse, String> {
        let key = self.conversation_key(request);
        let responses = match &key {
            Some(prompt) => &self.script.conversations[prompt].responses,
            None => &self.script.responses,
        };
        let mut cursors = self.cursors.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let cursor = cursors.entry(key.clone()).or_default();
        let response = responses.get(*cursor).cloned();
        *cursor += 1;
        response.ok_or_else(|| match key {
            Some(prompt) => {
                format!("The mock model has no response left for the conversation \"{prompt}\" (call {}).", *cursor)
            }
            None => format!("The mock model has no response left (call {}, script has {}).", *cursor, responses.len()),
        })
    }
}

/// Splits text into a few chunks on character boundaries, so tests see a real stream.
fn chunks(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let size = chars.len().div_ceil(3).max(1);
    chars.chunks(size).map(|chunk| chunk.iter().collect()).collect()
}

fn events_for(response: MockResponse) -> Vec<ModelEvent> {
    let parts = response.parts.unwrap_or_else(|| chunks(response.text.as_deref().unwrap_or_default()));
    let text = parts.concat();
    let mut events: Vec<ModelEvent> = parts.into_iter().map(ModelEvent::TextDelta).collect();
    if response.stall {
        // The calls as far as the model wrote them, never finished.
        let pieces = response.tool_calls.into_iter().flat_map(|call| {
            let (id, name) = (call.id, call.name);
            call.input_parts.into_iter().flatten().map(move |piece| ModelEvent::ToolCallDelta {
                id: id.clone(),
                name: name.clone(),
                piece,
            })
        });
        events.extend(pieces);
        return events;
    }
    if let Some(error) = response.error {
        events.push(ModelEvent::Error(error));
        return events;
    }
    let reason = if response.tool_calls.is_empty() { FinishReason::Stop } else { FinishReason::ToolCalls };
    for call in response.tool_calls {
        let input = match call.input_parts {
            Some(pieces) => {
                let whole = pieces.concat();
                events.extend(pieces.into_iter().map(|piece| ModelEvent::ToolCallDelta {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    piece,
                }));
                serde_json::from_str(&whole).unwrap_or(Value::String(whole))
            }
            None => call.input,
        };
        events.push(ModelEvent::ToolCall(ToolCall { id: call.id, name: call.name, input }));
    }
    events.push(ModelEvent::Finish { reason, usage: Usage { input_tokens: 0, output_tokens: estimate_tokens(&text) } });
    events
}

async fn append_log(path: PathBuf, request: Value) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    let mut line = request.to_string();
    line.push('\n');
    let mut file = tokio::fs::OpenOptions::new().create(true).append(true).open(path).await?;
    file.write_all(line.as_bytes()).await?;
    // tokio writes in the background: flush so the line is on disk before the call streams.
    file.flush().await
}

impl ChatModel for MockModel {
    fn name(&self) -> &str {
        "mock"
    }

    fn stream(&self, request: ModelRequest) -> BoxStream<'static, ModelEvent> {
        let log_entry = self.log_path.clone().filter(|_| request.purpose != CallPurpose::Title).map(|path| {
            let mut entry = json!({"system": request.system, "messages": request.messages, "tools": request.tools});
            if request.purpose == CallPurpose::Summary {
                entry["purpose"] = "summary".into();
            }
            (path, entry)
        });
        let response = match request.purpose {
            CallPurpose::Turn => self.next_response(&request),
            purpose => self.aside(purpose),
        };
        let (events, delay, stall) = match response {
            Ok(response) => {
                let (delay, stall) = (Duration::from_millis(response.chunk_delay_ms), response.stall);
                (events_for(response), delay, stall)
            }
            Err(message) => (vec![ModelEvent::Error(message)], Duration::ZERO, false),
        };
        let logged = stream::once(async move {
            if let Some((path, entry)) = log_entry
                && let Err(err) = append_log(path, entry).await
            {
                tracing::warn!(%err, "cannot append to the mock model log");
            }
        });
        let events = stream::iter(events).then(move |event| async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            event
        });
        let silence = if stall { stream::pending().boxed() } else { stream::empty().boxed() };
        logged.filter_map(|()| async { None }).chain(events).chain(silence).boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(text: &str) -> ModelRequest {
        ModelRequest {
            messages: vec![ModelMessage::User { text: text.into(), parts: Vec::new() }],
            ..Default::default()
        }
    }

    async fn collect(model: &MockModel, request: ModelRequest) -> Vec<ModelEvent> {
        model.stream(request).collect().await
    }

    fn text_of(events: &[ModelEvent]) -> String {
        events
            .iter()
            .filter_map(|event| match event {
                ModelEvent::TextDelta(delta) => Some(delta.as_str()),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn consumes_responses_in_order_then_fails_clearly() {
        let model =
            MockModel::from_json(r#"{"responses": [{"text": "Hello there"}, {"error": "boom"}]}"#, None).unwrap();
        let first = collect(&model, user("hi")).await;
        assert_eq!(text_of(&first), "Hello there");
        assert!(first.len() > 2, "text arrives in several chunks");
        assert!(matches!(first.last(), Some(ModelEvent::Finish { reason: FinishReason::Stop, .. })));
        assert_eq!(collect(&model, user("hi")).await, vec![ModelEvent::Error("boom".into())]);
        let exhausted = collect(&model, user("hi")).await;
        assert!(matches!(&exhausted[..], [ModelEvent::Error(message)] if message.contains("no response left")));
    }

    #[tokio::test]
    async fn conversations_have_their_own_cursor() {
        let model = MockModel::from_json(
            r#"{"responses": [{"text": "global"}],
                "conversations": {"plan please": {"responses": [{"toolCalls": [{"id": "call_1", "name": "ask_choice", "input": {}}]}]}}}"#,
            None,
        )
        .unwrap();
        let events = collect(&model, user("plan please")).await;
        assert!(matches!(&events[0], ModelEvent::ToolCall(call) if call.id == "call_1"));
        assert!(matches!(events.last(), Some(ModelEvent::Finish { reason: FinishReason::ToolCalls, .. })));
        let global = collect(&model, user("anything else")).await;
        assert_eq!(text_of(&global), "global");
    }

    #[tokio::test]
    async fn parts_stream_as_given() {
        let model = MockModel::from_json(r#"{"responses": [{"parts": ["v: 1\n", "blocks:", "\n"]}]}"#, None).unwrap();
        let events = collect(&model, user("x")).await;
        let deltas: Vec<&ModelEvent> =
            events.iter().filter(|event| matches!(event, ModelEvent::TextDelta(_))).collect();
        assert_eq!(
            deltas,
            [
                &ModelEvent::TextDelta("v: 1\n".into()),
                &ModelEvent::TextDelta("blocks:".into()),
                &ModelEvent::TextDelta("\n".into())
            ]
        );
    }

    #[test]
    fn text_and_parts_together_are_refused() {
        let refused = MockModel::from_json(r#"{"responses": [{"text": "a", "parts": ["a"]}]}"#, None);
        assert!(refused.is_err_and(|err| err.contains("not both")));
    }

    #[tokio::test]
    async fn text_then_error_streams_the_text_first() {
        let model = MockModel::from_json(r#"{"responses": [{"text": "partial", "error": "cut"}]}"#, None).unwrap();
        let events = collect(&model, user("x")).await;
        assert!(matches!(&events[0], ModelEvent::TextDelta(_)));
        assert_eq!(events.last(), Some(&ModelEvent::Error("cut".into())));
    }

    #[test]
    fn rejects_unknown_fields() {
        assert!(MockModel::from_json(r#"{"responses": [{"txt": "typo"}]}"#, None).is_err());
    }
}
