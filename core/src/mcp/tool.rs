//! One MCP tool as a Palaver host tool: its model-facing name, its approval (the server's
//! rule and the tool's hints), the call (with its timeout; dropping it sends
//! `notifications/cancelled`) and its result as the model sees it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams, ContentBlock, GetTaskParams,
    InputRequest, ResourceContents, TaskPayload, Tool, UpdateTaskParams,
};
use rmcp::service::{Peer, RoleClient};
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};

use super::config::{ApprovalRule, GrantRule};
use super::server::{CallSlot, ServerLink};
use super::ui_meta::{self, Audience};
use crate::llm::ContentPart;
use crate::turn::tools::input::{InputAnswers, InputRequired, MAX_INPUT_ROUNDS};
use crate::turn::tools::{CallNews, HostTool, ToolContext, ToolOutput, ToolReply, ToolRun};
use palaver_contract::text::shorten;
use palaver_wire::impact::ToolHints;
use palaver_wire::words::tool_words;

/// The providers' rule for tool names: 1–64 of `[a-zA-Z0-9_-]`.
const TOOL_NAME_MAX: usize = 64;
/// The most text of one result the model is given.
pub const OUTPUT_MAX_BYTES: usize = 100 * 1024;
/// The largest image (as base64) a result passes to the model: the providers refuse more
/// (Anthropic takes 5 MB an image).
const IMAGE_MAX_BASE64_BYTES: usize = 5 * 1024 * 1024;
/// How often a call waiting on the user's answer looks at its timeout again.
const ASKING_POLL: Duration = Duration::from_secs(1);
/// How often a task is looked at, at first and at most, when its server does not say.
const FIRST_POLL: Duration = Duration::from_millis(100);
const LAST_POLL: Duration = Duration::from_secs(5);
/// How long a call waits before it is sent again with only the server's state, times the round.
const STATE_ONLY_PAUSE: Duration = Duration::from_millis(100);

/// `<server>__<tool>`, with any other character made `_` and cut to the providers' 64.
fn model_tool_name(server: &str, tool: &str) -> String {
    let name: String = format!("{server}__{tool}")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    name.chars().take(TOOL_NAME_MAX).collect()
}

pub struct McpTool {
    name: String,
    description: String,
    input_schema: Value,
    tool: Tool,
    link: Arc<ServerLink>,
}

impl McpTool {
    pub fn new(link: Arc<ServerLink>, tool: Tool) -> Self {
        let server = &link.config.name;
        let description = match tool.description.as_deref().map(str::trim).filter(|text| !text.is_empty()) {
            Some(text) => format!("{text} (MCP server {server})"),
            None => format!("The {} tool of the MCP server {server}.", tool.name),
        };
        McpTool {
            name: model_tool_name(server, &tool.name),
            description,
            input_schema: Value::Object(tool.input_schema.as_ref().clone()),
            tool,
            link,
        }
    }

    /// Whether the server marks the tool read-only (`readOnlyHint: true`): its word, not a proof.
    pub fn read_only(&self) -> bool {
        self.tool.annotations.as_ref().and_then(|hints| hints.read_only_hint) == Some(true)
    }

    fn destructive(&self) -> bool {
        self.tool.annotations.as_ref().and_then(|hints| hints.destructive_hint) == Some(true)
    }

    /// Whether the tool is offered to `audience`: an MCP Apps tool whose `_meta.ui.visibility`
    /// leaves out `"model"` is for its app's view alone, and one that leaves out `"app"` the
    /// model's alone.
    pub fn visible_to(&self, audience: Audience) -> bool {
        ui_meta::visible_to(&self.tool, audience)
    }

    /// The `ui://` resource of the tool's MCP App, when it has one.
    pub fn app_uri(&self) -> Option<&str> {
        ui_meta::app_uri(&self.tool)
    }

    pub fn server_name(&self) -> &str {
        &self.link.config.name
    }

