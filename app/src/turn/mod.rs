//! The turn runner: a prompt or an answer in, a stream of [`TurnEvent`]s out, rows persisted.
//!
//! It knows nothing of HTTP. `TurnRunner::start` checks what must fail before a stream opens
//! (access, a stale or invalid answer), then the turn runs in its own task and feeds a channel,
//! so a client that disconnects never stops it: the adapter (SSE route, headless `turn`)
//! just stops reading. The model runs in steps; a step that calls tools continues with their
//! results, and a step that asks (or calls a tool that needs approval) pauses the turn.

mod replay;
mod reply_document;
pub mod store;
pub mod tools;

use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use serde_json::{Value, json};
use sqlx::SqlitePool;

use tokio::sync::{mpsc, watch};

use crate::chat::BlocksSettings;
use crate::chat::running::RunningTurns;

use crate::accounts::auth::Caller;
use crate::chat::access::{HistoryAccess, authorize_history};
use crate::chat::model::{
    AskEvent, AskOrigin, AskResolvedEvent, AskStatus, HistoryRow, PendingAskRef, RowAsk, ToolCallEvent,
    ToolResultEvent, TurnEvent,
};
use crate::chat::store as histories;
use crate::db::new_id;
use crate::error::{AppError, AppResult, FieldError};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use palaver_contract::asks::{
    ASK_KINDS, ASKS_SYSTEM_PROMPT, Ask, AskError, AskKind, AskResponse, AskSurface, COMPACT_SURFACE_SYSTEM_PROMPT,
    ask_prompt_section, ask_tools, check_ask_file_bytes, file_not_owned_error, is_text_file_mime_type,
    parse_ask_data_url, parse_ask_input, to_simple_card, validate_ask_response,
};
use palaver_contract::blocks::{BLOCKS_REPAIR_SYSTEM_PROMPT, BlocksCheck, check_blocks_text};

use crate::llm::{ChatModel, ContentPart, ModelEvent, ModelMessage, ModelRequest, ToolCall, ToolDefinition, Usage};
use palaver_contract::text::shorten;
use store::{AiRequestLog, Resolution, StoredPendingAsk};
use tools::{HostTool, ToolContext, ToolRegistry};

/// The system prompt every turn starts from.
pub const BASE_SYSTEM_PROMPT: &str = "You are Palaver, a helpful assistant in a chat app. \
Answer in concise markdown.";

/// Longest title set from a conversation's first message, in UTF-16 units.
const TITLE_MAX_LENGTH: usize = 60;

/// What the model gets as the result of a host tool call that never ran.
const UNANSWERED_TOOL_CALL_RESULT: &str = "This tool call did not run, so it has no result.";

/// How a runner offers asks and tools.
#[derive(Clone)]
pub struct TurnSettings {
    /// The ask kinds offered (all by default; empty turns asks off).
    pub ask_kinds: Vec<AskKind>,
    /// The per-file cap for `files` answers.
    pub max_file_size_bytes: u64,
    /// The most model calls one turn makes.
    pub max_steps: usize,
    pub tools: ToolRegistry,
    /// Where uploads live; without it, `files` answers must carry data URLs.
    pub files: Option<crate::uploads::FileStore>,
    /// Replies are block documents (`uiBlocks`); `None` keeps them markdown.
    pub blocks: Option<BlocksSettings>,
}

impl Default for TurnSettings {
    fn default() -> Self {
        Self {
            ask_kinds: ASK_KINDS.to_vec(),
            max_file_size_bytes: palaver_contract::asks::ASK_LIMITS.files.default_max_file_size_bytes,
            max_steps: 5,
            tools: ToolRegistry::demo_todos(),
            files: None,
            blocks: None,
        }
    }
}

/// What a turn is asked to do.
#[derive(Clone, Debug)]
pub enum TurnInput {
    /// A new message; it cancels a pending ask first.
    Prompt(String),
    /// An answer to the pending ask.
    Answer { tool_call_id: String, response: Value },
}

#[derive(Clone, Debug)]
pub struct TurnRequest {
    /// Who sends the turn: a turn always speaks as the conversation's owner.
    pub caller: Caller,
    /// The conversation to continue; `None` starts a new one (prompts only).
    pub history_id: Option<String>,
    pub input: TurnInput,
    pub surface: AskSurface,
}

/// A started turn: the conversation it runs on and its events.
pub struct TurnHandle {
    pub history_id: String,
    pub events: mpsc::Receiver<TurnEvent>,
}

#[derive(Clone)]
pub struct TurnRunner {
    pool: SqlitePool,
    model: Arc<dyn ChatModel>,
    settings: Arc<TurnSettings>,
    /// The stop switch of each running turn, shared with the chat service.
    running: RunningTurns,
}

/// The answer of a resolved ask, ready for the model.
struct Resolved {
    pending: StoredPendingAsk,
    response: AskResponse,
    /// The files of a `files` answer, for the model only (never stored).
    parts: Vec<ContentPart>,
    rows_before: i64,
    rows_added: i64,
}

