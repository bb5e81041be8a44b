//! One running turn: its state, in owned parts (who and where, the transcript, the output, the
//! event stream, the request log's record, the lifecycle), the values its steps hand each
//! other, and the order of its steps (resolve, prepare, steps, then finish, pause or undo;
//! title and log; done). The steps are `impl Turn` blocks in their own files; they import
//! from here, never the reverse.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::{mpsc, watch};

use super::attachments::Attached;
use super::draft_clock::DraftClock;
use super::request_log::RequestLogMetadata;
use super::store;
use super::store::StoredPendingAsk;
use super::tools::ToolRegistry;
use super::{TurnInput, TurnRunner};
use crate::conversation::turn_log::TurnLog;
use crate::llm::ContentPart;
use crate::llm::{ChatModel, ModelMessage, Usage};
use palaver_contract::asks::AskSurface;
use palaver_contract::asks::{AskKind, AskResponse};
use palaver_wire::approvers::ApprovalRoute;
use palaver_wire::conversation::model::{AskResolvedEvent, HistoryRow, TurnEvent};

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
    /// The calls of tools with an MCP App, by call id.
    pub(super) app_inputs: HashMap<String, WrittenCall>,
}

/// A call of a tool with an MCP App while the model writes it: its tool, its arguments so far,
/// how long they were when last sent, and what they read as then.
#[derive(Default)]
pub(super) struct WrittenCall {
    pub(super) name: String,
    pub(super) arguments: String,
    pub(super) sent_length: usize,
    pub(super) shown: Option<Value>,
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

/// The ask a turn pauses on (with the `{ask}` event it sends once stored), and its row.
pub(super) struct Pause {
    pub(super) stored: StoredPendingAsk,
    pub(super) row: HistoryRow,
    /// Rows stored after the ask's row: the step's dropped asks (reference Q.3).
    pub(super) after: Vec<HistoryRow>,
    /// How long the ask stays answerable.
    pub(super) ttl: Duration,
}

/// One running turn, in parts: each step borrows the part it changes.
pub(super) struct Turn {
    pub(super) runner: TurnRunner,
    /// The model the conversation runs on.
    pub(super) model: Arc<dyn ChatModel>,
    /// The host tools as they were when the turn started (MCP servers come and go).
    pub(super) tools: ToolRegistry,
    pub(super) ids: TurnIds,
    pub(super) offer: Offer,
    pub(super) transcript: Transcript,
    pub(super) output: Output,
    pub(super) events: EventStream,
    pub(super) record: RequestRecord,
    pub(super) lifecycle: Lifecycle,
    /// The step's asks as the model writes them, previewed.
    pub(super) previews: Previews,
}

/// Who a turn is for and where it runs: fixed when it starts.
pub(super) struct TurnIds {
    pub(super) turn_id: String,
    /// The conversation's owner: a turn always speaks as them.
    pub(super) user_id: String,
    pub(super) history_id: String,
    /// Its row in `running_turns`.
    pub(super) running_key: String,
    /// Where it is shown: what asks and documents it offers.
    pub(super) surface: AskSurface,
}

/// What the request asks of the model beyond the conversation (reference Q.5): fixed when the
/// turn starts.
pub(super) struct Offer {
    /// The request's system prompt, in place of Palaver's persona line.
    pub(super) system_prompt: Option<String>,
    /// The owner's custom instructions (Settings), after Palaver's persona line; a request's
    /// own system prompt goes without them (the client chose the whole prompt).
    pub(super) instructions: Option<String>,
    /// False for a model offered no tools and no asks (an image model).
    pub(super) takes_tools: bool,
    /// How many tokens a request to the model may hold (see `context`).
    pub(super) context_tokens: u32,
    /// The tools an admin set never to offer a grant (`ServerChoices::ungranted_tools`).
    pub(super) ungranted_tools: Vec<String>,
    /// Where approvals go instead of to the conversation's owner (`ServerChoices::approval_routes`).
    pub(super) approval_routes: Vec<ApprovalRoute>,
    /// The tools the client offers beside Palaver's (`client_tools`).
    pub(super) client_tools: Vec<super::client_tools::ClientTool>,
}

/// What the model is given: the conversation as the turn found it, what the turn was asked to
/// do, and the messages made of them (each step adds its calls and their results).
pub(super) struct Transcript {
    /// The conversation's rows when the turn started (after a cancel or an answer row).
    pub(super) rows: Vec<HistoryRow>,
    /// Whether the conversation had its title when the turn started (one without is named
    /// after its first reply).
    pub(super) titled: bool,
    pub(super) input: TurnInput,
    /// The files sent with the prompt (moved into its message when the messages are made).
    pub(super) attached: Attached,
    /// The MCP server whose app sent the prompt for the person.
    pub(super) from_app: Option<String>,
    /// What the apps drawn in the conversation told the model last (read before each call).
    pub(super) apps_section: Option<String>,
    /// The answer the turn goes on from.
    pub(super) resolved: Option<Resolved>,
    /// The ask a prompt cancelled.
    pub(super) cancelled: Option<String>,
    /// Whether a grant for this turn lived in the conversation when it went on from an answer
    /// (which may have given it): the turn ends it when it ends. A prompt ended any before.
    pub(super) turn_granted: bool,
    pub(super) messages: Vec<ModelMessage>,
    /// How many rows there are up to the turn's user message (an ask keeps it: its answer
    /// replays that far).
    pub(super) prompt_index: usize,
    /// How many of `messages` replay the history up to the paused turn's user message.
    pub(super) replayed_len: usize,
    /// What of `messages` the model is sent, once the first call fitted it to its budget.
    pub(super) fitted: Option<Fitted>,
}

impl Transcript {
    /// A turn's transcript before its messages are made (`Turn::prepare`).
    pub(super) fn new(
        input: TurnInput,
        rows: Vec<HistoryRow>,
        titled: bool,
        attached: Attached,
        resolved: Option<Resolved>,
        cancelled: Option<String>,
    ) -> Self {
        Self {
            rows,
            titled,
            input,
            attached,
            from_app: None,
            apps_section: None,
            resolved,
            cancelled,
            turn_granted: false,
            messages: Vec::new(),
            prompt_index: 0,
            replayed_len: 0,
            fitted: None,
        }
    }
}

/// What the model is sent of the conversation (see `context`): the messages from `cut` on,
/// after `summary` (of those before), fitted to `budget`.
pub(super) struct Fitted {
    pub(super) cut: usize,
    pub(super) summary: Option<String>,
    pub(super) budget: u32,
    /// Fitted again in a smaller budget after the model refused the request as too long.
    pub(super) shrunk: bool,
}

/// What the turn adds to the conversation: its rows, and its reply (saved as the last row).
#[derive(Default)]
pub(super) struct Output {
    /// Rows this turn adds when it ends.
    pub(super) new_rows: Vec<HistoryRow>,
    /// The reply text the user sees, over all steps.
    pub(super) reply: String,
    /// The reply was cut off (at its length cap, or by a shutdown).
    pub(super) interrupted: bool,
    /// The reply is a block document.
    pub(super) document: bool,
    /// The error lines of a document reply that stayed invalid, empty otherwise.
    pub(super) block_errors: String,
    /// A call of this step waits on an approval no one can give (asks are off): the turn
    /// ends with the step (reference Q.4).
    pub(super) awaits_approval: bool,
    /// This step's calls of the client's tools: the turn ends with the step, and the client
    /// runs them.
    pub(super) client_calls: Vec<crate::llm::ToolCall>,
    /// Live events that go out with the turn's end, stored with its `TurnDone` at once.
    pub(super) held_events: Vec<palaver_wire::live::LiveEvent>,
}

impl Output {
    /// The reply's row, written by `model`: none for no text, unless it was cut off (then it
    /// says so).
    pub(super) fn assistant_row(&self, model: &str) -> Option<HistoryRow> {
        (!self.reply.is_empty() || self.interrupted).then(|| HistoryRow::Assistant {
            text: self.reply.clone(),
            document: self.document,
            block_errors: self.block_errors.clone(),
            interrupted: self.interrupted,
            blocks: None,
            model: Some(model.to_string()),
        })
    }
}

/// Where the turn's events go: the stream of the request that reads it, and the log clients
/// that attach later read.
pub(super) struct EventStream {
    pub(super) sender: mpsc::Sender<TurnEvent>,
    /// What the turn sent, for clients that attach to it.
    pub(super) log: Arc<TurnLog>,
    /// Whether the client saw text, a tool result or an ask (then an answer is kept on failure).
    pub(super) produced_output: bool,
}

impl EventStream {
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
}

/// What the request log keeps of the turn beside its text: the tokens its model calls used,
/// and what happened on the way (asks, a document's check, a stop).
#[derive(Default)]
pub(super) struct RequestRecord {
    pub(super) usage: Usage,
    pub(super) metadata: RequestLogMetadata,
}

impl RequestRecord {
    /// Counts the tokens of one more model call.
    pub(super) fn add_usage(&mut self, usage: &Usage) {
        self.usage.input_tokens += usage.input_tokens;
        self.usage.output_tokens += usage.output_tokens;
    }
}

/// Where the turn is in its life: its place among the running turns (and the switch that
/// stops it), its draft, and what ends its steps before the model is called.
pub(super) struct Lifecycle {
    /// Its switch among the running turns, given back when it ends.
    pub(super) stop_switch: watch::Sender<bool>,
    /// Flips to true when the user asks the turn to stop.
    pub(super) stop: watch::Receiver<bool>,
    /// When its draft was last stored.
    pub(super) draft: DraftClock,
    /// A new message came while the turn waited on a tool's question: the turn ends unsaved.
    pub(super) superseded: bool,
    /// The ask the answer's own handling paused on (an argument ask's next round, or an
    /// approval in the step it released): the turn pauses on it before calling the model.
    pub(super) held_pause: Option<Pause>,
}

impl Turn {
    pub(super) async fn run(mut self) {
        let started = Instant::now();
        if let Some(tool_call_id) = self.transcript.cancelled.clone() {
            self.events
                .emit(TurnEvent::AskResolved {
                    ask_resolved: AskResolvedEvent { tool_call_id, action: "cancel".into() },
                })
                .await;
        }
        if let Some(resolved) = &self.transcript.resolved {
            let event = AskResolvedEvent {
                tool_call_id: resolved.pending.ask.tool_call_id.clone(),
                action: resolved.response.action().into(),
            };
            self.events.emit(TurnEvent::AskResolved { ask_resolved: event }).await;
        }
        // Turns of one conversation run one after another: this one begins once those begun
        // before it are saved (by their owner, or by a sweeper when it died), and its model
        // sees their replies. Its message waits in its draft, stored before it was acknowledged.
        if self.runner.running.runs_earlier(&self.ids.history_id, &self.ids.running_key).await {
            let mut stop = self.lifecycle.stop.clone();
            self.runner.running.wait_for_earlier(&self.ids.history_id, &self.ids.running_key, &mut stop).await;
            match self.runner.conversation(&self.ids.history_id).await {
                Ok(read) => {
                    self.transcript.titled = read.view.title.is_some();
                    self.transcript.rows = read.view.rows;
                    self.transcript.turn_granted &= read.turn_granted;
                }
                Err(err) => {
                    tracing::warn!(?err, history = self.ids.history_id, "could not read what the turns before wrote")
                }
            }
        }
        let prompt_log = self.prepare().await;
        // From here on a process that dies leaves the message, and what was shown, behind.
        self.write_draft("").await;
        // An approved tool's question may have been superseded while `prepare` ran it.
        let end = match self.lifecycle.held_pause.take() {
            _ if self.lifecycle.superseded => StepsEnd::Superseded,
            Some(pause) => StepsEnd::Paused(Box::new(pause)),
            // The held step called the app's tools: the app runs them, the turn ends here.
            None if !self.output.client_calls.is_empty() => StepsEnd::Finished,
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
                self.record.metadata.stopped = true;
                // Stopped by a shutdown, not by the user: the reply is cut off.
                self.output.interrupted = self.runner.running.shutting_down();
                self.finish_stopped_document().await;
                self.save_reply().await;
            }
            StepsEnd::Paused(pause) => pending_ref = self.pause(*pause).await,
            // What the failed step said is dropped, as the reference drops it: the rows of
            // the steps before it are saved (or, for an answer that showed nothing, undone).
            StepsEnd::Failed(message) => {
                self.events.emit(TurnEvent::Error { error: message.clone() }).await;
                error = Some(message);
                pending_ref = self.undo_or_save().await;
            }
            // The new message's turn owns the conversation now: nothing more is saved, and the
            // events go nowhere (the stream ended when the question was asked).
            StepsEnd::Superseded => {
                self.record.metadata.stopped = true;
                if let Err(err) = store::forget_draft(&self.runner.pool, &self.ids.turn_id).await {
                    tracing::warn!(?err, history = self.ids.history_id, "a superseded turn's draft stays");
                }
            }
        }
        // A turn grant is made by an answer, so only a turn that went on from one can hold one;
        // it ends with the turn (a new message ends it too, when the turn stops paused).
        if pending_ref.is_none()
            && self.transcript.turn_granted
            && let Err(err) = crate::grants::store::end_turn_grants(&self.runner.pool, &self.ids.history_id).await
        {
            tracing::error!(?err, history = self.ids.history_id, "the turn's grants could not be ended");
        }
        let title = self.title().await;
        self.log(prompt_log, error.as_deref(), started).await;
        self.runner.running.unregister(&self.ids.history_id, &self.lifecycle.stop_switch).await;
        self.done(title, pending_ref).await;
    }
}
