//! The turn runner: a prompt or an answer in, a stream of [`TurnEvent`]s out, rows persisted.
//!
//! It knows nothing of HTTP. `TurnRunner::start` checks what must fail before a stream opens
//! (access, a stale or invalid answer), then the turn runs in its own task and feeds a channel,
//! so a client that disconnects never stops it: the adapter (SSE route, headless `turn`)
//! just stops reading. The model runs in steps; a step that calls tools continues with their
//! results, and a step that asks (or calls a tool that needs approval) pauses the turn.

mod answer;
mod answered;
pub mod arguments;
mod ask_preview;
mod asking;
pub mod attachments;
mod call_ids;
mod client_calls;
pub mod client_tools;
mod context;
pub mod draft;
mod draft_clock;
mod expiry;
mod follow_on;
mod grant_answer;
mod granted;
mod held_call;
mod host_call;
mod offer;
mod pending;
mod preflight;
mod question;
mod record;
mod redo;
pub mod reopen;
mod replay;
mod reply_document;
pub mod request_log;
mod routed;
mod run;
mod start;
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
use crate::conversation::BlocksSettings;
use crate::conversation::running::RunningTurns;
use crate::conversation::store as histories;
use crate::error::{AppError, AppResult};
use crate::live::LiveHub;
use crate::llm::Models;
use crate::preferences::service::Preferences;
use palaver_contract::asks::{ASK_KINDS, AskKind, AskSurface};
use palaver_wire::audit::{DecidedVia, Decider};
use palaver_wire::conversation::model::TurnEvent;
use tools::ToolRegistry;

/// The longest message a user may send, in characters.
pub const PROMPT_MAX_LENGTH: usize = 100_000;

/// The most characters a reply may have: one longer is cut off there and saved marked cut off,
/// so a runaway model cannot store what every later turn would replay.
pub const REPLY_MAX_LENGTH: usize = 200_000;

/// A message's text must be there, and of a size a model reads: every later turn replays it.
fn check_prompt(prompt: &str) -> AppResult<()> {
    if prompt.trim().is_empty() {
        return Err(AppError::BadRequest("prompt is required".into()).into());
    }
    if prompt.chars().count() > PROMPT_MAX_LENGTH {
        return Err(AppError::BadRequest(format!(
            "prompt is longer than {PROMPT_MAX_LENGTH} characters; send a file for longer text"
        ))
        .into());
    }
    Ok(())
}

/// A request's system prompt must be of a size a model reads, like a message.
fn check_system_prompt(system_prompt: &str) -> AppResult<()> {
    if system_prompt.chars().count() > PROMPT_MAX_LENGTH {
        return Err(AppError::BadRequest(format!("systemPrompt is longer than {PROMPT_MAX_LENGTH} characters")).into());
    }
    Ok(())
}

/// The system prompt every turn starts from, unless its request brings its own.
/// What comes before the person's custom instructions in the system prompt.
pub const INSTRUCTIONS_INTRO: &str = "The person you are talking with set these instructions for every conversation. Follow them unless they conflict with what this prompt says above or below.";

pub const BASE_SYSTEM_PROMPT: &str = "You are Palaver, a helpful assistant in a chat app. \
Answer in concise markdown.";

/// How a runner offers asks and tools: plain configuration (what it works with is
/// [`TurnDependencies`]).
#[derive(Clone)]
pub struct TurnSettings {
    /// The ask kinds offered (all by default; empty turns asks off).
    pub ask_kinds: Vec<AskKind>,
    /// The per-file cap for `files` answers.
    pub max_file_size_bytes: u64,
    /// The most model calls one turn makes.
    pub max_steps: usize,
    /// Replies are block documents (`uiBlocks`); `None` keeps them markdown.
    pub blocks: Option<BlocksSettings>,
    /// How long an ask waits for its answer before it ends as `expired`.
    pub ask_ttl: Duration,
    /// The same for an approval (shorter: the call it guards grows stale).
    pub approval_ttl: Duration,
    /// The most turns one user may have running at once (a tool's question waiting included).
    pub max_turns_per_user: usize,
    /// How long a running turn's lease lasts without renewal: an instance that dies leaves its
    /// turns counted (and findable by a Stop) at most this long.
    pub turn_lease: Duration,
    /// How long the request log keeps what the model was sent and sent back (then only the
    /// model, tokens, timing and metadata stay).
    pub request_text_kept: Duration,
}

impl Default for TurnSettings {
    fn default() -> Self {
        Self {
            ask_kinds: ASK_KINDS.to_vec(),
            max_file_size_bytes: palaver_contract::asks::ASK_LIMITS.files.default_max_file_size_bytes,
            max_steps: 5,
            blocks: None,
            ask_ttl: Duration::from_secs(24 * 60 * 60),
            approval_ttl: Duration::from_secs(60 * 60),
            max_turns_per_user: 4,
            turn_lease: crate::conversation::running::DEFAULT_LEASE,
            request_text_kept: Duration::from_secs(30 * 24 * 60 * 60),
        }
    }
}

/// What a runner works with, wired once at start-up: the tools it offers and the file store.
pub struct TurnDependencies {
    /// The built-in host tools.
    pub tools: ToolRegistry,
    /// Where more tools come from (the MCP servers), offered beside `tools`.
    pub tool_sources: Vec<Arc<dyn tools::ToolSource>>,
    /// Where uploads live; without it, `files` answers must carry data URLs.
    pub files: Option<crate::uploads::FileStore>,
}

impl Default for TurnDependencies {
    fn default() -> Self {
        Self { tools: ToolRegistry::demo_todos(), tool_sources: Vec::new(), files: None }
    }
}

