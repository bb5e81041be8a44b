//! AG-UI 1.0: any AG-UI client (CopilotKit, the AG-UI SDKs) drives Palaver's turns. A run is a
//! turn on the conversation the thread is bound to; Palaver's asks end runs as AG-UI
//! interrupts, and a resume answers them as an answer does everywhere (checked, exactly once).
//!
//! - `plan`: what a run does (the interrupt rules); `events`: a turn's events as AG-UI's;
//!   `interrupt`: an ask as an interrupt, a resume entry as an answer; `messages`: rows as
//!   AG-UI messages; `store`: threads and the client messages runs took in.

mod events;
mod interrupt;
mod messages;
mod plan;
mod store;

use ag_ui::event::{Event, RunErrorEvent, RunFinishedEvent};
use ag_ui::input::RunAgentInput;
use ag_ui::outcome::RunOutcome;
use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use palaver_contract::asks::AskSurface;
use palaver_wire::conversation::model::{HistoryView, TurnEvent};

use crate::accounts::auth::Caller;
use crate::conversation::Conversations;
use crate::db::Pool;
use crate::error::{AppError, AppResult};
use crate::turn::client_tools::{ClientTool, open_calls};
use crate::turn::{TurnInput, TurnRequest, TurnRunner};

pub use events::BLOCKS_ACTIVITY;
use events::RunEvents;
use plan::{Plan, Refusal};

/// A run's events, each with its id (`<runId>.<n>`), for a client attaching again.
pub type RunStream = BoxStream<'static, (String, Event)>;

/// The longest thread id a client may choose.
const THREAD_ID_MAX: usize = 200;

#[derive(Clone)]
pub struct AgUi {
    pool: Pool,
    turns: TurnRunner,
    conversations: Conversations,
}

/// A thread, resolved for its caller: the conversation it runs on (`None` before its first run).
struct Thread {
    id: String,
    history_id: Option<String>,
}

impl AgUi {
    pub fn new(pool: Pool, turns: TurnRunner, conversations: Conversations) -> Self {
        Self { pool, turns, conversations }
    }

    /// Starts a run. A refusal of the request itself (not a RunAgentInput Palaver can take, a
    /// thread of someone else's, too many turns) is an error; one of its resume or its input
    /// while an interrupt is open is the run's `RUN_ERROR`.
    pub async fn run(&self, caller: Caller, input: RunAgentInput) -> AppResult<RunStream> {
        check_thread_id(input.thread_id.as_str())?;
        let client_tools = client_tools_of(&input);
        self.turns.check_client_tools(&client_tools)?;
        let thread = self.thread(&caller, input.thread_id.as_str()).await?;
        let view = match &thread.history_id {
            Some(id) => Some(self.conversations.read(&caller, id).await?),
            None => None,
        };
        let user_ids = messages::user_message_ids(&input.messages);
        let taken = match thread.history_id {
            Some(_) => store::taken_of(&self.pool, &thread.id, &user_ids).await?,
            None => Vec::new(),
        };
        let new = messages::new_user_messages(thread.history_id.as_deref(), &input.messages, &taken);
        let pending = view.as_ref().and_then(|view| view.pending_ask.as_ref()).map(|pending| &pending.ask);
        let rows = view.as_ref().map(|view| view.rows.as_slice()).unwrap_or_default();
        let resume = input.resume.clone().unwrap_or_default();
        let cancelled = |id: &str| {
            resume
                .iter()
                .any(|entry| entry.interrupt_id == id && entry.status == ag_ui::outcome::ResumeStatus::Cancelled)
        };
        let ends = Ends { thread_id: thread.id.clone(), run_id: input.run_id.to_string(), state: input.state.clone() };
        let mut claimed = Vec::new();
        let (turn_input, taken, answered) = match plan::plan(pending, rows, &resume, new) {
            Plan::Refuse(refusal) => return Ok(ends.refused(refusal)),
            Plan::Sync { already } => return Ok(Self::sync(ends, view, already)),
            Plan::Prompt { text, taken } => (TurnInput::Prompt(text), taken, None),
            Plan::Answer { tool_call_id, answer } => (
                TurnInput::Answer { tool_call_id: tool_call_id.clone(), response: answer.clone() },
                Vec::new(),
                Some((tool_call_id, answer)),
            ),
            Plan::ToolResults(results) => {
                let ids: Vec<String> = results.iter().map(|result| result.call_id.clone()).collect();
                let history_id = view.as_ref().map(|view| view.id.clone()).unwrap_or_default();
                // Of two resumes at once, one claims the calls; the other is told they were answered.
                if !store::claim_results(&self.pool, &history_id, &ids).await? {
                    let view = self.conversations.read(&caller, &history_id).await?;
                    return Ok(Self::sync(ends, Some(view), ids));
                }
                claimed = ids;
                (TurnInput::ToolResults(results), Vec::new(), None)
            }
        };
        let history_id = match thread.history_id {
            Some(id) => id,
            None => self.bind_new(&caller, &thread.id).await?,
        };
        store::start_run(&self.pool, &thread.id, &ends.run_id, &taken).await?;
        let mut request = TurnRequest::plain(caller.clone(), Some(history_id.clone()), turn_input, AskSurface::Full);
        request.client_tools = client_tools;
        let handle = match self.turns.start(request).await {
            Ok(handle) => handle,
            Err(error) => {
                store::release_results(&self.pool, &history_id, &claimed).await?;
                // Cancelling an interrupt that expired as it was resumed is how a client gets
                // past it: the expiry ended it, and that is said back.
                if let AppError::ExpiredAsk { tool_call_id, .. } = error.kind()
                    && cancelled(tool_call_id)
                {
                    let view = self.conversations.read(&caller, &history_id).await?;
                    return Ok(Self::sync(ends, Some(view), vec![tool_call_id.clone()]));
                }
                return match refusal_of(error.kind()) {
                    Some(Ok(refusal)) => Ok(ends.refused(refusal)),
                    // Answered elsewhere first (a race it lost): nothing changes, and it is said.
                    Some(Err(already)) => {
                        let view = self.conversations.read(&caller, &history_id).await?;
                        Ok(Self::sync(ends, Some(view), vec![already]))
                    }
                    None => Err(error),
                };
            }
        };
        let events = receiver_stream(handle.events);
        Ok(self.follow(ends, caller, history_id, events, answered, 0))
    }

