//! The turn runner: a prompt or an answer in, a stream of [`TurnEvent`]s out, rows persisted.
//!
//! It knows nothing of HTTP. `TurnRunner::start` checks what must fail before a stream opens
//! (access, a stale or invalid answer), then the turn runs in its own task and feeds a channel,
//! so a client that disconnects never stops it: the adapter (SSE route, headless `turn`)
//! just stops reading. The model runs in steps; a step that calls tools continues with their
//! results, and a step that asks (or calls a tool that needs approval) pauses the turn.

mod answer;
pub mod arguments;
mod ask_preview;
mod asking;
pub mod attachments;
mod call_ids;
pub mod draft;
mod expiry;
mod offer;
mod pending;
mod question;
mod record;
mod replay;
mod reply_document;
pub mod request_log;
mod run;
mod step_text;
mod steps;
pub mod store;
pub mod title;
pub mod tools;
mod waiting;

use std::sync::Arc;
use std::time::Duration;

use crate::db::Pool;
use serde_json::Value;
use tokio::sync::mpsc;

use crate::accounts::auth::{Caller, CallerVia};
use crate::audit::{DecidedVia, Decider};
use crate::chat::BlocksSettings;
use crate::chat::access::{HistoryAccess, authorize_history};
use crate::chat::model::{HistoryRow, TurnEvent};
use crate::chat::running::{Registration, RunningTurns};
use crate::chat::store as histories;
use crate::chat::turn_log::TurnLog;
use crate::db::new_id;
use crate::error::{AppError, AppResult};
use crate::live::{HistoryChange, HistoryChanged, HistoryRef, LiveEvent, LiveHub};
use crate::llm::{Models, Usage};
use attachments::Attached;
use palaver_contract::asks::{ASK_KINDS, AskKind, AskSurface};
use run::Turn;
use tools::ToolRegistry;

/// The longest message a user may send, in characters.
pub const PROMPT_MAX_LENGTH: usize = 100_000;

/// The most characters a reply may have: one longer is cut off there and saved marked cut off,
/// so a runaway model cannot store what every later turn would replay.
pub const REPLY_MAX_LENGTH: usize = 200_000;

/// A message's text must be there, and of a size a model reads: every later turn replays it.
fn check_prompt(prompt: &str) -> AppResult<()> {
    if prompt.trim().is_empty() {
        return Err(AppError::BadRequest("prompt is required".into()));
    }
    if prompt.chars().count() > PROMPT_MAX_LENGTH {
        return Err(AppError::BadRequest(format!(
            "prompt is longer than {PROMPT_MAX_LENGTH} characters; send a file for longer text"
        )));
    }
    Ok(())
}

/// The system prompt every turn starts from.
pub const BASE_SYSTEM_PROMPT: &str = "You are Palaver, a helpful assistant in a chat app. \
Answer in concise markdown.";

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
    /// Where more tools come from (the MCP servers), offered beside `tools`.
    pub tool_sources: Vec<Arc<dyn tools::ToolSource>>,
    /// How long an ask waits for its answer before it ends as `expired`.
    pub ask_ttl: Duration,
    /// The same for an approval (shorter: the call it guards grows stale).
    pub approval_ttl: Duration,
    /// The most turns one user may have running at once (a tool's question waiting included).
    pub max_turns_per_user: usize,
    /// How long a running turn's lease lasts without renewal: an instance that dies leaves its
    /// turns counted (and findable by a Stop) at most this long.
    pub turn_lease: Duration,
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
            tool_sources: Vec::new(),
            ask_ttl: Duration::from_secs(24 * 60 * 60),
            approval_ttl: Duration::from_secs(60 * 60),
            max_turns_per_user: 4,
            turn_lease: crate::chat::running::DEFAULT_LEASE,
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