    pub fn peer(&self) -> Option<Peer<RoleClient>> {
        self.link.peer()
    }

    /// Takes the server for a call that asks the person nothing (an app's).
    pub async fn begin_call(&self) -> Result<CallSlot, String> {
        self.link.begin_call(None).await
    }

    /// How long a call on the tool's server may take.
    pub fn timeout(&self) -> Duration {
        self.link.config.timeout
    }

    /// Cancels a task nobody will follow, on the tool's server.
    pub fn abandon_task(&self, task_id: String) {
        match self.link.peer() {
            Some(peer) => cancel_task_later(peer, task_id),
            None => tracing::warn!(
                server = self.link.config.name,
                "a task left unanswered could not be cancelled: the server is not connected"
            ),
        }
    }

    /// Whether a call waits for the user's approval, by the server's rule.
    pub fn needs_approval(&self) -> bool {
        match self.link.config.approval {
            ApprovalRule::Always => true,
            ApprovalRule::Never => false,
            ApprovalRule::UnlessReadOnly => !self.read_only(),
        }
    }

    pub fn mcp_name(&self) -> &str {
        &self.tool.name
    }
}

impl HostTool for McpTool {
    fn name(&self) -> &str {
        &self.name
    }

    /// The tool's `title`, else its annotations' (the older place for it).
    fn title(&self) -> Option<String> {
        let annotated = || self.tool.annotations.as_ref().and_then(|hints| hints.title.clone());
        self.tool.title.clone().or_else(annotated)
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.input_schema.clone()
    }

    fn hints(&self) -> Option<ToolHints> {
        let hints = self.tool.annotations.as_ref()?;
        let stated = ToolHints {
            read_only: hints.read_only_hint,
            destructive: hints.destructive_hint,
            idempotent: hints.idempotent_hint,
            open_world: hints.open_world_hint,
        };
        (stated != ToolHints::default()).then_some(stated)
    }

    /// A server whose rule is `always` wants every call approved, and one configured with
    /// `"grants": "never"` offers no grant: no grant covers their calls.
    fn grantable(&self) -> bool {
        self.link.config.approval != ApprovalRule::Always && self.link.config.grants == GrantRule::Offer
    }

    /// A server may ignore a key it does not know, so a call with one is never run, whatever
    /// the tool's schema says (see `turn::tools::call_keys`).
    fn takes_unnamed_arguments(&self) -> bool {
        false
    }

    fn server(&self) -> Option<&str> {
        Some(&self.link.config.name)
    }

    fn links_app(&self) -> bool {
        self.app_uri().is_some()
    }

    /// The arguments are not in the prompt: the approval carries them whole, and the card
    /// shows each on its own row (`AskEvent::arguments`).
    fn approval(&self, _input: &Value) -> Option<Value> {
        if !self.needs_approval() {
            return None;
        }
        let server = &self.link.config.name;
        let shown = tool_words(&self.tool.name, self.title().as_deref());
        let prompt = format!("Run {shown} on the MCP server \"{server}\"?");
        Some(json!({
            "title": shorten(&format!("{shown} ({server})"), 80),
            "prompt": shorten(&prompt, 500),
            "confirmLabel": "Run",
            "denyLabel": "Don't run",
            "destructive": self.destructive(),
        }))
    }

    fn abandon(&self, input: &InputRequired) {
        if let Some(task_id) = &input.task_id {
            self.abandon_task(task_id.clone());
        }
    }