    /// Attaches again to the run going on in a thread: its events after `last_seen`
    /// (`<runId>.<n>`), the same as it was first sent; `None` when nothing runs there.
    pub async fn attach(
        &self,
        caller: Caller,
        thread_id: &str,
        last_seen: Option<&str>,
    ) -> AppResult<Option<RunStream>> {
        let thread = self.thread(&caller, thread_id).await?;
        let Some(history_id) = thread.history_id else { return Err(AppError::HistoryNotFound.into()) };
        let Some(run_id) = store::thread(&self.pool, thread_id).await?.and_then(|row| row.run_id) else {
            return Ok(None);
        };
        let skip = last_seen
            .and_then(|id| id.strip_prefix(run_id.as_str()))
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|n| n.parse::<usize>().ok())
            .map_or(0, |n| n + 1);
        let Some(attached) = self.conversations.running.streaming(&history_id).await.and_then(|log| log.attach(None))
        else {
            return Ok(None);
        };
        let ends = Ends { thread_id: thread.id, run_id, state: Value::Null };
        let events = attached.events().map(|(_, event)| event).boxed();
        Ok(Some(self.follow(ends, caller, history_id, events, None, skip)))
    }

    /// The thread a client names, for its caller: a thread bound before (its owner's only), a
    /// conversation of the caller's under its own id, or a new thread.
    async fn thread(&self, caller: &Caller, thread_id: &str) -> AppResult<Thread> {
        let id = thread_id.to_string();
        if let Some(row) = store::thread(&self.pool, thread_id).await? {
            if row.user_id != caller.user.id {
                return Err(AppError::HistoryNotFound.into());
            }
            return Ok(Thread { id, history_id: Some(row.history_id) });
        }
        let Some(view) = self.conversations.view(thread_id).await? else { return Ok(Thread { id, history_id: None }) };
        if view.user_id.as_deref() != Some(caller.user.id.as_str()) {
            return Err(AppError::HistoryNotFound.into());
        }
        store::bind(&self.pool, thread_id, &caller.user.id, thread_id).await?;
        Ok(Thread { id, history_id: Some(view.id) })
    }

    /// Makes the conversation a new thread runs on. Of two first runs at once, one binds the
    /// thread; the other's conversation goes, and it runs on the one bound.
    async fn bind_new(&self, caller: &Caller, thread_id: &str) -> AppResult<String> {
        let created = self.conversations.create(caller, None).await?;
        if store::bind(&self.pool, thread_id, &caller.user.id, &created.id).await? {
            return Ok(created.id);
        }
        self.conversations.delete(caller, &created.id).await?;
        match store::thread(&self.pool, thread_id).await? {
            Some(row) if row.user_id == caller.user.id => Ok(row.history_id),
            _ => Err(AppError::HistoryNotFound.into()),
        }
    }

    /// A run with no turn: the conversation as stored, and what is open now.
    fn sync(ends: Ends, view: Option<HistoryView>, already: Vec<String>) -> RunStream {
        let mut out = vec![ends.started()];
        out.extend(ends.finished(view.as_ref(), already));
        ends.numbered(out, 0)
    }

    /// A turn's events as a run's: `RUN_STARTED`, the mapped events, then the snapshots and
    /// the end (read from the conversation as the turn left it). The first `skip` are left out.
    fn follow(
        &self,
        ends: Ends,
        caller: Caller,
        history_id: String,
        mut events: BoxStream<'static, TurnEvent>,
        answered: Option<(String, Value)>,
        skip: usize,
    ) -> RunStream {
        let (sender, receiver) = mpsc::channel::<(String, Event)>(64);
        let conversations = self.conversations.clone();
        tokio::spawn(async move {
            let mut run = RunEvents::new(&ends.run_id, answered);
            let mut numbered = Numbered { ends: &ends, sender, next: 0, skip };
            if !numbered.send(ends.started()).await {
                return;
            }
            while let Some(event) = events.next().await {
                for mapped in run.map(&event) {
                    if !numbered.send(mapped).await {
                        return;
                    }
                }
            }
            let end = match run.failure() {
                Some(message) => vec![ends.error(&Refusal::new("turn_failed", message))],
                None => {
                    let view = conversations.read(&caller, &history_id).await;
                    match view {
                        Ok(view) => ends.finished(Some(&view), Vec::new()),
                        Err(error) => {
                            tracing::error!(error = %error, "an AG-UI run could not read its conversation at its end");
                            vec![ends.error(&Refusal::new("turn_failed", AppError::Internal.to_string()))]
                        }
                    }
                }
            };
            for event in end {
                if !numbered.send(event).await {
                    return;
                }
            }
        });
        receiver_stream(receiver)
    }
}