/// Regenerate or edit: the conversation's last exchange (its last message and everything
/// after it) is retracted before the prompt is sent; an empty prompt sends the retracted
/// message again. With `seen_rows` (how many rows the client shows), the conversation must
/// still have as many.
#[derive(Clone, Copy, Debug, Default)]
pub struct Redo {
    pub seen_rows: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct TurnRequest {
    /// Who sends the turn: a turn always speaks as the conversation's owner.
    pub caller: Caller,
    /// The conversation to continue; `None` starts a new one (prompts only).
    pub history_id: Option<String>,
    pub input: TurnInput,
    pub surface: AskSurface,
    /// Set, the prompt takes the place of the last message (regenerate or edit).
    pub redo: Option<Redo>,
    /// The model the conversation runs on from now on (one of the configured ones).
    pub model: Option<String>,
    /// Files sent with the prompt: ids of the sender's uploads. A redo without them keeps
    /// the files of the message it replaces.
    pub attachments: Vec<String>,
}

impl TurnRequest {
    /// Who the audit trail names for what this request decides, and through which surface.
    fn decider(&self) -> Decider {
        let via = match (&self.caller.via, self.surface) {
            (CallerVia::Token { name }, _) => DecidedVia::Api { token: name.clone() },
            (CallerVia::Session, AskSurface::Compact) => DecidedVia::Watch,
            (CallerVia::Session, AskSurface::Full) => DecidedVia::Web,
        };
        Decider::person(&self.caller.user.id, via)
    }
}

/// What a redo changes of the last message: its text (an edit), the row count the client saw,
/// and its files (none: the ones it had).
struct Retract<'a> {
    edited: Option<&'a str>,
    seen_rows: Option<i64>,
    attachments: &'a [String],
}

/// A started turn: the conversation it runs on and its events.
pub struct TurnHandle {
    pub history_id: String,
    /// The stream the events belong to: their ids are `<stream_id>.<n>`.
    pub stream_id: String,
    pub events: mpsc::Receiver<TurnEvent>,
}

#[derive(Clone)]
pub struct TurnRunner {
    pool: Pool,
    models: Models,
    settings: Arc<TurnSettings>,
    /// The stop switch of each running turn, shared with the chat service.
    running: RunningTurns,
    /// Turns alive while they wait on the answer to a running tool's question.
    waiting: waiting::WaitingTurns,
    /// Where asks and turns are told to the owner's tabs and devices.
    live: LiveHub,
}

impl TurnRunner {
    pub fn new(pool: Pool, models: Models, settings: TurnSettings, running: RunningTurns) -> Self {
        Self {
            live: LiveHub::new(pool.clone(), crate::signals::Signals::local()),
            pool,
            models,
            settings: Arc::new(settings),
            running,
            waiting: Default::default(),
        }
    }

    /// The runner, telling its events to `live`.
    pub fn with_live(self, live: LiveHub) -> Self {
        Self { live, ..self }
    }

    /// The models a conversation may run on.
    pub fn models(&self) -> &Models {
        &self.models
    }

    pub fn asks_on(&self) -> bool {
        !self.settings.ask_kinds.is_empty()
    }