    fn execute(&self, context: ToolContext, input: Value) -> ToolRun {
        let link = self.link.clone();
        let name = self.tool.name.clone();
        Box::pin(async move {
            let server = link.config.name.clone();
            let mut params = match input {
                Value::Object(arguments) => CallToolRequestParams::new(name).with_arguments(arguments),
                Value::Null => CallToolRequestParams::new(name),
                _ => return Err("The tool's arguments must be an object.".into()),
            };
            let news = context.news;
            let mut slot = link.begin_call(context.questions).await?;
            let peer = link.peer().ok_or_else(|| format!("The MCP server \"{server}\" is not connected."))?;
            let timeout = link.config.timeout;
            let started = Instant::now();
            // Dropping the call (a stop, or the timeout) sends `notifications/cancelled`, or
            // `tasks/cancel` for a task.
            let call = async {
                match context.answers {
                    // The answers a task waits on go to it, and it is followed on (with none, it
                    // is followed again after a restart).
                    Some(InputAnswers { responses, task_id: Some(task_id), .. }) => {
                        let answered: Vec<String> = responses.keys().cloned().collect();
                        if !responses.is_empty() {
                            let update = UpdateTaskParams::new(task_id.clone(), responses.into_iter().collect());
                            peer.update_task(update).await.map_err(|err| err.to_string())?;
                        }
                        follow_task(&peer, task_id, &answered, news.as_ref()).await
                    }
                    // A call sent again with the person's answers: the same call, plus the
                    // answers and the server's state exactly as it came.
                    Some(InputAnswers { responses, request_state, task_id: None }) => {
                        params.input_responses = Some(responses.into_iter().collect());
                        params.request_state = request_state;
                        send(&peer, params, news.as_ref()).await
                    }
                    None => send(&peer, params, news.as_ref()).await,
                }
            };
            tokio::pin!(call);
            loop {
                // The time the user spends answering the server's questions does not count.
                let wake = if slot.is_asking() {
                    Instant::now() + ASKING_POLL
                } else {
                    started + timeout + slot.time_asking()
                };
                tokio::select! {
                    reply = &mut call => {
                        slot.finish();
                        return reply.map_err(|err| format!("The MCP server \"{server}\" failed the call: {err}"));
                    }
                    _ = tokio::time::sleep_until(wake.into()) => {
                        if !slot.is_asking() && Instant::now() >= started + timeout + slot.time_asking() {
                            return Err(format!(
                                "The MCP server \"{server}\" did not answer within {} s; the call was cancelled.",
                                timeout.as_secs_f64()
                            ));
                        }
                    }
                }
            }
        })
    }
}

/// Sends a call, and sends it again with the server's state alone while it asks the person
/// nothing (a server that sheds load), waiting a little longer each time; ends with the
/// result, or with what the server needs from the person.
async fn send(
    peer: &Peer<RoleClient>,
    mut params: CallToolRequestParams,
    news: Option<&mpsc::Sender<CallNews>>,
) -> Result<ToolReply, String> {
    for round in 1..=MAX_INPUT_ROUNDS {
        let asked = match peer.call_tool_once(params.clone()).await.map_err(|err| err.to_string())? {
            CallToolResponse::Complete(result) => return Ok(ToolReply::Done(tool_output(result))),
            CallToolResponse::InputRequired(asked) => asked,
            CallToolResponse::Task(created) => return follow_task(peer, created.task.task_id, &[], news).await,
            _ => return Err("it answered in a way Palaver does not know".into()),
        };
        let requests = as_json(asked.input_requests.unwrap_or_default())?;
        if !requests.is_empty() {
            let input = InputRequired { requests, request_state: asked.request_state, task_id: None };
            return Ok(ToolReply::NeedsInput(input));
        }
        if asked.request_state.is_none() {
            return Err("it needs input but said neither what nor where it stands".into());
        }
        (params.input_responses, params.request_state) = (None, asked.request_state);
        tokio::time::sleep(STATE_ONLY_PAUSE * round).await;
    }
    Err(format!("it asked for its own state back {MAX_INPUT_ROUNDS} times without finishing"))
}

/// A server's input requests, by key, as the JSON the turn stores with its ask.
fn as_json(requests: impl IntoIterator<Item = (String, InputRequest)>) -> Result<Vec<(String, Value)>, String> {
    requests
        .into_iter()
        .map(|(key, request)| Ok((key, serde_json::to_value(request)?)))
        .collect::<Result<_, serde_json::Error>>()
        .map_err(|err| err.to_string())
}

