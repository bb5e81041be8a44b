//! AG-UI 1.0: any AG-UI client (CopilotKit, the AG-UI SDKs) drives Palaver's turns. A run is a
//! turn on the conversation the thread is bound to; Palaver's asks end runs as AG-UI
//! interrupts, and a resume answers them as an answer does everywhere (checked, exactly once).
//!
//! - `plan`: what a run does (the interrupt rules); `events`: a turn's events as AG-UI's;
//!   `ends`: a run's first and last events and the task that follows a turn; `interrupt`: an
//!   ask as an interrupt, a resume entry as an answer; `messages`: rows as AG-UI messages;
//!   `store`: threads and the client messages runs took in.

mod capabilities;
mod ends;
mod events;
mod interrupt;
mod messages;
mod plan;
mod store;

use ag_ui::event::Event;
use ag_ui::input::RunAgentInput;
use ag_ui::outcome::ResumeStatus;
use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::{Value, json};

use palaver_contract::asks::AskSurface;

use crate::accounts::auth::Caller;
use crate::conversation::Conversations;
use crate::db::Pool;
use crate::error::{AppError, AppResult};
use crate::turn::client_tools::ClientTool;
use crate::turn::{TurnInput, TurnRequest, TurnRunner};

pub use capabilities::capabilities;
use ends::{Ends, Following, follow, refusal_of};
use plan::Plan;

/// A run's events, each with its id (`<runId>.<n>`), for a client attaching again.
pub type RunStream = BoxStream<'static, (String, Event)>;

/// The longest thread or run id a client may choose.
const ID_MAX: usize = 200;

/// The most entries one resume may carry: a run ends with at most a step's calls open.
const RESUME_MAX: usize = 64;

#[derive(Clone)]
pub struct AgUi {
    pool: Pool,
    turns: TurnRunner,
    conversations: Conversations,
}

/// A thread of the caller's: the conversation it runs on (`None` before its first run).
struct Thread {
    id: String,
    history_id: Option<String>,
}

impl AgUi {
    pub fn new(pool: Pool, turns: TurnRunner, conversations: Conversations) -> Self {
        Self { pool, turns, conversations }
    }

    /// Starts a run. A refusal of the request itself (not a RunAgentInput Palaver can take, a
    /// conversation of someone else's, too many turns) is an error; one of its resume or its
    /// input while an interrupt is open is the run's `RUN_ERROR`.
    pub async fn run(&self, caller: Caller, input: RunAgentInput) -> AppResult<RunStream> {
        check_id("threadId", input.thread_id.as_str())?;
        check_id("runId", input.run_id.as_str())?;
        let resume = input.resume.clone().unwrap_or_default();
        if resume.len() > RESUME_MAX {
            return Err(AppError::BadRequest(format!("A resume answers at most {RESUME_MAX} interrupts.")).into());
        }
        let client_tools = client_tools_of(&input);
        self.turns.check_client_tools(&client_tools)?;
        let user_id = caller.user.id.clone();
        let thread = self.thread(&caller, input.thread_id.as_str()).await?;
        let view = match &thread.history_id {
            Some(id) => Some(self.conversations.read(&caller, id).await?),
            None => None,
        };
        let user_ids = messages::user_message_ids(&input.messages);
        let taken = match thread.history_id {
            Some(_) => store::taken_of(&self.pool, &user_id, &thread.id, &user_ids).await?,
            None => Vec::new(),
        };
        let new = messages::new_user_messages(thread.history_id.as_deref(), &input.messages, &taken);
        let pending = view.as_ref().and_then(|view| view.pending_ask.as_ref()).map(|pending| &pending.ask);
        let rows = view.as_ref().map(|view| view.rows.as_slice()).unwrap_or_default();
        let ends = Ends { thread_id: thread.id.clone(), run_id: input.run_id.to_string(), state: input.state.clone() };
        let tool_messages = messages::tool_results(&input.messages);
        let (turn_input, taking, answered) = match plan::plan(pending, rows, &resume, new, &tool_messages) {
            Plan::Refuse(refusal) => return Ok(ends.refused(refusal)),
            Plan::Sync { already } => return Ok(ends.sync(view.as_ref(), already)),
            Plan::Prompt { text, taken } => (TurnInput::Prompt(text), taken, None),
            Plan::Answer { tool_call_id, answer } => (
                TurnInput::Answer { tool_call_id: tool_call_id.clone(), response: answer.clone() },
                Vec::new(),
                Some((tool_call_id, answer)),
            ),
            Plan::ToolResults(results) => (TurnInput::ToolResults(results), Vec::new(), None),
        };
        let history_id = match thread.history_id {
            Some(id) => id,
            None => self.bind_new(&caller, &thread.id).await?,
        };
        // Of two runs sending the same message at once, one takes it; the other only syncs.
        if !store::take_messages(&self.pool, &user_id, &thread.id, &taking).await? {
            let view = self.conversations.read(&caller, &history_id).await?;
            return Ok(ends.sync(Some(&view), Vec::new()));
        }
        let mut request = TurnRequest::plain(caller.clone(), Some(history_id.clone()), turn_input, AskSurface::Full);
        request.client_tools = client_tools;
        let handle = match self.turns.start(request).await {
            Ok(handle) => handle,
            Err(error) => {
                // The turn never started: its messages are not taken.
                if let Err(give_back) = store::give_back_messages(&self.pool, &user_id, &thread.id, &taking).await {
                    tracing::error!(error = %give_back, "an AG-UI run could not give back the messages of a turn that did not start");
                }
                return self.refused(ends, &caller, &history_id, &resume, error).await;
            }
        };
        let (state, answer) =
            (ends.state.to_string(), answered.as_ref().map(|(id, answer)| json!([id, answer]).to_string()));
        let record = store::RunRecord {
            run_id: &ends.run_id,
            stream_id: &handle.stream_id,
            state: &state,
            answer: answer.as_deref(),
        };
        store::start_run(&self.pool, &user_id, &thread.id, &record).await?;
        let events = receiver_stream(handle.events);
        let following = Following { conversations: self.conversations.clone(), caller, history_id, answered, skip: 0 };
        Ok(follow(ends, following, events))
    }