    /// Checks the request, then runs the turn in its own task.
    pub async fn start(&self, mut request: TurnRequest) -> AppResult<TurnHandle> {
        let owner_id = request.caller.user.id.clone();
        let decider = request.decider();
        let turn_id = new_id();
        if let Some(model) = &request.model {
            self.models.check(model).map_err(AppError::BadRequest)?;
        }
        // Checked before anything is written, so a refused turn changes nothing. An answer to a
        // running tool's question goes on in a turn that is counted already.
        let resumes = match (&request.input, &request.history_id) {
            (TurnInput::Answer { tool_call_id, .. }, Some(history)) => self.waiting.is_waiting(history, tool_call_id),
            _ => false,
        };
        if !resumes && self.running.count_of(&owner_id).await >= self.settings.max_turns_per_user {
            return Err(AppError::TooManyRequests {
                message: format!(
                    "{} replies of yours are running already. Wait for one to finish, or stop one.",
                    self.settings.max_turns_per_user
                ),
                retry_after_secs: 5,
            });
        }
        // Taking the pending ask (an answer, or a prompt's cancel) and joining the
        // conversation's queue of turns happen as one step, so a turn that came second cannot
        // take its place in the queue first (held until the turn is registered).
        let _admission = match &request.history_id {
            Some(history_id) => Some(self.running.admit(history_id).await),
            None => None,
        };
        let mut cancelled_by_redo = None;
        let mut attached = None;
        if let Some(redo) = request.redo {
            let (Some(history_id), TurnInput::Prompt(edited)) = (request.history_id.as_deref(), &request.input) else {
                return Err(AppError::BadRequest(
                    "To regenerate or edit the last message, send historyId and an optional prompt, not askResponse."
                        .into(),
                ));
            };
            let edited = Some(edited.as_str()).filter(|edited| !edited.trim().is_empty());
            let retract = Retract { edited, seen_rows: redo.seen_rows, attachments: &request.attachments };
            let (prompt, files, cancelled) =
                self.retract_last(&request.caller, history_id, &turn_id, retract, &decider).await?;
            cancelled_by_redo = cancelled;
            attached = Some(files);
            request.input = TurnInput::Prompt(prompt);
        }
        let (history_id, rows, resolved, cancelled) = match request.input {
            TurnInput::Prompt(ref prompt) => {
                check_prompt(prompt)?;
                if attached.is_none() {
                    attached = Some(self.load_attachments(&owner_id, &request.attachments).await?);
                }
                let history_id = match &request.history_id {
                    Some(id) => {
                        authorize_history(&self.pool, &request.caller, id, HistoryAccess::Write).await?;
                        id.clone()
                    }
                    None => {
                        let id = histories::create_history(&self.pool, &owner_id, request.model.as_deref()).await?;
                        let created =
                            HistoryChanged { history_id: id.clone(), change: HistoryChange::Created, title: None };
                        self.live.publish(&owner_id, LiveEvent::HistoryChanged(created)).await;
                        id
                    }
                };
                let cancelled = match cancelled_by_redo {
                    Some(cancelled) => Some(cancelled),
                    None => self.cancel_for_prompt(&history_id, &turn_id, &decider).await?,
                };
                let rows = self.rows(&history_id).await?;
                (history_id, rows, None, cancelled)
            }
            TurnInput::Answer { ref tool_call_id, ref response } => {
                let Some(history_id) = request.history_id.clone() else {
                    return Err(AppError::BadRequest("historyId is required with askResponse".into()));
                };
                authorize_history(&self.pool, &request.caller, &history_id, HistoryAccess::Write).await?;
                let resolved = self.resolve_answer(&history_id, &turn_id, tool_call_id, response, &decider).await?;
                // An elicitation's turn is still running: the answer goes on in it.
                if resolved.pending.asked_by_call.is_some() {
                    let (sender, events) = mpsc::channel(64);
                    let stream_id = new_id();
                    let answer = waiting::Resumed::Answer {
                        response: resolved.response.clone(),
                        events: sender,
                        stream_id: stream_id.clone(),
                    };
                    if self.waiting.resume(&history_id, tool_call_id, answer) {
                        self.live
                            .publish(&owner_id, LiveEvent::TurnStarted(HistoryRef { history_id: history_id.clone() }))
                            .await;
                        return Ok(TurnHandle { history_id, stream_id, events });
                    }
                }
                let rows = self.rows(&history_id).await?;
                (history_id, rows, Some(resolved), None)
            }
        };
        // A model the request names is the conversation's from now on (both ways in checked the
        // caller may write to it; a new one was created with it).
        let chosen = match request.model {
            Some(model) if request.history_id.is_some() => {
                histories::set_history_model(&self.pool, &history_id, &model)
                    .await?
                    .ok_or(AppError::HistoryNotFound)?;
                Some(model)
            }
            Some(model) => Some(model),
            None => histories::history_model(&self.pool, &history_id).await?,
        };
        let model = self.models.for_conversation(chosen.as_deref()).model.clone();
        let (sender, events) = mpsc::channel(64);
        let prompt = match &request.input {
            TurnInput::Prompt(prompt) => Some(prompt.trim().to_string()),
            TurnInput::Answer { .. } => None,
        };
        let log = TurnLog::new(&turn_id, prompt);
        let Registration { switch: stop_switch, stop, key: running_key } =
            self.running.register(&history_id, &owner_id, log.clone()).await;

        // A delete between the access check and now found no switch to flip: look again, now
        // that a delete would stop this turn.
        let still_there = histories::history_owner(&self.pool, &history_id).await;
        if !matches!(still_there, Ok(Some(_))) {
            self.running.unregister(&history_id, &stop_switch).await;
            return Err(still_there.err().unwrap_or(AppError::HistoryNotFound));
        }
        let turn = Turn {
            runner: self.clone(),
            model,
            attached: attached.unwrap_or_default(),
            stop_switch,
            log,
            stop,
            running_key,
            draft: Default::default(),
            interrupted: false,
            turn_id: turn_id.clone(),
            user_id: owner_id.clone(),
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
            metadata: request_log::RequestLogMetadata::default(),
            document: false,
            block_errors: String::new(),
            tools: self.tools(),
            previews: Default::default(),
            superseded: false,
            held_pause: None,
        };
        let stream_id = turn_id;
        // Told before the turn runs, so no event of the turn (its ask, say) comes first.
        self.live.publish(&owner_id, LiveEvent::TurnStarted(HistoryRef { history_id: history_id.clone() })).await;
        tokio::spawn(turn.run());
        Ok(TurnHandle { history_id, stream_id, events })
    }

