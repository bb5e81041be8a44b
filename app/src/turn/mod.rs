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
mod redo;
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
use crate::chat::running::{Registration, Reservation, RunningTurns};
use crate::chat::store as histories;
use crate::chat::turn_log::TurnLog;
use crate::db::new_id;
use crate::error::{AppError, AppResult};
use crate::live::{HistoryChange, HistoryChanged, HistoryRef, LiveEvent, LiveHub};
use crate::llm::{Models, Usage};
use attachments::Attached;
use palaver_contract::asks::{ASK_KINDS, AskKind, AskSurface};
use redo::Retract;
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

/// A started turn: the conversation it runs on and its events.
pub struct TurnHandle {
    pub history_id: String,
    /// The stream the events belong to: their ids are `<stream_id>.<n>`.
    pub stream_id: String,
    pub events: mpsc::Receiver<TurnEvent>,
}

/// Where an admitted request leaves off: an answer that went on in a running turn, or a turn
/// ready to run.
enum Admitted {
    Resumed(TurnHandle),
    Turn(Box<Ready>),
}

/// A turn admitted to its conversation, ready to be registered and run.
struct Ready {
    turn_id: String,
    owner_id: String,
    history_id: String,
    rows: Vec<HistoryRow>,
    resolved: Option<run::Resolved>,
    cancelled: Option<String>,
    attached: Attached,
    model: Arc<dyn crate::llm::ChatModel>,
    input: TurnInput,
    surface: AskSurface,
    /// Its first draft is stored (a redo stores it with its retraction).
    drafted: bool,
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

    /// Whether this instance renews its running turns' leases.
    pub fn lease_health(&self) -> &crate::chat::leases::LeaseHealth {
        self.running.lease_health()
    }

    /// The models a conversation may run on.
    pub fn models(&self) -> &Models {
        &self.models
    }

    pub fn asks_on(&self) -> bool {
        !self.settings.ask_kinds.is_empty()
    }

    /// Checks the request, then runs the turn in its own task. Before this returns (and so
    /// before a client hears the turn started), the turn holds its place among the user's
    /// running turns and its message is stored with what a sweeper needs to save it as
    /// interrupted: a message acknowledged is never lost.
    pub async fn start(&self, request: TurnRequest) -> AppResult<TurnHandle> {
        if let Some(model) = &request.model {
            self.models.check(model).map_err(AppError::BadRequest)?;
        }
        // An answer to a running tool's question goes on in a turn that is counted already.
        let resumes = match (&request.input, &request.history_id) {
            (TurnInput::Answer { tool_call_id, .. }, Some(history)) => self.waiting.is_waiting(history, tool_call_id),
            _ => false,
        };
        // Taking the pending ask (an answer, or a prompt's cancel) and joining the
        // conversation's queue of turns happen as one step, so a turn that came second cannot
        // take its place in the queue first (held until the turn is registered).
        let _admission = match &request.history_id {
            Some(history_id) => Some(self.running.admit(history_id).await),
            None => None,
        };
        // Taken before anything is written, so a refused turn changes nothing; given back when
        // the request fails.
        let reservation = match resumes {
            true => None,
            false => Some(self.running.reserve(&request.caller.user.id, self.settings.max_turns_per_user).await?),
        };
        let running_key = reservation.as_ref().map(|reservation| reservation.key.clone());
        let admitted = self.admitted(request, running_key.as_deref()).await;
        match (admitted, reservation) {
            (Ok(Admitted::Turn(ready)), reservation) => self.launch(*ready, reservation).await,
            (Ok(Admitted::Resumed(handle)), reservation) => {
                if let Some(reservation) = reservation {
                    self.running.release(reservation).await;
                }
                Ok(handle)
            }
            (Err(err), reservation) => {
                if let Some(reservation) = reservation {
                    self.running.release(reservation).await;
                }
                Err(err)
            }
        }
    }

