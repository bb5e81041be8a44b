//! `openai:<model>`: any OpenAI-compatible Chat Completions server (OpenAI, Ollama, vLLM,
//! llama.cpp's server, LM Studio, most gateways), streamed, with function tools.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::http;
use super::http::{ReplyFolder, RetryPolicy};
use super::{
    ChatModel, ContentPart, FinishReason, ModelEvent, ModelMessage, ModelRequest, ToolCall, Usage, estimate_tokens,
};

pub struct OpenAiModel {
    name: String,
    model: String,
    base_url: String,
    api_key: Option<String>,
    client: reqwest::Client,
    retry: RetryPolicy,
}

impl OpenAiModel {
    pub fn new(model: &str, base_url: &str, api_key: Option<String>, retry: RetryPolicy) -> Self {
        OpenAiModel {
            name: format!("openai:{model}"),
            model: model.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key: api_key.filter(|key| !key.is_empty()),
            client: http::client(),
            retry,
        }
    }
}

/// The Chat Completions request body for `request`.
pub fn request_body(model: &str, request: &ModelRequest) -> Value {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    for message in &request.messages {
        match message {
            ModelMessage::User { text, parts } if parts.is_empty() => {
                messages.push(json!({"role": "user", "content": text}))
            }
            ModelMessage::User { text, parts } => {
                let mut content = vec![json!({"type": "text", "text": text})];
                content.extend(parts.iter().map(content_part));
                messages.push(json!({"role": "user", "content": content}));
            }
            ModelMessage::Assistant { text, tool_calls } => {
                let mut entry =
                    json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
                if !tool_calls.is_empty() {
                    entry["tool_calls"] = tool_calls
                        .iter()
                        .map(|call| {
                            json!({"id": call.id, "type": "function",
                                   "function": {"name": call.name, "arguments": call.input.to_string()}})
                        })
                        .collect();
                }
                messages.push(entry);
            }
            ModelMessage::Tool { tool_call_id, result, parts, .. } => {
                messages.push(json!({"role": "tool", "tool_call_id": tool_call_id, "content": result.to_string()}));
                // Tool messages carry text only: the answer's files follow as a user message.
                if !parts.is_empty() {
                    let mut content = vec![json!({"type": "text", "text": "The files of that answer:"})];
                    content.extend(parts.iter().map(content_part));
                    messages.push(json!({"role": "user", "content": content}));
                }
            }
        }
    }
    let mut body = json!({
        "model": model,
        "stream": true,
        "stream_options": {"include_usage": true},
        "messages": messages,
    });
    if let Some(temperature) = request.temperature() {
        body["temperature"] = json!(temperature);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| {
                let mut function =
                    json!({"name": tool.name, "description": tool.description, "parameters": tool.input_schema});
                if strict_compatible(&tool.input_schema) {
                    function["strict"] = json!(true);
                }
                json!({"type": "function", "function": function})
            })
            .collect();
    }
    body
}

fn content_part(part: &ContentPart) -> Value {
    match part {
        ContentPart::Text { text } => json!({"type": "text", "text": text}),
        ContentPart::ImageData { mime_type, data } => {
            json!({"type": "image_url", "image_url": {"url": format!("data:{mime_type};base64,{data}")}})
        }
        ContentPart::FileData { mime_type, filename, data } => {
            json!({"type": "file", "file": {"filename": filename, "file_data": format!("data:{mime_type};base64,{data}")}})
        }
    }
}

/// Strict mode needs every object closed and every property required; the optional fields of
/// most ask schemas rule it out, so only schemas that already are strict get it.
pub fn strict_compatible(schema: &Value) -> bool {
    match schema {
        Value::Object(object) => {
            let is_object = object.get("type") == Some(&json!("object"));
            if is_object {
                let properties = object.get("properties").and_then(Value::as_object);
                let required: Vec<&str> = object
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .collect();
                let closed = object.get("additionalProperties") == Some(&json!(false));
                let all_required =
                    properties.is_none_or(|properties| properties.keys().all(|key| required.contains(&key.as_str())));
                if !(closed && all_required) {
                    return false;
                }
            }
            object.values().all(strict_compatible)
        }
        Value::Array(items) => items.iter().all(strict_compatible),
        _ => true,
    }
}

/// A tool call being streamed: its id and name arrive once, its arguments in pieces.
#[derive(Default)]
struct PartialCall {
    id: String,
    name: String,
    arguments: String,
}