/// Follows a task (the tasks extension) until it ends or needs the person: `tasks/get` at the
/// interval the server asks for, else less and less often. The turn is told of the task first
/// (and stores it), then of each new `statusMessage`. `answered`: the requests just answered,
/// which a server may still list until it has read the answers (once it has moved on, the same
/// key is a new question).
async fn follow_task(
    peer: &Peer<RoleClient>,
    task_id: String,
    mut answered: &[String],
    news: Option<&mpsc::Sender<CallNews>>,
) -> Result<ToolReply, String> {
    let mut task = FollowedTask { peer: peer.clone(), task_id: task_id.clone(), settled: false };
    if let Some(news) = news {
        let (stored, is_stored) = oneshot::channel();
        if news.send(CallNews::Task { task_id: task_id.clone(), stored }).await.is_ok() {
            let _ = is_stored.await;
        }
    }
    let mut wait = FIRST_POLL;
    let mut said: Option<String> = None;
    loop {
        let got = peer.get_task(GetTaskParams::new(task_id.clone())).await.map_err(|err| err.to_string())?;
        let asked_wait = got.task.task.poll_interval_ms.map(Duration::from_millis);
        if let (Some(news), Some(message)) = (news, &got.task.task.status_message)
            && said.as_ref() != Some(message)
        {
            // Advisory: while the turn has not taken the last one, this one waits for the next look.
            if news.try_send(CallNews::Status(message.clone())).is_ok() {
                said = Some(message.clone());
            }
        }
        match got.task.payload {
            TaskPayload::InputRequired { input_requests } => {
                let requests = as_json(input_requests.into_iter().filter(|(key, _)| !answered.contains(key)))?;
                if !requests.is_empty() {
                    // The task waits on the server for the answers: it is not cancelled.
                    task.settled = true;
                    let input = InputRequired { requests, request_state: None, task_id: Some(task_id) };
                    return Ok(ToolReply::NeedsInput(input));
                }
            }
            TaskPayload::Completed { result } => {
                task.settled = true;
                let result: CallToolResult = serde_json::from_value(Value::Object(result))
                    .map_err(|err| format!("its result is unreadable: {err}"))?;
                return Ok(ToolReply::Done(tool_output(result)));
            }
            TaskPayload::Failed { error } => {
                task.settled = true;
                let message = error.get("message").and_then(Value::as_str).unwrap_or("no reason given");
                return Err(format!("its task failed: {message}"));
            }
            TaskPayload::Cancelled => {
                task.settled = true;
                return Err("it cancelled the task".into());
            }
            _ => answered = &[],
        }
        tokio::time::sleep(asked_wait.unwrap_or(wait).clamp(FIRST_POLL, LAST_POLL)).await;
        wait = (wait * 2).min(LAST_POLL);
    }
}

/// A task being followed: dropped unsettled (a stop, or the call's timeout), it is cancelled
/// on the server (`tasks/cancel`), from a task of its own since a drop cannot wait.
struct FollowedTask {
    peer: Peer<RoleClient>,
    task_id: String,
    settled: bool,
}

impl Drop for FollowedTask {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        cancel_task_later(self.peer.clone(), std::mem::take(&mut self.task_id));
    }
}

/// Sends `tasks/cancel` from a task of its own (a drop cannot wait), when there is a runtime.
fn cancel_task_later(peer: Peer<RoleClient>, task_id: String) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
    runtime.spawn(async move {
        if let Err(err) = peer.cancel_task(CancelTaskParams::new(task_id)).await {
            tracing::warn!(%err, "a task Palaver let go of could not be cancelled");
        }
    });
}

