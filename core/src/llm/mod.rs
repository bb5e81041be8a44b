//! The model seam: one trait for a streaming chat model with tools, and its providers.
//!
//! The turn runner only ever talks to [`ChatModel`]; which provider stands behind it is a
//! start-up choice (`PALAVER_MODEL`, and the choices of `PALAVER_MODELS` a conversation may pick).

mod anthropic;
mod demo;
mod demo_asks;
pub(crate) mod demo_documents;
mod http;
mod mock;
mod models;
mod openai;

use std::sync::Arc;

use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use anthropic::AnthropicModel;
pub use demo::DemoModel;
pub use http::RetryPolicy;
pub use mock::MockModel;
pub use models::{ModelChoice, Models};
pub use openai::OpenAiModel;

/// One message of the conversation as the model sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum ModelMessage {
    User {
        text: String,
        /// Files sent with the message, after its text.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        parts: Vec<ContentPart>,
    },
    Assistant {
        #[serde(default, skip_serializing_if = "String::is_empty")]
        text: String,
        #[serde(default, rename = "toolCalls", skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    Tool {
        #[serde(rename = "toolCallId")]
        tool_call_id: String,
        #[serde(rename = "toolName")]
        tool_name: String,
        result: Value,
        /// Files the result carries (an answered `files` ask), after the JSON result.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        parts: Vec<ContentPart>,
    },
}

/// The calls of the last step in `messages` that no tool result answers yet.
pub fn unanswered_calls(messages: &[ModelMessage]) -> Vec<&ToolCall> {
    let answered: Vec<&str> = messages
        .iter()
        .filter_map(|message| match message {
            ModelMessage::Tool { tool_call_id, .. } => Some(tool_call_id.as_str()),
            _ => None,
        })
        .collect();
    let step = messages.iter().rev().find_map(|message| match message {
        ModelMessage::Assistant { tool_calls, .. } if !tool_calls.is_empty() => Some(tool_calls),
        _ => None,
    });
    step.into_iter().flatten().filter(|call| !answered.contains(&call.id.as_str())).collect()
}

impl ModelMessage {
    /// A tool result with no file parts.
    pub fn tool(tool_call_id: impl Into<String>, tool_name: impl Into<String>, result: Value) -> Self {
        ModelMessage::Tool { tool_call_id: tool_call_id.into(), tool_name: tool_name.into(), result, parts: Vec::new() }
    }
}

/// A piece of a tool result beyond its JSON: text, or a file's bytes (base64).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ContentPart {
    Text {
        text: String,
    },
    ImageData {
        #[serde(rename = "mimeType")]
        mime_type: String,
        data: String,
    },
    FileData {
        #[serde(rename = "mimeType")]
        mime_type: String,
        filename: String,
        data: String,
    },
}

/// A tool call the model made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub input: Value,
}

/// A tool the model may call: its input is described by a JSON Schema.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
}

/// Everything one model call receives.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ModelRequest {
    pub system: String,
    pub messages: Vec<ModelMessage>,
    pub tools: Vec<ToolDefinition>,
    #[serde(skip)]
    pub purpose: CallPurpose,
}

/// What a model call is for: a step of a turn, a conversation's title, or the summary of its
/// earlier messages (when they no longer fit the model's context).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CallPurpose {
    #[default]
    Turn,
    Title,
    Summary,
}