impl TurnRunner {
    pub fn new(pool: SqlitePool, model: Arc<dyn ChatModel>, settings: TurnSettings, running: RunningTurns) -> Self {
        Self { pool, model, settings: Arc::new(settings), running }
    }

    pub fn asks_on(&self) -> bool {
        !self.settings.ask_kinds.is_empty()
    }

    /// Checks the request, then runs the turn in its own task.
    pub async fn start(&self, request: TurnRequest) -> AppResult<TurnHandle> {
        let owner_id = request.caller.user.id.clone();
        let turn_id = new_id();
        let (history_id, rows, resolved, cancelled) = match request.input {
            TurnInput::Prompt(ref prompt) => {
                if prompt.trim().is_empty() {
                    return Err(AppError::BadRequest("prompt is required".into()));
                }
                let history_id = match &request.history_id {
                    Some(id) => {
                        authorize_history(&self.pool, &request.caller, id, HistoryAccess::Write).await?;
                        id.clone()
                    }
                    None => histories::create_history(&self.pool, &owner_id).await?,
                };
                let cancelled = self.cancel_for_prompt(&history_id, &turn_id).await?;
                let rows = self.rows(&history_id).await?;
                (history_id, rows, None, cancelled)
            }
            TurnInput::Answer { ref tool_call_id, ref response } => {
                let Some(history_id) = request.history_id.clone() else {
                    return Err(AppError::BadRequest("historyId is required with askResponse".into()));
                };
                authorize_history(&self.pool, &request.caller, &history_id, HistoryAccess::Write).await?;
                let resolved = self.resolve_answer(&history_id, &turn_id, tool_call_id, response).await?;
                let rows = self.rows(&history_id).await?;
                (history_id, rows, Some(resolved), None)
            }
        };
        let (sender, events) = mpsc::channel(64);
        let (stop_switch, stop) = self.running.register(&history_id);
        let turn = Turn {
            runner: self.clone(),
            stop_switch,
            stop,
            turn_id,
            user_id: owner_id,
            history_id: history_id.clone(),
            surface: request.surface,
            rows,
            input: request.input,
            resolved,
            cancelled,
            sender,
            reply: String::new(),
            produced_output: false,
            new_rows: Vec::new(),
            messages: Vec::new(),
            prompt_index: 0,
            replayed_len: 0,
            usage: Usage::default(),
            metadata: json!({}),
            document: false,
        };
        tokio::spawn(turn.run());
        Ok(TurnHandle { history_id, events })
    }

    async fn rows(&self, history_id: &str) -> AppResult<Vec<HistoryRow>> {
        let history = histories::load_history(&self.pool, history_id).await?.ok_or(AppError::HistoryNotFound)?;
        Ok(history.rows)
    }

    /// Cancels the pending ask, if any, with `user_sent_message`; once, even when prompts race.
    async fn cancel_for_prompt(&self, history_id: &str, turn_id: &str) -> AppResult<Option<String>> {
        for _ in 0..3 {
            let Some(pending) = store::pending_ask(&self.pool, history_id).await? else { return Ok(None) };
            let response = AskResponse::Cancel { reason: Some("user_sent_message".into()) };
            let rows = answer_rows(&pending, &response);
            let resolution = Resolution { expected: &pending, status: AskStatus::Cancelled, rows };
            if store::resolve(&self.pool, history_id, turn_id, resolution).await?.is_some() {
                return Ok(Some(pending.tool_call_id));
            }
        }
        Ok(None)
    }

    /// Checks an answer against the pending ask and stores it (409 when stale, 400 when invalid).
    async fn resolve_answer(
        &self,
        history_id: &str,
        turn_id: &str,
        tool_call_id: &str,
        response: &Value,
    ) -> AppResult<Resolved> {
        let stale = || AppError::StaleAsk { tool_call_id: tool_call_id.to_string() };
        let pending =
            store::pending_ask(&self.pool, history_id).await?.filter(|pending| pending.tool_call_id == tool_call_id);
        let Some(pending) = pending else { return Err(stale()) };
        let ask = parse_ask_input(pending.kind, &pending.input, AskSurface::Full).map_err(|errors| {
            tracing::error!(?errors, "a stored pending ask no longer validates");
            AppError::Internal
        })?;
        let errors = validate_ask_response(&ask, response, self.settings.max_file_size_bytes);
        if !errors.is_empty() {
            return Err(AppError::InvalidAnswer { fields: errors.iter().map(FieldError::from).collect() });
        }
        let (response, parts) = match (&ask, response.get("content")) {
            (Ask::Files(_), Some(content)) => self.load_answer_files(history_id, content).await?,
            _ => (response.clone(), Vec::new()),
        };
        let response: AskResponse = serde_json::from_value(response).map_err(|_| AppError::Internal)?;
        let status =
            if matches!(response, AskResponse::Cancel { .. }) { AskStatus::Cancelled } else { AskStatus::Answered };
        let rows = answer_rows(&pending, &response);
        let rows_added = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        let resolution = Resolution { expected: &pending, status, rows };
        let rows_before = store::resolve(&self.pool, history_id, turn_id, resolution).await?.ok_or_else(stale)?;
        Ok(Resolved { pending, response, parts, rows_before, rows_added })
    }