/// What a turn is asked to do.
#[derive(Clone, Debug)]
pub enum TurnInput {
    /// A new message; it cancels a pending ask first.
    Prompt(String),
    /// An answer to the pending ask.
    Answer { tool_call_id: String, response: Value },
    /// The results of the client's tools the last turn called (`client_tools`): the turn goes
    /// on from them.
    ToolResults(Vec<client_tools::ClientResult>),
    /// A turn cut off by a stop of its process while a call of it followed a task: the turn
    /// goes on in its place once the task ends (`follow_on`; the sweeper sends these).
    FollowOn(follow_on::FollowOn),
}

/// Regenerate or edit: a message of the user's and everything after it are set aside as a
/// version of the conversation before the prompt is sent in its place; an empty prompt sends
/// that message again. `from` is the message's index in the rows (none: the last message).
/// With `seen_rows` (how many rows the client shows), the conversation must still have as many.
#[derive(Clone, Copy, Debug, Default)]
pub struct Redo {
    pub from: Option<i64>,
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
    /// Set, the prompt takes the place of a message (regenerate or edit).
    pub redo: Option<Redo>,
    /// The model the conversation runs on from now on (one of the configured ones).
    pub model: Option<String>,
    /// Files sent with the prompt: ids of the sender's uploads. A redo without them keeps
    /// the files of the message it replaces.
    pub attachments: Vec<String>,
    /// The MCP server whose app sends the prompt for the person (`ui/message`): its message is
    /// shown as the app's.
    pub from_app: Option<String>,
    /// The request's system prompt (`systemPrompt`): it takes the place of Palaver's persona
    /// line for this turn (reference Q.5). `None` keeps the persona line.
    pub system_prompt: Option<String>,
    /// Tools the client offers (an AG-UI app's): the model may call them; a call ends the
    /// turn, and the client runs it and sends its result (`TurnInput::ToolResults`).
    pub client_tools: Vec<client_tools::ClientTool>,
    /// The conversation's owner and pending ask as the route read them just before (a headless
    /// button press, to find its answer): an answer does not read them again.
    pub read_pending: Option<store::OwnerAndPending>,
}

impl TurnRequest {
    /// A turn with nothing beside its input: no redo, no model chosen, no files, the persona
    /// line (the headless routes' turns, and the tests').
    pub fn plain(caller: Caller, history_id: Option<String>, input: TurnInput, surface: AskSurface) -> Self {
        Self {
            caller,
            history_id,
            input,
            surface,
            redo: None,
            model: None,
            attachments: Vec::new(),
            from_app: None,
            system_prompt: None,
            client_tools: Vec::new(),
            read_pending: None,
        }
    }

    /// Who the audit trail names for what this request decides, and through which surface.
    fn decider(&self) -> Decider {
        let via = match (&self.caller.via, self.surface) {
            (CallerVia::Token { name }, _) => DecidedVia::Api { token: name.clone() },
            (CallerVia::Session, AskSurface::Compact) => DecidedVia::Watch,
            (CallerVia::Session, AskSurface::Full) => DecidedVia::Web,
            (CallerVia::Push, _) => DecidedVia::Push,
            (CallerVia::Mail, _) => DecidedVia::Mail,
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

#[derive(Clone)]
pub struct TurnRunner {
    pool: Pool,
    models: Models,
    settings: Arc<TurnSettings>,
    dependencies: Arc<TurnDependencies>,
    /// The stop switch of each running turn, shared with the chat service.
    running: RunningTurns,
    /// Turns alive while they wait on the answer to a running tool's question.
    waiting: waiting::WaitingTurns,
    /// Where asks and turns are told to the owner's tabs and devices.
    live: LiveHub,
    /// The server's choices and the owners' preferences each turn starts from.
    preferences: Preferences,
}

impl TurnRunner {
    pub fn new(
        pool: Pool,
        models: Models,
        settings: TurnSettings,
        dependencies: TurnDependencies,
        running: RunningTurns,
    ) -> Self {
        Self {
            live: LiveHub::new(pool.clone(), crate::signals::Signals::local()),
            preferences: Preferences::new(pool.clone(), running.signals()),
            pool,
            models,
            settings: Arc::new(settings),
            dependencies: Arc::new(dependencies),
            running,
            waiting: Default::default(),
        }
    }

    /// The runner, telling its events to `live`.
    pub fn with_live(self, live: LiveHub) -> Self {
        Self { live, ..self }
    }

    /// The preferences service the turns read from: every save must go through it.
    pub fn preferences(&self) -> &Preferences {
        &self.preferences
    }

    /// Whether this instance renews its running turns' leases.
    pub fn lease_health(&self) -> &crate::conversation::leases::LeaseHealth {
        self.running.lease_health()
    }

    /// The models a conversation may run on.
    pub fn models(&self) -> &Models {
        &self.models
    }

    pub fn asks_on(&self) -> bool {
        !self.settings.ask_kinds.is_empty()
    }

    /// The host tools a turn starting now offers: the built-in ones and those of the MCP
    /// servers connected now. A name taken already is refused with a log line.
    fn tools(&self) -> ToolRegistry {
        let mut registry = self.dependencies.tools.clone();
        for tool in self.dependencies.tool_sources.iter().flat_map(|source| source.tools()) {
            if let Err(problem) = registry.insert(tool) {
                tracing::warn!(%problem, "an MCP tool is left out");
            }
        }
        registry
    }

    async fn conversation(&self, history_id: &str) -> AppResult<histories::ReadView> {
        Ok(histories::read_history(&self.pool, history_id).await?.ok_or(AppError::HistoryNotFound)?)
    }
}