    /// Everything a turn does before it runs, in its conversation's admission: the redo's
    /// retraction, the conversation, the cancel or the answer, the model. `running_key` is the
    /// turn's place, for the draft a redo stores with its retraction.
    async fn admitted(&self, mut request: TurnRequest, running_key: Option<&str>) -> AppResult<Admitted> {
        let owner_id = request.caller.user.id.clone();
        let decider = request.decider();
        let turn_id = new_id();
        let mut cancelled_by_redo = None;
        let mut attached = None;
        let mut drafted = false;
        if let Some(redo) = request.redo {
            let (Some(history_id), TurnInput::Prompt(edited), Some(running_key)) =
                (request.history_id.as_deref(), &request.input, running_key)
            else {
                return Err(AppError::BadRequest(
                    "To regenerate or edit the last message, send historyId and an optional prompt, not askResponse."
                        .into(),
                ));
            };
            let edited = Some(edited.as_str()).filter(|edited| !edited.trim().is_empty());
            let retract = Retract { edited, seen_rows: redo.seen_rows, attachments: &request.attachments };
            let (prompt, files, cancelled) =
                self.retract_last(&request.caller, history_id, &turn_id, running_key, retract, &decider).await?;
            (cancelled_by_redo, attached, drafted) = (cancelled, Some(files), true);
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
                        return Ok(Admitted::Resumed(TurnHandle { history_id, stream_id, events }));
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
        Ok(Admitted::Turn(Box::new(Ready {
            turn_id,
            owner_id,
            history_id,
            rows,
            resolved,
            cancelled,
            attached: attached.unwrap_or_default(),
            model,
            input: request.input,
            surface: request.surface,
            drafted,
        })))
    }

    /// Registers an admitted turn in its place, stores its first draft (unless its redo did),
    /// then runs it in its own task.
    async fn launch(&self, ready: Ready, reservation: Option<Reservation>) -> AppResult<TurnHandle> {
        let Ready {
            turn_id,
            owner_id,
            history_id,
            rows,
            resolved,
            cancelled,
            attached,
            model,
            input,
            surface,
            drafted,
        } = ready;
        // A turn that was to resume a tool's question that ended meanwhile takes a place now.
        let reservation = match reservation {
            Some(reservation) => reservation,
            None => self.running.reserve(&owner_id, self.settings.max_turns_per_user).await?,
        };
        let (sender, events) = mpsc::channel(64);
        let prompt = match &input {
            TurnInput::Prompt(prompt) => Some(prompt.trim().to_string()),
            TurnInput::Answer { .. } => None,
        };
        let log = TurnLog::new(&turn_id, prompt.clone());
        let Registration { switch: stop_switch, stop, key: running_key } =
            self.running.register(reservation, &history_id, &owner_id, log.clone()).await;

        // A delete between the access check and now found no switch to flip: look again, now
        // that a delete would stop this turn.
        let still_there = histories::history_owner(&self.pool, &history_id).await;
        if !matches!(still_there, Ok(Some(_))) {
            self.running.unregister(&history_id, &stop_switch).await;
            return Err(still_there.err().unwrap_or(AppError::HistoryNotFound));
        }
        let mut draft = run::DraftClock::default();
        if drafted {
            draft.written_now();
        } else {
            let rows = draft::first_rows(prompt, &attached.rows);
            let first = store::Draft {
                turn_id: &turn_id,
                history_id: &history_id,
                user_id: &owner_id,
                running_key: &running_key,
                rows: &rows,
            };
            if let Err(err) = store::write_draft(&self.pool, &first, true).await {
                self.running.unregister(&history_id, &stop_switch).await;
                return Err(err);
            }
            draft.written_now();
        }
        let turn = Turn {
            runner: self.clone(),
            model,
            attached,
            stop_switch,
            log,
            stop,
            running_key,
            draft,
            interrupted: false,
            turn_id: turn_id.clone(),
            user_id: owner_id.clone(),
            history_id: history_id.clone(),
            surface,
            rows,
            input,
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

    async fn rows(&self, history_id: &str) -> AppResult<Vec<HistoryRow>> {
        let history = histories::load_history(&self.pool, history_id).await?.ok_or(AppError::HistoryNotFound)?;
        Ok(history.rows)
    }
}