/// A call's result as the model sees it: text joined, images as image parts, structured
/// content as JSON, `isError` as the tool's error, and output over 100 KB cut with a note.
fn tool_output(result: CallToolResult) -> ToolOutput {
    let mut texts = Vec::new();
    let mut parts = Vec::new();
    for block in result.content {
        match block {
            ContentBlock::Text(content) => texts.push(content.text),
            ContentBlock::Image(image) if image.data.len() > IMAGE_MAX_BASE64_BYTES => texts.push(format!(
                "[image: {}, {} KB, too large to show the model]",
                image.mime_type,
                image.data.len() * 3 / 4 / 1024
            )),
            ContentBlock::Image(image) => {
                texts.push(format!("[image: {}]", image.mime_type));
                parts.push(ContentPart::ImageData { mime_type: image.mime_type, data: image.data });
            }
            ContentBlock::Audio(audio) => texts.push(format!("[audio ({}), not shown]", audio.mime_type)),
            ContentBlock::Resource(embedded) => match embedded.resource {
                ResourceContents::TextResourceContents { uri, text, .. } => texts.push(format!("[{uri}]\n{text}")),
                ResourceContents::BlobResourceContents { uri, mime_type, .. } => {
                    texts.push(format!("[resource {uri} ({}), not shown]", mime_type.as_deref().unwrap_or("binary")))
                }
                _ => texts.push("[a resource of a kind Palaver does not read]".into()),
            },
            ContentBlock::ResourceLink(link) => texts.push(format!("[resource link: {}]", link.uri)),
            _ => texts.push("[content of a kind Palaver does not read]".into()),
        }
    }
    let text = cut(texts.join("\n"));
    if result.is_error == Some(true) {
        return ToolOutput { result: json!({"error": text}), parts };
    }
    let result = match result.structured_content {
        Some(structured) if structured.to_string().len() <= OUTPUT_MAX_BYTES => structured,
        Some(_) => json!({"text": text, "note": "The structured result was over 100 KB and is left out."}),
        None => json!({"text": text}),
    };
    ToolOutput { result, parts }
}

/// The text cut to [`OUTPUT_MAX_BYTES`] on a character boundary, with a note saying so.
fn cut(text: String) -> String {
    if text.len() <= OUTPUT_MAX_BYTES {
        return text;
    }
    let mut end = OUTPUT_MAX_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n[Output cut: the tool returned {} KB; the first 100 KB are shown.]",
        &text[..end],
        text.len().div_ceil(1024)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_to_the_providers_rule() {
        assert_eq!(model_tool_name("everything", "echo"), "everything__echo");
        assert_eq!(model_tool_name("files", "read.file/v2"), "files__read_file_v2");
        let long = model_tool_name("server", &"t".repeat(100));
        assert_eq!(long.len(), 64);
    }

    #[test]
    fn results_map_to_what_the_model_sees() {
        let text = CallToolResult::success(vec![ContentBlock::text("hi"), ContentBlock::image("aGk=", "image/png")]);
        let output = tool_output(text);
        assert_eq!(output.result, json!({"text": "hi\n[image: image/png]"}));
        assert_eq!(output.parts, [ContentPart::ImageData { mime_type: "image/png".into(), data: "aGk=".into() }]);

        let huge = tool_output(CallToolResult::success(vec![ContentBlock::image("A".repeat(6 << 20), "image/png")]));
        assert!(huge.parts.is_empty());
        assert_eq!(huge.result, json!({"text": "[image: image/png, 4608 KB, too large to show the model]"}));

        let failed = tool_output(CallToolResult::error(vec![ContentBlock::text("no such file")]));
        assert_eq!(failed.result, json!({"error": "no such file"}));

        let structured = tool_output(CallToolResult::structured(json!({"now": "12:00"})));
        assert_eq!(structured.result, json!({"now": "12:00"}));

        let big = tool_output(CallToolResult::success(vec![ContentBlock::text("é".repeat(300_000))]));
        let text = big.result["text"].as_str().unwrap();
        assert!(text.len() < OUTPUT_MAX_BYTES + 200);
        assert!(text.ends_with("[Output cut: the tool returned 586 KB; the first 100 KB are shown.]"));
    }
}