    /// Loads and checks the bytes of a `files` answer. Returns the answer as it is stored
    /// (names, types and real sizes: no bytes, no data URLs) and the files as model parts.
    async fn load_answer_files(&self, history_id: &str, content: &Value) -> AppResult<(Value, Vec<ContentPart>)> {
        let owner = histories::history_owner(&self.pool, history_id).await?.flatten().unwrap_or_default();
        let files = content["files"].as_array().cloned().unwrap_or_default();
        let cap = self.settings.max_file_size_bytes;
        let mut errors = Vec::new();
        let mut loaded = Vec::new();
        for (index, file) in files.iter().enumerate() {
            let mime_type = file["mimeType"].as_str().unwrap_or_default();
            let bytes = match (file["fileId"].as_str(), &self.settings.files) {
                (Some(id), Some(store)) => store.load_owned(&self.pool, &owner, id).await?,
                (Some(_), None) => None,
                (None, _) => {
                    file["url"].as_str().and_then(parse_ask_data_url).and_then(|url| BASE64.decode(url.base64).ok())
                }
            };
            match bytes {
                Some(bytes) => {
                    errors.extend(check_ask_file_bytes(&bytes, index, mime_type, cap));
                    loaded.push((file, bytes));
                }
                None => errors.push(file_not_owned_error(index)),
            }
        }
        if !errors.is_empty() {
            let errors = palaver_contract::asks::finalize(errors);
            return Err(AppError::InvalidAnswer { fields: errors.iter().map(FieldError::from).collect() });
        }
        let count = loaded.len();
        let mut stored = Vec::new();
        let mut parts = Vec::new();
        for (index, (file, bytes)) in loaded.into_iter().enumerate() {
            let filename = file["filename"].as_str().unwrap_or_default().to_string();
            let mime_type = file["mimeType"].as_str().unwrap_or_default().to_string();
            let mut entry = json!({"filename": filename, "mimeType": mime_type, "size": bytes.len()});
            if let Some(id) = file.get("fileId") {
                entry["fileId"] = id.clone();
            }
            stored.push(entry);
            parts.push(ContentPart::Text {
                text: format!("File {} of {count}: {filename} ({mime_type}, {} bytes)", index + 1, bytes.len()),
            });
            parts.push(file_part(&filename, &mime_type, &bytes));
        }
        Ok((json!({"action": "accept", "content": {"files": stored}}), parts))
    }
}

/// A file as the model sees it: images and PDFs as they are, text cut to its first 100 KB.
fn file_part(filename: &str, mime_type: &str, bytes: &[u8]) -> ContentPart {
    if is_text_file_mime_type(mime_type) {
        let limit = palaver_contract::asks::ASK_LIMITS.files.text_max_bytes;
        let text = String::from_utf8_lossy(bytes);
        if bytes.len() <= limit {
            return ContentPart::Text { text: text.into_owned() };
        }
        let mut end = limit;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let note = format!("[The file is cut to its first {end} of {} bytes.]", bytes.len());
        return ContentPart::Text { text: format!("{}\n{note}", &text[..end]) };
    }
    let data = BASE64.encode(bytes);
    if mime_type.starts_with("image/") {
        ContentPart::ImageData { mime_type: mime_type.to_string(), data }
    } else {
        ContentPart::FileData { mime_type: mime_type.to_string(), filename: filename.to_string(), data }
    }
}

/// The rows an answer adds: its result row, and for an approval that is not approved, the
/// guarded tool's result saying it did not run.
fn answer_rows(pending: &StoredPendingAsk, response: &AskResponse) -> Vec<HistoryRow> {
    let tool_name = pending.tool_name.clone().unwrap_or_else(|| pending.kind.tool_name());
    let mut rows = vec![HistoryRow::ToolResult {
        tool_name: tool_name.clone(),
        tool_call_id: pending.tool_call_id.clone(),
        result: response.to_value(),
    }];
    if let (Some(call_id), Some(reason)) = (host_call_id(pending), denial_reason(response)) {
        rows.push(HistoryRow::ToolResult {
            tool_name,
            tool_call_id: call_id,
            result: json!({"approved": false, "reason": reason}),
        });
    }
    rows
}

/// An approval's id names the tool call it guards.
const APPROVAL_PREFIX: &str = "approval_";

fn host_call_id(pending: &StoredPendingAsk) -> Option<String> {
    pending.approval_id.as_deref().and_then(|id| id.strip_prefix(APPROVAL_PREFIX)).map(str::to_string)
}

