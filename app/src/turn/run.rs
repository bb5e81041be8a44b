//! One running turn: its state (and the values its parts hand each other), and the order of
//! its parts (resolve, prepare, steps, then finish, pause or undo; title and log; done). The
//! parts are `impl Turn` blocks in their own files; they import from here, never the reverse.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::attachments::Attached;
use super::request_log::RequestLogMetadata;
use super::store::{self, StoredPendingAsk};
use super::tools::ToolRegistry;
use super::{TurnInput, TurnRunner};
use crate::chat::model::{AskResolvedEvent, HistoryRow, TurnEvent};
use crate::chat::turn_log::TurnLog;
use crate::llm::ContentPart;
use crate::llm::{ChatModel, ModelMessage, Usage};
use palaver_contract::asks::AskSurface;
use palaver_contract::asks::{AskKind, AskResponse};

/// The answer of a resolved ask, ready for the model.
pub(super) struct Resolved {
    pub(super) pending: StoredPendingAsk,
    pub(super) response: AskResponse,
    /// The files of a `files` answer, for the model only (never stored).
    pub(super) parts: Vec<ContentPart>,
    pub(super) rows_before: i64,
    pub(super) rows_added: i64,
}

/// The arguments of the ask calls of one step as they stream.
#[derive(Default)]
pub(super) struct Previews {
    /// By the model's call id.
    pub(super) calls: HashMap<String, PreviewedAsk>,
}

/// One ask call's preview: the ask's kind, the id it will be asked under, its arguments so
/// far, and the input last shown.
pub(super) struct PreviewedAsk {
    pub(super) kind: AskKind,
    pub(super) ask_id: String,
    pub(super) arguments: String,
    pub(super) shown: Option<Value>,
}

impl Previews {
    /// The id the ask of the model's call `call_id` was previewed under, if it was.
    pub(super) fn ask_id(&self, call_id: &str) -> Option<String> {
        self.calls.get(call_id).map(|preview| preview.ask_id.clone())
    }
}

/// Where a step left the turn.
pub(super) enum StepsEnd {
    Finished,
    /// The user stopped the turn: what was produced is kept.
    Stopped,
    Paused(Box<Pause>),
    Failed(String),
    /// A new message took the conversation over while a tool's question waited.
    Superseded,
}

/// How far behind the stream a stored draft may be.
const DRAFT_EVERY: Duration = Duration::from_secs(1);

/// When a turn's draft was last stored, and whether the turn has gone on since.
#[derive(Default)]
pub(super) struct DraftClock {
    written: Option<Instant>,
    behind: bool,
    /// A sweeper saved the draft (it took the turn for dead): no more drafts are written, and
    /// the turn's save replaces what it stored, or says the reply was cut off.
    lost: bool,
}

impl DraftClock {
    /// The draft was just stored.
    pub(super) fn written_now(&mut self) {
        (self.written, self.behind) = (Some(Instant::now()), false);
    }

    /// The draft was removed with the rows saved in its place; the next one is new.
    pub(super) fn restart(&mut self) {
        self.written = None;
    }

    /// A draft is stored: the turn saves its rows in its place.
    pub(super) fn stored(&self) -> bool {
        self.written.is_some()
    }

    pub(super) fn mark_taken(&mut self) {
        (self.lost, self.behind) = (true, false);
    }

    /// The turn's draft was saved by a sweeper: it writes no more of them.
    pub(super) fn is_taken(&self) -> bool {
        self.lost
    }

    /// The turn went on: the draft is behind.
    pub(super) fn changed(&mut self) {
        self.behind = !self.lost;
    }

    /// When the draft should be stored next: `None` while it is up to date.
    pub(super) fn due(&self) -> Option<Instant> {
        self.behind.then(|| self.written.map_or_else(Instant::now, |written| written + DRAFT_EVERY))
    }
}

/// The ask a turn pauses on (with the `{ask}` event it sends once stored), and its row.
pub(super) struct Pause {
    pub(super) stored: StoredPendingAsk,
    pub(super) row: HistoryRow,
    /// How long the ask stays answerable.
    pub(super) ttl: Duration,
}