/// What every run's first and last events need.
struct Ends {
    thread_id: String,
    run_id: String,
    /// The client's state: Palaver's part is set beside its keys.
    state: Value,
}

impl Ends {
    fn started(&self) -> Event {
        Event::run_started(self.thread_id.as_str(), self.run_id.as_str())
    }

    fn error(&self, refusal: &Refusal) -> Event {
        let mut error = RunErrorEvent::new(refusal.message.clone()).with_code(refusal.code);
        if !refusal.errors.is_empty() {
            let errors = json!({"errors": refusal.errors});
            error.base.metadata = errors.as_object().cloned();
        }
        error.into()
    }

    fn refused(&self, refusal: Refusal) -> RunStream {
        self.numbered(vec![self.started(), self.error(&refusal)], 0)
    }

    /// The state, the conversation as stored, and `RUN_FINISHED`: an interrupt while an ask is
    /// open, else success; `already` names resumed interrupts answered before.
    fn finished(&self, view: Option<&HistoryView>, already: Vec<String>) -> Vec<Event> {
        let pending = view.and_then(|view| view.pending_ask.as_ref()).map(|pending| &pending.ask);
        let mut state = match &self.state {
            Value::Object(object) => object.clone(),
            _ => serde_json::Map::new(),
        };
        state.insert(
            "palaver".into(),
            json!({
                "historyId": view.map(|view| view.id.clone()),
                "openInterrupt": pending.map(|ask| ask.tool_call_id.clone()),
            }),
        );
        let rows = view.map(|view| messages::snapshot(&view.id, &view.rows)).unwrap_or_default();
        let calls = view.map(|view| open_calls(&view.rows)).unwrap_or_default();
        let outcome = match pending {
            Some(ask) => RunOutcome::interrupt(vec![interrupt::interrupt(ask)]),
            None if !calls.is_empty() => {
                RunOutcome::interrupt(calls.iter().map(interrupt::client_call).collect::<Vec<_>>())
            }
            None => RunOutcome::Success,
        };
        let mut finished = RunFinishedEvent::new(self.thread_id.as_str(), self.run_id.as_str()).with_outcome(outcome);
        if !already.is_empty() {
            finished = finished.with_result(json!({"alreadyAnswered": already}));
        }
        vec![Event::state_snapshot(Value::Object(state)), Event::messages_snapshot(rows), finished.into()]
    }

