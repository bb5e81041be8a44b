//! `anthropic:<model>`: Anthropic's Messages API, streamed, with `tool_use` / `tool_result`
//! blocks and images.

use serde_json::{Value, json};

use super::http;
use super::http::{ReplyFolder, RetryPolicy};
use super::{ChatModel, ContentPart, FinishReason, ModelEvent, ModelMessage, ModelRequest, ToolCall, Usage};

const API_VERSION: &str = "2023-06-01";
/// The most tokens one reply may have (the API requires a cap).
const MAX_TOKENS: u32 = 4096;

pub struct AnthropicModel {
    name: String,
    model: String,
    base_url: String,
    api_key: String,
    client: reqwest::Client,
    retry: RetryPolicy,
}

impl AnthropicModel {
    pub fn new(model: &str, base_url: &str, api_key: String, retry: RetryPolicy) -> Self {
        AnthropicModel {
            name: format!("anthropic:{model}"),
            model: model.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            client: http::client(),
            retry,
        }
    }
}

/// The Messages request body for `request`. Roles must alternate, so consecutive user-side
/// messages (tool results, then a prompt) share one user message.
pub fn request_body(model: &str, request: &ModelRequest) -> Value {
    let mut messages: Vec<Value> = Vec::new();
    let mut push = |role: &str, content: Vec<Value>| match messages.last_mut() {
        Some(last) if last["role"] == role => {
            if let Some(blocks) = last["content"].as_array_mut() {
                blocks.extend(content);
            }
        }
        _ => messages.push(json!({"role": role, "content": content})),
    };
    for message in &request.messages {
        match message {
            ModelMessage::User { text, parts } => {
                let mut content = vec![json!({"type": "text", "text": text})];
                content.extend(parts.iter().map(content_part));
                push("user", content)
            }
            ModelMessage::Assistant { text, tool_calls } => {
                let mut content = Vec::new();
                if !text.is_empty() {
                    content.push(json!({"type": "text", "text": text}));
                }
                content.extend(tool_calls.iter().map(|call| {
                    let input = if call.input.is_object() { call.input.clone() } else { json!({}) };
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input})
                }));
                push("assistant", content);
            }
            ModelMessage::Tool { tool_call_id, result, parts, .. } => {
                let mut content = vec![json!({"type": "text", "text": result.to_string()})];
                content.extend(parts.iter().map(content_part));
                push("user", vec![json!({"type": "tool_result", "tool_use_id": tool_call_id, "content": content})]);
            }
        }
    }
    let mut body = json!({
        "model": model,
        "max_tokens": MAX_TOKENS,
        "stream": true,
        "system": request.system,
        "messages": messages,
    });
    if let Some(temperature) = request.temperature() {
        body["temperature"] = json!(temperature);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| json!({"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}))
            .collect();
    }
    body
}

fn content_part(part: &ContentPart) -> Value {
    match part {
        ContentPart::Text { text } => json!({"type": "text", "text": text}),
        ContentPart::ImageData { mime_type, data } => {
            json!({"type": "image", "source": {"type": "base64", "media_type": mime_type, "data": data}})
        }
        ContentPart::FileData { mime_type, data, .. } => {
            json!({"type": "document", "source": {"type": "base64", "media_type": mime_type, "data": data}})
        }
    }
}

/// A content block being streamed.
enum Block {
    Text,
    ToolUse { id: String, name: String, json: String },
}

/// Folds the stream's events into model events.
#[derive(Default)]
pub struct EventFolder {
    blocks: std::collections::BTreeMap<u64, Block>,
    calls: Vec<ToolCall>,
    finish: Option<FinishReason>,
    usage: Usage,
    stopped: bool,
}

impl ReplyFolder for EventFolder {
    fn read(&mut self, data: &str) -> Result<Vec<ModelEvent>, String> {
        let event: Value =
            serde_json::from_str(data).map_err(|err| format!("Anthropic sent an unreadable event: {err}."))?;
        let index = event["index"].as_u64().unwrap_or(0);
        match event["type"].as_str().unwrap_or_default() {
            "message_start" => self.usage.input_tokens = http::token_count(&event["message"]["usage"]["input_tokens"]),
            "content_block_start" => {
                let block = &event["content_block"];
                let started = match block["type"].as_str() {
                    Some("tool_use") => Block::ToolUse {
                        id: block["id"].as_str().unwrap_or_default().to_string(),
                        name: block["name"].as_str().unwrap_or_default().to_string(),
                        json: String::new(),
                    },
                    _ => Block::Text,
                };
                self.blocks.insert(index, started);
            }
            "content_block_delta" => {
                let delta = &event["delta"];
                match (delta["type"].as_str(), self.blocks.get_mut(&index)) {
                    (Some("text_delta"), _) => {
                        return Ok(delta["text"]
                            .as_str()
                            .map(|text| ModelEvent::TextDelta(text.to_string()))
                            .into_iter()
                            .collect());
                    }
                    (Some("input_json_delta"), Some(Block::ToolUse { id, name, json })) => {
                        let piece = delta["partial_json"].as_str().unwrap_or_default();
                        json.push_str(piece);
                        if !piece.is_empty() {
                            return Ok(vec![ModelEvent::ToolCallDelta {
                                id: id.clone(),
                                name: name.clone(),
                                piece: piece.into(),
                            }]);
                        }
                    }
                    _ => {}
                }
            }
            "content_block_stop" => {
                if let Some(Block::ToolUse { id, name, json }) = self.blocks.remove(&index) {
                    let input = match serde_json::from_str::<Value>(&json) {
                        Ok(value) => value,
                        Err(_) if json.trim().is_empty() => json!({}),
                        Err(_) => Value::String(json),
                    };
                    self.calls.push(ToolCall { id, name, input });
                }
            }
            "message_delta" => {
                self.finish = Some(match event["delta"]["stop_reason"].as_str() {
                    Some("tool_use") => FinishReason::ToolCalls,
                    Some("max_tokens") => FinishReason::Length,
                    _ => FinishReason::Stop,
                });
                self.usage.output_tokens = http::token_count(&event["usage"]["output_tokens"]);
            }
            "message_stop" => self.stopped = true,
            "error" if http::says_context_too_long(&event["error"]) => {
                return Err(super::CONTEXT_TOO_LONG.to_string());
            }
            "error" => {
                let message = event["error"]["message"].as_str().unwrap_or("unknown error");
                return Err(format!("Anthropic reported an error: {message}"));
            }
            _ => {}
        }
        Ok(Vec::new())
    }

    fn end(self) -> Result<(Vec<ToolCall>, FinishReason, Usage), String> {
        match (self.stopped, self.finish) {
            (true, Some(finish)) => Ok((self.calls, finish, self.usage)),
            _ => Err("The Anthropic reply ended before it finished.".into()),
        }
    }
}

impl ChatModel for AnthropicModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn stream(&self, request: ModelRequest) -> futures::stream::BoxStream<'static, ModelEvent> {
        let body = request_body(&self.model, &request);
        let url = format!("{}/v1/messages", self.base_url);
        let (client, api_key, retry) = (self.client.clone(), self.api_key.clone(), self.retry);
        let build = move || {
            client.post(&url).header("x-api-key", &api_key).header("anthropic-version", API_VERSION).json(&body)
        };
        http::stream_call(build, retry, "Anthropic", EventFolder::default())
    }
}
