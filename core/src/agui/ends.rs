//! A run's frame: its first event, its end (the state, the conversation as stored and
//! `RUN_FINISHED`, or `RUN_ERROR`), the ids its events go out under, and the task that follows a
//! turn's events to the client.

use ag_ui::event::{Event, RunErrorEvent, RunFinishedEvent};
use ag_ui::outcome::RunOutcome;
use futures::StreamExt;
use futures::stream::BoxStream;
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use palaver_wire::conversation::model::{HistoryView, TurnEvent};

use super::events::RunEvents;
use super::plan::Refusal;
use super::{RunStream, interrupt, messages};
use crate::accounts::auth::Caller;
use crate::conversation::Conversations;
use crate::error::AppError;
use crate::turn::client_tools::open_calls;

/// What a run's first and last events need.
pub(super) struct Ends {
    pub(super) thread_id: String,
    pub(super) run_id: String,
    /// The client's state: Palaver's part is set beside its keys.
    pub(super) state: Value,
}

impl Ends {
    pub(super) fn started(&self) -> Event {
        Event::run_started(self.thread_id.as_str(), self.run_id.as_str())
    }

    pub(super) fn error(&self, refusal: &Refusal) -> Event {
        let mut error = RunErrorEvent::new(refusal.message.clone()).with_code(refusal.code);
        if !refusal.errors.is_empty() {
            error.base.metadata = json!({"errors": refusal.errors}).as_object().cloned();
        }
        error.into()
    }

    pub(super) fn refused(&self, refusal: Refusal) -> RunStream {
        self.numbered(vec![self.started(), self.error(&refusal)])
    }

    /// A run with no turn: the conversation as stored, and what is open now; `already` names
    /// resumed interrupts answered before.
    pub(super) fn sync(&self, view: Option<&HistoryView>, already: Vec<String>) -> RunStream {
        let result = (!already.is_empty()).then(|| Map::from_iter([("alreadyAnswered".into(), json!(already))]));
        let mut out = vec![self.started()];
        out.extend(self.finished(view, result));
        self.numbered(out)
    }

    /// The state, the conversation as stored, and `RUN_FINISHED`: an interrupt while an ask or
    /// a call of the app's tool is open, else success; `result` as the run has one.
    pub(super) fn finished(&self, view: Option<&HistoryView>, result: Option<Map<String, Value>>) -> Vec<Event> {
        let pending = view.and_then(|view| view.pending_ask.as_ref()).map(|pending| &pending.ask);
        let mut state = match &self.state {
            Value::Object(object) => object.clone(),
            _ => Map::new(),
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
        if let Some(result) = result {
            finished = finished.with_result(Value::Object(result));
        }
        vec![Event::state_snapshot(Value::Object(state)), Event::messages_snapshot(rows), finished.into()]
    }

    fn numbered(&self, events: Vec<Event>) -> RunStream {
        let run_id = self.run_id.clone();
        futures::stream::iter(events.into_iter().enumerate().map(move |(n, event)| (format!("{run_id}.{n}"), event)))
            .boxed()
    }
}

/// Sends a run's events with their ids, leaving out the first `skip`.
struct Numbered {
    run_id: String,
    sender: mpsc::Sender<(String, Event)>,
    next: usize,
    skip: usize,
}

impl Numbered {
    /// False once the client has gone.
    async fn send(&mut self, event: Event) -> bool {
        let n = self.next;
        self.next += 1;
        if n < self.skip {
            return true;
        }
        self.sender.send((format!("{}.{n}", self.run_id), event)).await.is_ok()
    }
}

/// Where a followed turn's run goes, and what it started from.
pub(super) struct Following {
    pub(super) conversations: Conversations,
    pub(super) caller: Caller,
    pub(super) history_id: String,
    /// The answer a resume gave, for the result of the call it answers.
    pub(super) answered: Option<(String, Value)>,
    /// How many of the run's events the client has (attaching again).
    pub(super) skip: usize,
}

/// A turn's events as a run's: `RUN_STARTED`, the mapped events, then the end, read from the
/// conversation as the turn left it. A turn whose events stop before its end (its process went)
/// ends the run with `RUN_ERROR`, what it had open closed first.
pub(super) fn follow(ends: Ends, following: Following, mut events: BoxStream<'static, TurnEvent>) -> RunStream {
    let (sender, receiver) = mpsc::channel::<(String, Event)>(64);
    tokio::spawn(async move {
        let Following { conversations, caller, history_id, answered, skip } = following;
        let mut run = RunEvents::new(&ends.run_id, answered);
        let mut numbered = Numbered { run_id: ends.run_id.clone(), sender, next: 0, skip };
        let mut out = vec![ends.started()];
        loop {
            for event in out.drain(..) {
                if !numbered.send(event).await {
                    return;
                }
            }
            let Some(event) = events.next().await else { break };
            out = run.map(&event);
        }
        let mut end = run.close();
        match run.failure() {
            Some(message) => end.push(ends.error(&Refusal::new("turn_failed", message))),
            None => match conversations.read(&caller, &history_id).await {
                Ok(view) => end.extend(ends.finished(Some(&view), run.warnings())),
                Err(error) => {
                    tracing::error!(error = %error, "an AG-UI run could not read its conversation at its end");
                    end.push(ends.error(&Refusal::new("turn_failed", AppError::Internal.to_string())));
                }
            },
        }
        for event in end {
            if !numbered.send(event).await {
                return;
            }
        }
    });
    super::receiver_stream(receiver)
}

/// How a turn's refusal is told in a run: a refusal, or (`Err`) the id of an interrupt
/// answered elsewhere first; `None` for errors the request itself gets.
pub(super) fn refusal_of(error: &AppError) -> Option<Result<Refusal, String>> {
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
        | AppError::ReplyRunning => Ok(Refusal::new("turn_refused", error.to_string())),
        _ => return None,
    })
}