/// Why an approval answer denies the tool, or `None` when it approves.
fn denial_reason(response: &AskResponse) -> Option<String> {
    match response {
        AskResponse::Accept { content } if content.get("confirmed") == Some(&Value::Bool(true)) => None,
        AskResponse::Accept { .. } => Some("user_denied".into()),
        AskResponse::Decline => Some("user_declined".into()),
        AskResponse::Cancel { reason } => Some(reason.clone().unwrap_or_else(|| "user_cancelled".into())),
    }
}

/// The confirm input of an approval: the tool's own, or the default when it has none valid.
fn approval_input(tool: &dyn HostTool, input: &Value, surface: AskSurface) -> Option<(Ask, Value)> {
    let own = tool.approval(input)?;
    if let Ok(ask) = parse_ask_input(AskKind::Confirm, &own, surface) {
        return Some((ask, own));
    }
    tracing::warn!(tool = tool.name(), "the approval input is not a valid confirm; using the default");
    let prompt = shorten(&format!("Allow {}? {}", tool.name(), tool.description().trim()), 500);
    let fallback = json!({"prompt": prompt, "confirmLabel": "Allow", "denyLabel": "Deny"});
    parse_ask_input(AskKind::Confirm, &fallback, surface).ok().map(|ask| (ask, fallback))
}

/// Where a step left the turn.
enum StepsEnd {
    Finished,
    /// The user stopped the turn: what was produced is kept.
    Stopped,
    Paused(Box<Pause>),
    Failed(String),
}

/// The ask a turn pauses on, with the rows that record it.
struct Pause {
    event: AskEvent,
    stored: StoredPendingAsk,
    row: HistoryRow,
}

struct Turn {
    runner: TurnRunner,
    stop_switch: watch::Sender<bool>,
    /// Flips to true when the user asks the turn to stop.
    stop: watch::Receiver<bool>,
    turn_id: String,
    user_id: String,
    history_id: String,
    surface: AskSurface,
    /// The conversation's rows when the turn started (after a cancel or an answer row).
    rows: Vec<HistoryRow>,
    input: TurnInput,
    resolved: Option<Resolved>,
    /// The ask a prompt cancelled.
    cancelled: Option<String>,
    sender: mpsc::Sender<TurnEvent>,
    /// The reply text the user sees, over all steps.
    reply: String,
    /// Whether the client saw text, a tool result or an ask (then an answer is kept on failure).
    produced_output: bool,
    /// Rows this turn adds when it ends.
    new_rows: Vec<HistoryRow>,
    messages: Vec<ModelMessage>,
    prompt_index: usize,
    /// How many of `messages` replay the history up to the paused turn's user message.
    replayed_len: usize,
    usage: Usage,
    metadata: Value,
    /// The reply is a block document.
    document: bool,
}

impl Turn {
    async fn emit(&mut self, event: TurnEvent) {
        if matches!(&event, TurnEvent::Text { text } if !text.is_empty())
            || matches!(event, TurnEvent::ToolResult { .. } | TurnEvent::Ask { .. })
        {
            self.produced_output = true;
        }
        // A closed channel means the client left; the turn still finishes and is saved.
        let _ = self.sender.send(event).await;
    }

    fn context(&self, call_id: &str) -> ToolContext {
        ToolContext {
            pool: self.runner.pool.clone(),
            user_id: self.user_id.clone(),
            history_id: self.history_id.clone(),
            idempotency_key: format!("{}:{call_id}", self.turn_id),
        }
    }

    /// Block documents are for full screens: a compact turn replies in short text.
    fn blocks(&self) -> Option<&BlocksSettings> {
        self.runner.settings.blocks.as_ref().filter(|_| self.surface == AskSurface::Full)
    }

    fn offered_kinds(&self) -> Vec<AskKind> {
        palaver_contract::asks::ask_kinds_for_surface(&self.runner.settings.ask_kinds, self.surface)
    }

    fn system_prompt(&self) -> String {
        let mut sections = vec![BASE_SYSTEM_PROMPT.to_string()];
        let kinds = self.offered_kinds();
        if !kinds.is_empty() {
            sections.push(format!("{ASKS_SYSTEM_PROMPT}\n\n{}", ask_prompt_section(&kinds, self.surface)));
        }
        if let Some(blocks) = self.blocks() {
            sections.push(blocks.prompt_section());
        }
        if self.surface == AskSurface::Compact {
            sections.push(COMPACT_SURFACE_SYSTEM_PROMPT.to_string());
        }
        sections.join("\n\n")
    }

    fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let asks = ask_tools(&self.offered_kinds(), self.surface).into_iter().map(|tool| ToolDefinition {
            name: tool.name,
            description: tool.description.to_string(),
            input_schema: tool.input_schema,
        });
        let hosts = self.runner.settings.tools.iter().map(|tool| ToolDefinition {
            name: tool.name().to_string(),
            description: tool.description().to_string(),
            input_schema: tool.input_schema(),
        });
        asks.chain(hosts).collect()
    }

    /// Builds the messages the model continues from.
    async fn prepare(&mut self) -> Option<String> {
        match &self.input {
            TurnInput::Prompt(prompt) => {
                let prompt = prompt.trim().to_string();
                self.messages = replay::replay(&self.rows);
                self.messages.push(ModelMessage::User { text: prompt.clone() });
                self.replayed_len = self.messages.len();
                self.prompt_index = self.rows.len() + 1;
                self.new_rows.push(HistoryRow::User { text: prompt });
                None
            }
            TurnInput::Answer { .. } => {
                let resolved = self.resolved.as_ref()?;
                let pending = resolved.pending.clone();
                let response = resolved.response.clone();
                let parts = resolved.parts.clone();
                self.prompt_index = pending.prompt_index.min(self.rows.len());
                self.messages = replay::replay(&self.rows[..self.prompt_index]);
                self.replayed_len = self.messages.len();
                self.messages.extend(pending.response_messages.iter().cloned());
                self.metadata["ask"] = json!({"action": response.action(), "kind": pending.kind, "phase": "answered", "toolCallId": pending.tool_call_id});
                if let Some(tool_name) = &pending.tool_name {
                    self.metadata["ask"]["origin"] = json!("approval");
                    self.metadata["ask"]["toolName"] = json!(tool_name);
                }
                match host_call_id(&pending) {
                    Some(call_id) => self.finish_approval(&pending, &call_id, &response).await,
                    None => self.messages.push(ModelMessage::Tool {
                        tool_call_id: pending.tool_call_id.clone(),
                        tool_name: pending.kind.tool_name(),
                        result: response.to_value(),
                        parts,
                    }),
                }
                Some(serde_json::to_string(&response).unwrap_or_default())
            }
        }
    }

    /// Runs (approved) or refuses the tool an approval guarded, and tells the model.
    async fn finish_approval(&mut self, pending: &StoredPendingAsk, call_id: &str, response: &AskResponse) {
        let tool_name = pending.tool_name.clone().unwrap_or_default();
        let call = pending.response_messages.iter().rev().find_map(|message| match message {
            ModelMessage::Assistant { tool_calls, .. } => tool_calls.iter().find(|call| call.id == call_id).cloned(),
            _ => None,
        });
        let model_result = match (denial_reason(response), call) {
            (Some(reason), _) => {
                self.emit_tool_result(call_id, &tool_name, json!({"approved": false, "reason": reason})).await;
                json!({"type": "execution-denied", "reason": reason})
            }
            (None, Some(call)) => {
                let result = self.run_host_tool(&call).await;
                self.new_rows.push(HistoryRow::ToolResult {
                    tool_name: tool_name.clone(),
                    tool_call_id: call.id.clone(),
                    result: result.clone(),
                });
                result
            }
            (None, None) => json!({"error": UNANSWERED_TOOL_CALL_RESULT}),
        };
        self.messages.push(ModelMessage::tool(call_id, tool_name, model_result));
    }

    async fn emit_tool_result(&mut self, call_id: &str, tool_name: &str, result: Value) {
        let event = ToolResultEvent { tool_call_id: call_id.to_string(), tool_name: tool_name.to_string(), result };
        self.emit(TurnEvent::ToolResult { tool_result: event }).await;
    }

    /// Runs a host tool (no approval involved) and emits its result.
    async fn run_host_tool(&mut self, call: &ToolCall) -> Value {
        let Some(tool) = self.runner.settings.tools.get(&call.name).cloned() else {
            return json!({"error": format!("There is no tool named \"{}\".", call.name)});
        };
        let result = match tool.execute(self.context(&call.id), call.input.clone()).await {
            Ok(output) => output,
            Err(message) => json!({"error": message}),
        };
        self.emit_tool_result(&call.id, &call.name, result.clone()).await;
        result
    }

    /// One model call: its text, its tool calls, and an error; `None` when the user stopped it.
    async fn call_model(&mut self) -> Option<(String, Vec<ToolCall>, Option<String>)> {
        let request = ModelRequest {
            system: self.system_prompt(),
            messages: self.messages.clone(),
            tools: self.tool_definitions(),
        };
        let mut stream = self.runner.model.stream(request);
        let (mut text, mut calls, mut error) = (String::new(), Vec::new(), None);
        let mut stop = self.stop.clone();
        loop {
            let event = tokio::select! {
                event = stream.next() => event,
                _ = stop.wait_for(|stopped| *stopped) => {
                    self.reply.push_str(&text);
                    return None;
                }
            };
            let Some(event) = event else { break };
            match event {
                ModelEvent::TextDelta(delta) => {
                    text.push_str(&delta);
                    self.emit(TurnEvent::Text { text: delta }).await;
                }
                ModelEvent::ToolCall(call) => calls.push(call),
                ModelEvent::Finish { usage, .. } => {
                    self.usage.input_tokens += usage.input_tokens;
                    self.usage.output_tokens += usage.output_tokens;
                    break;
                }
                ModelEvent::Error(message) => {
                    error = Some(message);
                    break;
                }
            }
        }
        Some((text, calls, error))
    }

    async fn steps(&mut self) -> StepsEnd {
        for _ in 0..self.runner.settings.max_steps {
            let Some((text, calls, error)) = self.call_model().await else {
                return StepsEnd::Stopped;
            };
            if let Some(error) = error {
                self.reply.push_str(&text);
                return StepsEnd::Failed(error);
            }
            if calls.is_empty() {
                self.reply.push_str(&text);
                return StepsEnd::Finished;
            }
            // Text in a step that calls a tool is not part of the reply: take it back.
            if !text.is_empty() {
                let reply = self.reply.clone();
                self.emit(TurnEvent::Replace { replace: "text".into(), text: reply }).await;
            }
            if let Some(pause) = self.tool_step(calls).await {
                return StepsEnd::Paused(Box::new(pause));
            }
        }
        StepsEnd::Finished
    }

    /// Handles one step's tool calls in call order; returns the ask the turn pauses on.
    async fn tool_step(&mut self, calls: Vec<ToolCall>) -> Option<Pause> {
        self.messages.push(ModelMessage::Assistant { text: String::new(), tool_calls: calls.clone() });
        let offered = self.offered_kinds();
        let mut pause: Option<Pause> = None;
        let mut results = Vec::new();
        let mut dropped_rows = Vec::new();
        for call in calls {
            let ask_kind =
                call.name.strip_prefix("ask_").and_then(AskKind::parse).filter(|kind| offered.contains(kind));
            if let Some(kind) = ask_kind {
                match parse_ask_input(kind, &call.input, self.surface) {
                    Err(errors) => results.push(invalid_ask_result(&call, &errors)),
                    Ok(ask) if pause.is_none() => pause = Some(self.ask_pause(&call, ask, None)),
                    Ok(_) => {
                        let row_ask = RowAsk { kind, status: AskStatus::Cancelled, origin: None };
                        dropped_rows.push(call_row(&call, call.input.clone(), Some(row_ask)));
                        dropped_rows.push(result_row(&call, store::one_ask_at_a_time()));
                        results.push(tool_message(&call, store::one_ask_at_a_time()));
                    }
                }
                continue;
            }
            let Some(tool) = self.runner.settings.tools.get(&call.name).cloned() else {
                results
                    .push(tool_message(&call, json!({"error": format!("There is no tool named \"{}\".", call.name)})));
                continue;
            };
            let event =
                ToolCallEvent { tool_call_id: call.id.clone(), tool_name: call.name.clone(), args: call.input.clone() };
            self.emit(TurnEvent::ToolCall { tool_call: event }).await;
            if tool.approval(&call.input).is_none() {
                let result = self.run_host_tool(&call).await;
                self.new_rows.push(call_row(&call, call.input.clone(), None));
                self.new_rows.push(result_row(&call, result.clone()));
                results.push(tool_message(&call, result));
                continue;
            }
            // Approvals are asks: without asks on, a guarded tool never runs.
            let guard =
                if self.runner.asks_on() { approval_input(tool.as_ref(), &call.input, self.surface) } else { None };
            match guard {
                Some((ask, input)) if pause.is_none() => {
                    self.new_rows.push(call_row(&call, call.input.clone(), None));
                    let approval_call =
                        ToolCall { id: format!("{APPROVAL_PREFIX}{}", call.id), name: call.name.clone(), input };
                    pause = Some(self.ask_pause(&approval_call, ask, Some(call.name.clone())));
                }
                guard => {
                    let reason = if guard.is_none() { "approvals_unavailable" } else { "one_ask_at_a_time" };
                    if guard.is_none() {
                        tracing::warn!(tool = call.name, "a tool that needs approval was called with asks off");
                    }
                    let denied = json!({"approved": false, "reason": reason});
                    self.emit_tool_result(&call.id, &call.name, denied.clone()).await;
                    self.new_rows.push(call_row(&call, call.input.clone(), None));
                    self.new_rows.push(result_row(&call, denied));
                    results.push(tool_message(&call, json!({"type": "execution-denied", "reason": reason})));
                }
            }
        }
        self.messages.extend(results);
        let pause = pause?;
        self.new_rows.extend(dropped_rows);
        Some(pause)
    }

    fn ask_pause(&self, call: &ToolCall, ask: Ask, host_tool: Option<String>) -> Pause {
        let kind = ask.kind();
        let origin = host_tool.as_ref().map(|_| AskOrigin::Approval);
        let input = call.input.clone();
        let simple = to_simple_card(&ask, &call.id);
        let tool_name = host_tool.clone().unwrap_or_else(|| kind.tool_name());
        let row = HistoryRow::ToolCall {
            tool_name,
            tool_call_id: call.id.clone(),
            args: input.clone(),
            ask: Some(RowAsk { kind, status: AskStatus::Pending, origin }),
        };
        let stored = StoredPendingAsk {
            tool_call_id: call.id.clone(),
            kind,
            input: input.clone(),
            simple: simple.clone(),
            prompt_index: self.prompt_index,
            response_messages: Vec::new(),
            created: String::new(),
            origin,
            approval_id: host_tool.as_ref().map(|_| call.id.clone()),
            tool_name: host_tool.clone(),
        };
        let event = AskEvent { tool_call_id: call.id.clone(), kind, input, simple, origin, tool_name: host_tool };
        Pause { event, stored, row }
    }

    async fn run(mut self) {
        let started = Instant::now();
        if let Some(tool_call_id) = self.cancelled.clone() {
            self.emit(TurnEvent::AskResolved {
                ask_resolved: AskResolvedEvent { tool_call_id, action: "cancel".into() },
            })
            .await;
        }
        if let Some(resolved) = &self.resolved {
            let event = AskResolvedEvent {
                tool_call_id: resolved.pending.tool_call_id.clone(),
                action: resolved.response.action().into(),
            };
            self.emit(TurnEvent::AskResolved { ask_resolved: event }).await;
        }
        let prompt_log = self.prepare().await;
        let end = self.steps().await;
        let mut pending_ref = None;
        let mut error = None;
        match end {
            StepsEnd::Finished => {
                self.finish_document().await;
                self.save_reply().await;
            }
            StepsEnd::Stopped => {
                self.metadata["stopped"] = json!(true);
                self.save_reply().await;
            }
            StepsEnd::Paused(pause) => pending_ref = self.pause(*pause).await,
            StepsEnd::Failed(message) => {
                self.emit(TurnEvent::Error { error: message.clone() }).await;
                error = Some(message);
                pending_ref = self.undo_or_save().await;
            }
        }
        let title = self.title().await;
        self.log(prompt_log, error.as_deref(), started).await;
        self.runner.running.unregister(&self.history_id, &self.stop_switch);
        let done = TurnEvent::Done { done: true, history_id: self.history_id.clone(), title, pending_ask: pending_ref };
        self.emit(done).await;
    }

    fn assistant_row(&self) -> Option<HistoryRow> {
        (!self.reply.is_empty()).then(|| HistoryRow::Assistant {
            text: self.reply.clone(),
            document: self.document,
            blocks: None,
        })
    }

    /// With blocks on, the finished reply is a document: checked (and repaired once when the
    /// host allows), its html sanitized, then `{blocks}` tells the client how to show it.
    async fn finish_document(&mut self) {
        let Some(settings) = self.blocks().cloned() else { return };
        if self.reply.trim().is_empty() {
            return;
        }
        let options = settings.options();
        let streamed = self.reply.clone();
        let mut check = check_blocks_text(&self.reply, &options);
        let mut repaired = false;
        if !check.ok
            && settings.repair
            && let Some(text) = self.repair(&settings, &check).await
        {
            check = check_blocks_text(&text, &options);
            self.reply = text;
            repaired = true;
        }
        if check.ok
            && settings.html
            && let Some(clean) = palaver_contract::blocks::sanitize_blocks_text(&self.reply, &options)
        {
            check = check_blocks_text(&clean, &options);
            self.reply = clean;
        }
        if self.reply != streamed {
            self.emit(TurnEvent::Replace { replace: "text".into(), text: self.reply.clone() }).await;
        }
        self.metadata["uiBlocks"] = json!({
            "ok": check.ok,
            "errorCodes": check.errors.iter().map(|error| error.code).collect::<Vec<_>>(),
            "warningCodes": check.warnings.iter().map(|warning| warning.code).collect::<Vec<_>>(),
            "repaired": repaired,
        });
        self.reply = palaver_contract::blocks::stored_text(&self.reply, &check);
        self.document = true;
        self.emit(TurnEvent::Blocks { blocks: Box::new(check) }).await;
    }

    /// One more model call to fix an invalid document; `None` when it gave nothing usable.
    async fn repair(&mut self, settings: &BlocksSettings, check: &BlocksCheck) -> Option<String> {
        let request = ModelRequest {
            system: format!("{BLOCKS_REPAIR_SYSTEM_PROMPT}\n\n{}", settings.prompt_section()),
            messages: vec![ModelMessage::User { text: reply_document::repair_prompt(&self.reply, check) }],
            tools: Vec::new(),
        };
        let mut stream = self.runner.model.stream(request);
        let mut text = String::new();
        while let Some(event) = stream.next().await {
            match event {
                ModelEvent::TextDelta(delta) => text.push_str(&delta),
                ModelEvent::Finish { usage, .. } => {
                    self.usage.input_tokens += usage.input_tokens;
                    self.usage.output_tokens += usage.output_tokens;
                    break;
                }
                ModelEvent::Error(_) => return None,
                ModelEvent::ToolCall(_) => {}
            }
        }
        (!text.trim().is_empty()).then_some(text)
    }

    async fn save_reply(&mut self) {
        let mut rows = std::mem::take(&mut self.new_rows);
        rows.extend(self.assistant_row());
        if let Err(err) = store::append_rows(&self.runner.pool, &self.history_id, &self.turn_id, &rows).await {
            tracing::error!(?err, "could not save a turn");
            self.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
        }
    }

    /// Saves the paused turn and claims the pending slot; emits `{ask}` when it did.
    async fn pause(&mut self, pause: Pause) -> Option<PendingAskRef> {
        let Pause { event, mut stored, row } = pause;
        // Files reach the model only on the turn that answers: stored messages keep no bytes.
        stored.response_messages = self.messages[self.replayed_len..]
            .iter()
            .cloned()
            .map(|mut message| {
                if let ModelMessage::Tool { parts, .. } = &mut message {
                    parts.clear();
                }
                message
            })
            .collect();
        let mut rows = std::mem::take(&mut self.new_rows);
        rows.extend(self.assistant_row());
        rows.push(row);
        let key = if self.resolved.is_some() { "nextAsk" } else { "ask" };
        self.metadata[key] = json!({"kind": stored.kind, "phase": "asked", "toolCallId": stored.tool_call_id});
        if let Some(tool_name) = &stored.tool_name {
            self.metadata[key]["origin"] = json!("approval");
            self.metadata[key]["toolName"] = json!(tool_name);
        }
        match store::pause(&self.runner.pool, &self.history_id, &self.turn_id, rows, &stored).await {
            Ok(true) => {
                let tool_call_id = event.tool_call_id.clone();
                self.emit(TurnEvent::Ask { ask: event, history_id: self.history_id.clone() }).await;
                Some(PendingAskRef { tool_call_id })
            }
            Ok(false) => None,
            Err(err) => {
                tracing::error!(?err, "could not pause a turn");
                self.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
                None
            }
        }
    }

    /// After a failure: an answer whose continuation showed nothing is undone (the ask is
    /// pending again); otherwise what the user saw is saved.
    async fn undo_or_save(&mut self) -> Option<PendingAskRef> {
        if let Some(resolved) = self.resolved.as_ref().filter(|_| !self.produced_output && self.new_rows.is_empty()) {
            let pool = &self.runner.pool;
            match store::undo_resolution(
                pool,
                &self.history_id,
                &resolved.pending,
                resolved.rows_before,
                resolved.rows_added,
            )
            .await
            {
                Ok(true) => return Some(PendingAskRef { tool_call_id: resolved.pending.tool_call_id.clone() }),
                Ok(false) => {}
                Err(err) => tracing::error!(?err, "could not undo an answer"),
            }
        }
        self.save_reply().await;
        None
    }

    async fn title(&self) -> Option<String> {
        let TurnInput::Prompt(prompt) = &self.input else { return None };
        let title = shorten(&prompt.split_whitespace().collect::<Vec<_>>().join(" "), TITLE_MAX_LENGTH);
        match histories::set_title_if_unset(&self.runner.pool, &self.history_id, &title).await {
            Ok(true) => Some(title),
            _ => None,
        }
    }

    async fn log(&self, answer: Option<String>, error: Option<&str>, started: Instant) {
        let prompt = match (&self.input, answer) {
            (TurnInput::Prompt(prompt), _) => prompt.clone(),
            (TurnInput::Answer { .. }, Some(answer)) => answer,
            (TurnInput::Answer { .. }, None) => String::new(),
        };
        let log = AiRequestLog {
            history_id: &self.history_id,
            user_id: &self.user_id,
            model: self.runner.model.name(),
            prompt: &prompt,
            response: &self.reply,
            error,
            input_tokens: self.usage.input_tokens,
            output_tokens: self.usage.output_tokens,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            metadata: &self.metadata,
        };
        // A failed log write is already traced by the store; the turn itself went through.
        let _ = store::log_ai_request(&self.runner.pool, &log).await;
    }
}

fn call_row(call: &ToolCall, args: Value, ask: Option<RowAsk>) -> HistoryRow {
    HistoryRow::ToolCall { tool_name: call.name.clone(), tool_call_id: call.id.clone(), args, ask }
}

fn result_row(call: &ToolCall, result: Value) -> HistoryRow {
    HistoryRow::ToolResult { tool_name: call.name.clone(), tool_call_id: call.id.clone(), result }
}

fn tool_message(call: &ToolCall, result: Value) -> ModelMessage {
    ModelMessage::tool(call.id.clone(), call.name.clone(), result)
}

/// An invalid ask goes back to the model as a tool error, with the contract's errors.
fn invalid_ask_result(call: &ToolCall, errors: &[AskError]) -> ModelMessage {
    tool_message(
        call,
        json!({"error": "The ask input is not valid. Fix these errors and ask again.", "errors": errors}),
    )
}
