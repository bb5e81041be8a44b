//! The turn runner: one user message in, a stream of [`TurnEvent`]s out, rows persisted.
//!
//! It knows nothing of HTTP. A turn runs in its own task and feeds a channel, so a client that
//! disconnects never stops it: the adapter (SSE route, server function) just stops reading.

use std::sync::Arc;
use std::time::Instant;

use futures::StreamExt;
use sqlx::SqlitePool;
use tokio::sync::mpsc;

use crate::accounts::auth::Caller;
use crate::chat::access::{HISTORY_NOT_FOUND, HistoryAccess, authorize_history};
use crate::chat::db::{self, AiRequestLog};
use crate::chat::model::{HistoryRow, TurnEvent};
use crate::error::{AppError, AppResult};
use crate::llm::{ChatModel, ModelEvent, ModelMessage, ModelRequest, Usage};
use crate::text::shorten;

/// The system prompt every turn starts from.
pub const BASE_SYSTEM_PROMPT: &str = "You are Palaver, a helpful assistant in a chat app. \
Answer in concise markdown.";

/// Longest title set from a conversation's first message, in UTF-16 units.
const TITLE_MAX_LENGTH: usize = 60;

/// What a turn is asked to do.
#[derive(Clone, Debug)]
pub struct TurnRequest {
    /// Who sends the turn: a turn always speaks as the conversation's owner.
    pub caller: Caller,
    /// The conversation to continue; `None` starts a new one.
    pub history_id: Option<String>,
    pub prompt: String,
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
}

impl TurnRunner {
    pub fn new(pool: SqlitePool, model: Arc<dyn ChatModel>) -> Self {
        Self { pool, model }
    }

    /// Checks the request, then runs the turn in its own task.
    pub async fn start(&self, request: TurnRequest) -> AppResult<TurnHandle> {
        let prompt = request.prompt.trim().to_string();
        if prompt.is_empty() {
            return Err(AppError::BadRequest("prompt is required".into()));
        }
        let (history_id, rows) = match request.history_id {
            Some(id) => {
                authorize_history(&self.pool, &request.caller, &id, HistoryAccess::Write).await?;
                let history = db::load_history(&self.pool, &id)
                    .await?
                    .ok_or_else(|| AppError::NotFound(HISTORY_NOT_FOUND.into()))?;
                (id, history.rows)
            }
            None => (db::create_history(&self.pool, &request.caller.user.id).await?, Vec::new()),
        };
        let (sender, events) = mpsc::channel(64);
        let turn = Turn {
            runner: self.clone(),
            user_id: request.caller.user.id,
            history_id: history_id.clone(),
            earlier_rows: rows,
            prompt,
            sender,
        };
        tokio::spawn(turn.run());
        Ok(TurnHandle { history_id, events })
    }
}

struct Turn {
    runner: TurnRunner,
    user_id: String,
    history_id: String,
    earlier_rows: Vec<HistoryRow>,
    prompt: String,
    sender: mpsc::Sender<TurnEvent>,
}

/// What one model call produced.
struct StepOutcome {
    text: String,
    error: Option<String>,
    usage: Usage,
}

impl Turn {
    async fn emit(&self, event: TurnEvent) {
        // A closed channel means the client left; the turn still finishes and is saved.
        let _ = self.sender.send(event).await;
    }

    fn model_messages(&self) -> Vec<ModelMessage> {
        let replayed = self.earlier_rows.iter().map(|row| match row {
            HistoryRow::User { text } => ModelMessage::User { text: text.clone() },
            HistoryRow::Assistant { text } => ModelMessage::Assistant { text: text.clone(), tool_calls: Vec::new() },
        });
        replayed.chain([ModelMessage::User { text: self.prompt.clone() }]).collect()
    }

    async fn call_model(&self, request: ModelRequest) -> StepOutcome {
        let mut stream = self.runner.model.stream(request);
        let mut outcome = StepOutcome { text: String::new(), error: None, usage: Usage::default() };
        while let Some(event) = stream.next().await {
            match event {
                ModelEvent::TextDelta(delta) => {
                    outcome.text.push_str(&delta);
                    self.emit(TurnEvent::Text { text: delta }).await;
                }
                ModelEvent::ToolCall(call) => {
                    outcome.error = Some(format!(
                        "The model called the tool \"{}\", which this conversation does not offer.",
                        call.name
                    ));
                    break;
                }
                ModelEvent::Finish { usage, .. } => {
                    outcome.usage = usage;
                    break;
                }
                ModelEvent::Error(message) => {
                    outcome.error = Some(message);
                    break;
                }
            }
        }
        outcome
    }

    async fn run(self) {
        let pool = &self.runner.pool;
        let request =
            ModelRequest { system: BASE_SYSTEM_PROMPT.to_string(), messages: self.model_messages(), tools: Vec::new() };
        let prompt_log = serde_json::to_string(&request.messages).unwrap_or_default();
        let started = Instant::now();
        let outcome = self.call_model(request).await;
        if let Some(error) = &outcome.error {
            self.emit(TurnEvent::Error { error: error.clone() }).await;
        }

        let mut rows = vec![HistoryRow::User { text: self.prompt.clone() }];
        if !outcome.text.is_empty() {
            rows.push(HistoryRow::Assistant { text: outcome.text.clone() });
        }
        let turn_id = db::new_id();
        let saved = db::append_rows(pool, &self.history_id, &turn_id, &rows).await;
        if saved.is_err() {
            self.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
        }
        let title = shorten(&self.prompt.split_whitespace().collect::<Vec<_>>().join(" "), TITLE_MAX_LENGTH);
        let title = match db::set_title_if_unset(pool, &self.history_id, &title).await {
            Ok(true) => Some(title),
            _ => None,
        };
        let log = AiRequestLog {
            history_id: &self.history_id,
            user_id: &self.user_id,
            model: self.runner.model.name(),
            prompt: &prompt_log,
            response: &outcome.text,
            error: outcome.error.as_deref(),
            input_tokens: outcome.usage.input_tokens,
            output_tokens: outcome.usage.output_tokens,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        // A failed log write is already traced by the store; the turn itself succeeded.
        let _ = db::log_ai_request(pool, &log).await;
        self.emit(TurnEvent::Done { done: true, history_id: self.history_id.clone(), title }).await;
    }
}