    /// The host tools a turn starting now offers: the built-in ones and those of the MCP
    /// servers connected now. A name taken already is refused with a log line.
    fn tools(&self) -> ToolRegistry {
        let mut registry = self.settings.tools.clone();
        for tool in self.settings.tool_sources.iter().flat_map(|source| source.tools()) {
            if let Err(problem) = registry.insert(tool) {
                tracing::warn!(%problem, "an MCP tool is left out");
            }
        }
        registry
    }

    /// Retracts a conversation's last exchange for a redo; returns the prompt to send in its
    /// place (`edited`, or the retracted message) and the pending ask it cancelled, if any.
    /// Everything is checked before anything changes: the caller may write, no reply runs,
    /// the conversation has the rows the client saw and a message to redo.
    async fn retract_last(
        &self,
        caller: &Caller,
        history_id: &str,
        turn_id: &str,
        Retract { edited, seen_rows, attachments }: Retract<'_>,
        decider: &Decider,
    ) -> AppResult<(String, Attached, Option<String>)> {
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        if let Some(edited) = edited {
            check_prompt(edited)?;
        }
        if self.running.is_running(history_id).await {
            return Err(AppError::ReplyRunning);
        }
        let last = store::last_message(&self.pool, history_id).await?.ok_or(AppError::NothingToRedo)?;
        if seen_rows.is_some_and(|seen| seen != last.row_count) {
            return Err(AppError::ConversationChanged);
        }
        // The files go with the message again, checked before anything is retracted.
        let files = if attachments.is_empty() { &last.attachments } else { attachments };
        let attached = self.load_attachments(&caller.user.id, files).await?;
        let cancelled = self.cancel_for_prompt(history_id, turn_id, decider).await?;
        if !store::retract_exchange(&self.pool, history_id, &last).await? {
            return Err(AppError::ConversationChanged);
        }
        Ok((edited.map_or(last.text, str::to_string), attached, cancelled))
    }

    async fn rows(&self, history_id: &str) -> AppResult<Vec<HistoryRow>> {
        let history = histories::load_history(&self.pool, history_id).await?.ok_or(AppError::HistoryNotFound)?;
        Ok(history.rows)
    }
}