    /// How a turn the runner refused ends the run: a `RUN_ERROR`, or a sync that says the
    /// interrupt was answered (elsewhere first, or ended by its expiry and cancelled here).
    async fn refused(
        &self,
        ends: Ends,
        caller: &Caller,
        history_id: &str,
        resume: &[ag_ui::outcome::ResumeEntry],
        error: crate::error::Error,
    ) -> AppResult<RunStream> {
        let cancelled =
            |id: &str| resume.iter().any(|entry| entry.interrupt_id == id && entry.status == ResumeStatus::Cancelled);
        let already = match (error.kind(), refusal_of(error.kind())) {
            // Cancelling an interrupt that expired as it was resumed is how a client gets past it.
            (AppError::ExpiredAsk { tool_call_id, .. }, _) if cancelled(tool_call_id) => tool_call_id.clone(),
            (_, Some(Err(already))) => already,
            (_, Some(Ok(refusal))) => return Ok(ends.refused(refusal)),
            (_, None) => return Err(error),
        };
        let view = self.conversations.read(caller, history_id).await?;
        Ok(ends.sync(Some(&view), vec![already]))
    }

    /// Attaches again to the run going on in a thread: its events after `last_seen`
    /// (`<runId>.<n>`), the same as it was first sent; `None` when the thread's last run is over
    /// (another turn running there is not it).
    pub async fn attach(
        &self,
        caller: Caller,
        thread_id: &str,
        last_seen: Option<&str>,
    ) -> AppResult<Option<RunStream>> {
        let thread = self.thread(&caller, thread_id).await?;
        let Some(history_id) = thread.history_id else { return Err(AppError::HistoryNotFound.into()) };
        let Some(row) = store::thread(&self.pool, &caller.user.id, thread_id).await? else { return Ok(None) };
        let (Some(run_id), Some(run_stream)) = (row.run_id, row.run_stream) else { return Ok(None) };
        let Some(attached) = self.conversations.running.streaming(&history_id).await.and_then(|log| log.attach(None))
        else {
            return Ok(None);
        };
        if attached.stream_id != run_stream {
            return Ok(None);
        }
        let skip = last_seen
            .and_then(|id| id.strip_prefix(run_id.as_str()))
            .and_then(|rest| rest.strip_prefix('.'))
            .and_then(|n| n.parse::<usize>().ok())
            .map_or(0, |n| n + 1);
        let state = row.run_state.and_then(|state| serde_json::from_str(&state).ok()).unwrap_or(Value::Null);
        let answered = row.run_answer.and_then(|answer| serde_json::from_str::<(String, Value)>(&answer).ok());
        let ends = Ends { thread_id: thread.id, run_id, state };
        let events = attached.events().map(|(_, event)| event).boxed();
        let following = Following { conversations: self.conversations.clone(), caller, history_id, answered, skip };
        Ok(Some(follow(ends, following, events)))
    }

    /// The thread a client names, in the caller's own namespace: one bound before, a
    /// conversation of the caller's under its own id, or a new thread. Another person's
    /// conversation id is not found.
    async fn thread(&self, caller: &Caller, thread_id: &str) -> AppResult<Thread> {
        let id = thread_id.to_string();
        if let Some(row) = store::thread(&self.pool, &caller.user.id, thread_id).await? {
            return Ok(Thread { id, history_id: Some(row.history_id) });
        }
        let Some(view) = self.conversations.view(thread_id).await? else { return Ok(Thread { id, history_id: None }) };
        if view.user_id.as_deref() != Some(caller.user.id.as_str()) {
            return Err(AppError::HistoryNotFound.into());
        }
        store::bind(&self.pool, &caller.user.id, thread_id, thread_id).await?;
        Ok(Thread { id, history_id: Some(view.id) })
    }

    /// Makes the conversation a new thread runs on. Of two first runs at once, one binds the
    /// thread; the other's conversation goes, and it runs on the one bound.
    async fn bind_new(&self, caller: &Caller, thread_id: &str) -> AppResult<String> {
        let created = self.conversations.create(caller, None).await?;
        if store::bind(&self.pool, &caller.user.id, thread_id, &created.id).await? {
            return Ok(created.id);
        }
        self.conversations.delete(caller, &created.id).await?;
        let bound = store::thread(&self.pool, &caller.user.id, thread_id).await?;
        bound.map(|row| row.history_id).ok_or_else(|| AppError::HistoryNotFound.into())
    }
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

/// A thread or run id: it names the thread and goes out in every event's id.
fn check_id(field: &str, id: &str) -> AppResult<()> {
    let fits = !id.is_empty()
        && id.len() <= ID_MAX
        && id.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b':' | b'-'));
    if fits {
        return Ok(());
    }
    Err(AppError::BadRequest(format!(
        "{field} must be 1 to {ID_MAX} characters of letters, digits, '.', '_', ':' and '-'."
    ))
    .into())
}

fn receiver_stream<T: Send + 'static>(mut receiver: tokio::sync::mpsc::Receiver<T>) -> BoxStream<'static, T> {
    futures::stream::poll_fn(move |context| receiver.poll_recv(context)).boxed()
}