impl ModelRequest {
    /// The sampling temperature the call asks for: titles (and summaries) at 0.3, as the
    /// reference makes titles; a turn leaves the provider's default.
    pub fn temperature(&self) -> Option<f64> {
        match self.purpose {
            CallPurpose::Turn => None,
            CallPurpose::Title | CallPurpose::Summary => Some(0.3),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishReason {
    Stop,
    ToolCalls,
    Length,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
}

/// What a model call streams back. A call ends with exactly one `Finish` or `Error`.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelEvent {
    TextDelta(String),
    /// A piece of a tool call's arguments as they stream (the whole call follows as `ToolCall`).
    ToolCallDelta {
        id: String,
        name: String,
        piece: String,
    },
    ToolCall(ToolCall),
    Finish {
        reason: FinishReason,
        usage: Usage,
    },
    Error(String),
}

/// A streaming chat model with tools.
pub trait ChatModel: Send + Sync {
    /// A short name for logs and the request log (`demo`, `mock`, `openai:gpt-4o`, …).
    fn name(&self) -> &str;
    fn stream(&self, request: ModelRequest) -> BoxStream<'static, ModelEvent>;
}

/// A call's whole text and usage, for calls whose text is used only once it is all there (a
/// repair, a title); the model's error when it fails. Tool calls are ignored.
pub async fn whole_text(model: &dyn ChatModel, request: ModelRequest) -> Result<(String, Usage), String> {
    use futures::StreamExt;
    let mut stream = model.stream(request);
    let mut text = String::new();
    while let Some(event) = stream.next().await {
        match event {
            ModelEvent::TextDelta(delta) => text.push_str(&delta),
            ModelEvent::Finish { usage, .. } => return Ok((text, usage)),
            ModelEvent::Error(message) => return Err(message),
            ModelEvent::ToolCall(_) | ModelEvent::ToolCallDelta { .. } => {}
        }
    }
    Err("The model's stream ended before it finished.".into())
}

/// OpenAI's own endpoint, the default for `openai:<model>`.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// Anthropic's endpoint, the default for `anthropic:<model>`.
pub const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";

/// What a model says when the conversation it was sent is longer than it reads (OpenAI's
/// `context_length_exceeded`, Anthropic's `prompt is too long`): the turn shrinks what it sends
/// and tries once more, and shows this, never the provider's words, when that fails too.
pub const CONTEXT_TOO_LONG: &str = "This conversation has grown too long for the model to read, even with its \
earlier messages summarised. Start a new conversation, or pick a model that reads more.";

/// Where the hosted providers are and how to sign in to them.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderSettings {
    pub openai_base_url: String,
    pub openai_api_key: Option<String>,
    pub anthropic_base_url: String,
    pub anthropic_api_key: Option<String>,
    pub retry: RetryPolicy,
    /// The context budget (tokens) of every model whose entry names none
    /// (`PALAVER_CONTEXT_TOKENS`); unset, each model's family default.
    pub context_tokens: Option<u32>,
}

impl Default for ProviderSettings {
    fn default() -> Self {
        ProviderSettings {
            openai_base_url: OPENAI_BASE_URL.into(),
            openai_api_key: None,
            anthropic_base_url: ANTHROPIC_BASE_URL.into(),
            anthropic_api_key: None,
            retry: RetryPolicy::default(),
            context_tokens: None,
        }
    }
}

/// Builds the model named by `PALAVER_MODEL`: `demo`, `mock:<path>`, `openai:<model>` or
/// `anthropic:<model>`.
pub fn model_from_spec(
    spec: &str,
    mock_log: Option<std::path::PathBuf>,
    providers: &ProviderSettings,
) -> Result<Arc<dyn ChatModel>, String> {
    match spec.split_once(':') {
        None if spec == "demo" => Ok(Arc::new(DemoModel)),
        Some(("mock", path)) => Ok(Arc::new(MockModel::from_file(path.as_ref(), mock_log)?)),
        Some(("openai", model)) if !model.is_empty() => Ok(Arc::new(OpenAiModel::new(
            model,
            &providers.openai_base_url,
            providers.openai_api_key.clone(),
            providers.retry,
        ))),
        Some(("anthropic", model)) if !model.is_empty() => {
            let key = providers
                .anthropic_api_key
                .clone()
                .filter(|key| !key.is_empty())
                .ok_or("anthropic:<model> needs PALAVER_ANTHROPIC_API_KEY.")?;
            Ok(Arc::new(AnthropicModel::new(model, &providers.anthropic_base_url, key, providers.retry)))
        }
        _ => Err(format!(
            "Unknown model \"{spec}\". Use \"demo\", \"mock:<path to a JSON script>\", \"openai:<model>\" or \"anthropic:<model>\"."
        )),
    }
}

/// Rough token count for providers that do not report usage (about four characters a token).
pub(crate) fn estimate_tokens(text: &str) -> u32 {
    u32::try_from(text.chars().count().div_ceil(4)).unwrap_or(u32::MAX)
}