pub(super) struct Turn {
    pub(super) runner: TurnRunner,
    /// The model the conversation runs on.
    pub(super) model: Arc<dyn ChatModel>,
    /// The files sent with the prompt.
    pub(super) attached: Attached,
    pub(super) stop_switch: watch::Sender<bool>,
    /// What the turn sent, for clients that attach to it.
    pub(super) log: Arc<TurnLog>,
    /// Flips to true when the user asks the turn to stop.
    pub(super) stop: watch::Receiver<bool>,
    /// Its row in `running_turns`.
    pub(super) running_key: String,
    /// When its draft was last stored.
    pub(super) draft: DraftClock,
    /// The reply was cut off (at its length cap, or by a shutdown).
    pub(super) interrupted: bool,
    pub(super) turn_id: String,
    pub(super) user_id: String,
    pub(super) history_id: String,
    pub(super) surface: AskSurface,
    /// The conversation's rows when the turn started (after a cancel or an answer row).
    pub(super) rows: Vec<HistoryRow>,
    pub(super) input: TurnInput,
    pub(super) resolved: Option<Resolved>,
    /// The ask a prompt cancelled.
    pub(super) cancelled: Option<String>,
    pub(super) sender: mpsc::Sender<TurnEvent>,
    /// The reply text the user sees, over all steps.
    pub(super) reply: String,
    /// Whether the client saw text, a tool result or an ask (then an answer is kept on failure).
    pub(super) produced_output: bool,
    /// Rows this turn adds when it ends.
    pub(super) new_rows: Vec<HistoryRow>,
    pub(super) messages: Vec<ModelMessage>,
    pub(super) prompt_index: usize,
    /// How many of `messages` replay the history up to the paused turn's user message.
    pub(super) replayed_len: usize,
    pub(super) usage: Usage,
    pub(super) metadata: RequestLogMetadata,
    /// The reply is a block document.
    pub(super) document: bool,
    /// The error lines of a document reply that stayed invalid, empty otherwise.
    pub(super) block_errors: String,
    /// The host tools as they were when the turn started (MCP servers come and go).
    pub(super) tools: ToolRegistry,
    /// A new message came while the turn waited on a tool's question: the turn ends unsaved.
    pub(super) superseded: bool,
    /// The step's asks as the model writes them, previewed.
    pub(super) previews: Previews,
    /// The ask the answer's own handling paused on (an argument ask's next round, or an
    /// approval in the step it released): the turn pauses on it before calling the model.
    pub(super) held_pause: Option<Pause>,
}

impl Turn {
    pub(super) async fn emit(&mut self, event: TurnEvent) {
        if matches!(&event, TurnEvent::Text { text } if !text.is_empty())
            || matches!(event, TurnEvent::ToolResult { .. } | TurnEvent::Ask { .. })
        {
            self.produced_output = true;
        }
        self.log.push(&event);
        // A closed channel means the client left; the turn still finishes and is saved.
        let _ = self.sender.send(event).await;
    }

    pub(super) async fn run(mut self) {
        let started = Instant::now();
        if let Some(tool_call_id) = self.cancelled.clone() {
            self.emit(TurnEvent::AskResolved {
                ask_resolved: AskResolvedEvent { tool_call_id, action: "cancel".into() },
            })
            .await;
        }
        if let Some(resolved) = &self.resolved {
            let event = AskResolvedEvent {
                tool_call_id: resolved.pending.ask.tool_call_id.clone(),
                action: resolved.response.action().into(),
            };
            self.emit(TurnEvent::AskResolved { ask_resolved: event }).await;
        }
        // Turns of one conversation run one after another: this one begins once those begun
        // before it are saved (by their owner, or by a sweeper when it died), and its model
        // sees their replies. Its message waits in its draft, stored before it was acknowledged.
        if self.runner.running.runs_earlier(&self.history_id, &self.running_key).await {
            let mut stop = self.stop.clone();
            self.runner.running.wait_for_earlier(&self.history_id, &self.running_key, &mut stop).await;
            match self.runner.rows(&self.history_id).await {
                Ok(rows) => self.rows = rows,
                Err(err) => {
                    tracing::warn!(?err, history = self.history_id, "could not read what the turns before wrote")
                }
            }
        }
        let prompt_log = self.prepare().await;
        // From here on a process that dies leaves the message, and what was shown, behind.
        self.write_draft("").await;
        // An approved tool's question may have been superseded while `prepare` ran it.
        let end = match self.held_pause.take() {
            _ if self.superseded => StepsEnd::Superseded,
            Some(pause) => StepsEnd::Paused(Box::new(pause)),
            None => self.steps().await,
        };
        let mut pending_ref = None;
        let mut error = None;
        match end {
            StepsEnd::Finished => {
                self.finish_document().await;
                self.save_reply().await;
            }
            StepsEnd::Stopped => {
                self.metadata.stopped = true;
                // Stopped by a shutdown, not by the user: the reply is cut off.
                self.interrupted = self.runner.running.shutting_down();
                self.save_reply().await;
            }
            StepsEnd::Paused(pause) => pending_ref = self.pause(*pause).await,
            // What the failed step said is dropped, as the reference drops it: the rows of
            // the steps before it are saved (or, for an answer that showed nothing, undone).
            StepsEnd::Failed(message) => {
                self.emit(TurnEvent::Error { error: message.clone() }).await;
                error = Some(message);
                pending_ref = self.undo_or_save().await;
            }
            // The new message's turn owns the conversation now: nothing more is saved, and the
            // events go nowhere (the stream ended when the question was asked).
            StepsEnd::Superseded => {
                self.metadata.stopped = true;
                if let Err(err) = store::forget_draft(&self.runner.pool, &self.turn_id).await {
                    tracing::warn!(?err, history = self.history_id, "a superseded turn's draft stays");
                }
            }
        }
        let title = self.title().await;
        self.log(prompt_log, error.as_deref(), started).await;
        self.runner.running.unregister(&self.history_id, &self.stop_switch).await;
        self.done(title, pending_ref).await;
    }
}