impl PartialCall {
    /// Arguments that are not a JSON object reach the turn as they came, as a string, so the
    /// tool's own validation tells the model what was wrong.
    fn finish(self) -> ToolCall {
        let input = match serde_json::from_str::<Value>(&self.arguments) {
            Ok(value) => value,
            Err(_) if self.arguments.trim().is_empty() => json!({}),
            Err(_) => Value::String(self.arguments),
        };
        ToolCall { id: self.id, name: self.name, input }
    }
}

/// Folds the stream's chunks into events: text as it comes, tool calls and the finish at the end.
#[derive(Default)]
pub struct ChunkReader {
    calls: BTreeMap<u64, PartialCall>,
    finish: Option<FinishReason>,
    usage: Option<Usage>,
    /// For servers that report no usage (llama.cpp's, some gateways): the request's size in
    /// estimated tokens, and the reply's text, estimated at the end.
    estimated_input: u32,
    text: String,
}

impl ChunkReader {
    pub fn new(estimated_input: u32) -> Self {
        ChunkReader { estimated_input, ..ChunkReader::default() }
    }
}

impl ReplyFolder for ChunkReader {
    fn read(&mut self, data: &str) -> Result<Vec<ModelEvent>, String> {
        if data.trim() == "[DONE]" {
            return Ok(Vec::new());
        }
        let chunk: Value =
            serde_json::from_str(data).map_err(|err| format!("The model server sent an unreadable event: {err}."))?;
        if http::says_context_too_long(&chunk["error"]) {
            return Err(super::CONTEXT_TOO_LONG.to_string());
        }
        if let Some(message) = chunk["error"]["message"].as_str() {
            return Err(format!("The model server reported an error: {message}"));
        }
        if let Some(usage) = chunk.get("usage").filter(|usage| usage.is_object()) {
            self.usage = Some(Usage {
                input_tokens: http::token_count(&usage["prompt_tokens"]),
                output_tokens: http::token_count(&usage["completion_tokens"]),
            });
        }
        let Some(choice) = chunk["choices"].get(0) else { return Ok(Vec::new()) };
        let mut streamed = Vec::new();
        for delta in choice["delta"]["tool_calls"].as_array().into_iter().flatten() {
            let call = self.calls.entry(delta["index"].as_u64().unwrap_or(0)).or_default();
            if let Some(id) = delta["id"].as_str() {
                call.id = id.to_string();
            }
            if let Some(name) = delta["function"]["name"].as_str() {
                call.name.push_str(name);
            }
            if let Some(arguments) = delta["function"]["arguments"].as_str().filter(|piece| !piece.is_empty()) {
                call.arguments.push_str(arguments);
                streamed.push(ModelEvent::ToolCallDelta {
                    id: call.id.clone(),
                    name: call.name.clone(),
                    piece: arguments.to_string(),
                });
            }
        }
        match choice["finish_reason"].as_str() {
            Some("tool_calls" | "function_call") => self.finish = Some(FinishReason::ToolCalls),
            Some("length") => self.finish = Some(FinishReason::Length),
            Some("content_filter") => return Err("The model server withheld the reply (content filter).".into()),
            Some(_) => self.finish = Some(FinishReason::Stop),
            None => {}
        }
        if let Some(text) = choice["delta"]["content"].as_str().filter(|text| !text.is_empty()) {
            self.text.push_str(text);
            streamed.push(ModelEvent::TextDelta(text.to_string()));
        }
        Ok(streamed)
    }

    fn end(self) -> Result<(Vec<ToolCall>, FinishReason, Usage), String> {
        let finish = self.finish.ok_or("The model server's reply ended before it finished.")?;
        let arguments: String = self.calls.values().map(|call| call.arguments.as_str()).collect();
        let usage = self.usage.unwrap_or_else(|| Usage {
            input_tokens: self.estimated_input,
            output_tokens: estimate_tokens(&self.text) + estimate_tokens(&arguments),
        });
        let calls: Vec<ToolCall> = self.calls.into_values().map(PartialCall::finish).collect();
        let finish = if calls.is_empty() { finish } else { FinishReason::ToolCalls };
        Ok((calls, finish, usage))
    }
}

impl ChatModel for OpenAiModel {
    fn name(&self) -> &str {
        &self.name
    }

    fn stream(&self, request: ModelRequest) -> futures::stream::BoxStream<'static, ModelEvent> {
        let body = request_body(&self.model, &request);
        let url = format!("{}/chat/completions", self.base_url);
        let reader = ChunkReader::new(estimate_tokens(&body.to_string()));
        let (client, api_key, retry) = (self.client.clone(), self.api_key.clone(), self.retry);
        let build = move || {
            let request = client.post(&url).json(&body);
            match &api_key {
                Some(key) => request.bearer_auth(key),
                None => request,
            }
        };
        http::stream_call(build, retry, "The model server", reader)
    }
}