    fn numbered(&self, events: Vec<Event>, skip: usize) -> RunStream {
        let run_id = self.run_id.clone();
        futures::stream::iter(
            events.into_iter().enumerate().skip(skip).map(move |(n, event)| (format!("{run_id}.{n}"), event)),
        )
        .boxed()
    }
}

/// Sends a run's events with their ids, leaving out the first `skip`.
struct Numbered<'e> {
    ends: &'e Ends,
    sender: mpsc::Sender<(String, Event)>,
    next: usize,
    skip: usize,
}

impl Numbered<'_> {
    /// False once the client has gone.
    async fn send(&mut self, event: Event) -> bool {
        let n = self.next;
        self.next += 1;
        if n < self.skip {
            return true;
        }
        self.sender.send((format!("{}.{n}", self.ends.run_id), event)).await.is_ok()
    }
}

/// How a turn's refusal is told in a run: a refusal, or (`Err`) the id of an interrupt
/// answered elsewhere first; `None` for errors the request itself gets.
fn refusal_of(error: &AppError) -> Option<Result<Refusal, String>> {
    Some(match error {
        AppError::StaleAsk { tool_call_id } => Err(tool_call_id.clone()),
        AppError::ExpiredAsk { tool_call_id, expires_at } => Ok(Refusal::new(
            "interrupt_expired",
            format!(
                "Interrupt {tool_call_id} expired at {expires_at} before it was answered; it can no longer be resumed."
            ),
        )),
        AppError::InvalidAnswer { fields } => Ok(Refusal {
            code: "invalid_answer",
            message: "The resume's payload is not an answer this interrupt takes: see the errors.".into(),
            errors: fields.clone(),
        }),
        AppError::SecondApprovalNeeded
        | AppError::AlreadyApproved
        | AppError::ApprovalRoutedElsewhere { .. }
        | AppError::AskWaiting
        | AppError::ReplyRunning => Ok(Refusal::new("resume_refused", error.to_string())),
        _ => return None,
    })
}

/// The tools the client offers, as the turn offers them to the model (a tool without
/// parameters takes an object).
fn client_tools_of(input: &RunAgentInput) -> Vec<ClientTool> {
    input
        .tools
        .iter()
        .map(|tool| ClientTool {
            name: tool.name.clone(),
            description: tool.description.clone(),
            parameters: match &tool.parameters {
                Value::Null => json!({"type": "object", "properties": {}}),
                parameters => parameters.clone(),
            },
        })
        .collect()
}

fn check_thread_id(id: &str) -> AppResult<()> {
    let fits = !id.is_empty()
        && id.len() <= THREAD_ID_MAX
        && id.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b':' | b'-'));
    if fits {
        return Ok(());
    }
    Err(AppError::BadRequest(format!(
        "threadId must be 1 to {THREAD_ID_MAX} characters of letters, digits, '.', '_', ':' and '-'."
    ))
    .into())
}

fn receiver_stream<T: Send + 'static>(mut receiver: mpsc::Receiver<T>) -> BoxStream<'static, T> {
    futures::stream::poll_fn(move |context| receiver.poll_recv(context)).boxed()
}

/// What Palaver's AG-UI face supports (`GET /agui/capabilities`): streamed runs a client can
/// attach to again, its own tools (host and MCP), state and message snapshots, and every ask
/// as an interrupt.
pub fn capabilities() -> ag_ui::capabilities::AgentCapabilities {
    use ag_ui::capabilities::{
        AgentCapabilities, HumanInTheLoopCapabilities, IdentityCapabilities, StateCapabilities, ToolsCapabilities,
        TransportCapabilities,
    };
    AgentCapabilities {
        identity: Some(IdentityCapabilities {
            name: Some("Palaver".into()),
            kind: Some("palaver".into()),
            description: Some(
                "A self-hosted chat whose agent asks typed questions mid-turn; each ask is an interrupt.".into(),
            ),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            ..Default::default()
        }),
        transport: Some(TransportCapabilities { streaming: Some(true), resumable: Some(true), ..Default::default() }),
        tools: Some(ToolsCapabilities { supported: Some(true), client_provided: Some(false), ..Default::default() }),
        state: Some(StateCapabilities { snapshots: Some(true), persistent_state: Some(true), ..Default::default() }),
        human_in_the_loop: Some(HumanInTheLoopCapabilities {
            supported: Some(true),
            approvals: Some(true),
            interrupts: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    }
}
