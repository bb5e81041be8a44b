//! Turns that wait on the user's answer to a running tool's question (an MCP elicitation):
//! the tool is still running, so the answer goes to that turn, not to a new one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{mpsc, oneshot};

use super::tools::question::ToolQuestion;
use crate::error::FieldError;
use palaver_contract::asks::AskResponse;
use palaver_wire::conversation::model::TurnEvent;

/// What reaches a waiting turn.
pub enum Resumed {
    /// The answer, and the events channel of the request that sent it: the turn goes on there.
    Answer { response: AskResponse, events: mpsc::Sender<TurnEvent>, stream_id: String },
    /// A new message came first: the turn ends, and the question is cancelled.
    Superseded,
    /// Nobody answered before the ask's deadline (it is stored as expired): the tool's call
    /// has waited on the person as long as it may, and ends; the turn goes on without it.
    Expired,
}

struct Waiter {
    tool_call_id: String,
    question: ToolQuestion,
    page: usize,
    resume: oneshot::Sender<Resumed>,
}

/// The waiting turns, by conversation (a conversation has one pending ask at a time).
#[derive(Clone, Default)]
pub struct WaitingTurns {
    waiting: Arc<Mutex<HashMap<String, Waiter>>>,
}

impl WaitingTurns {
    fn waiting(&self) -> MutexGuard<'_, HashMap<String, Waiter>> {
        self.waiting.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a turn waiting on page `page` of `question`, asked as `tool_call_id`; `None`
    /// when another turn of the conversation waits already (one pending ask at a time).
    pub fn wait(
        &self,
        history_id: &str,
        tool_call_id: &str,
        question: ToolQuestion,
        page: usize,
    ) -> Option<oneshot::Receiver<Resumed>> {
        let mut waiting = self.waiting();
        if waiting.get(history_id).is_some_and(|waiter| !waiter.resume.is_closed()) {
            return None;
        }
        let (resume, resumed) = oneshot::channel();
        let waiter = Waiter { tool_call_id: tool_call_id.to_string(), question, page, resume };
        waiting.insert(history_id.to_string(), waiter);
        Some(resumed)
    }

    /// Whether a turn waits on the ask `tool_call_id` of the conversation.
    pub fn is_waiting(&self, history_id: &str, tool_call_id: &str) -> bool {
        self.waiting().get(history_id).is_some_and(|waiter| waiter.tool_call_id == tool_call_id)
    }

    /// Forgets a turn that stopped waiting by itself.
    pub fn forget(&self, history_id: &str, tool_call_id: &str) {
        let mut waiting = self.waiting();
        if waiting.get(history_id).is_some_and(|waiter| waiter.tool_call_id == tool_call_id) {
            waiting.remove(history_id);
        }
    }

    /// What the question's schema refuses in `response`; `None`
    /// when no turn waits on that ask (the process restarted since it was asked).
    pub fn refusals(&self, history_id: &str, tool_call_id: &str, response: &AskResponse) -> Option<Vec<FieldError>> {
        let waiting = self.waiting();
        let waiter = waiting.get(history_id).filter(|waiter| waiter.tool_call_id == tool_call_id)?;
        Some(waiter.question.refusals(waiter.page, response))
    }

    /// Hands the waiting turn what it waits for; `false` when no turn waits on that ask.
    pub fn resume(&self, history_id: &str, tool_call_id: &str, resumed: Resumed) -> bool {
        let mut waiting = self.waiting();
        if waiting.get(history_id).is_none_or(|waiter| waiter.tool_call_id != tool_call_id) {
            return false;
        }
        let Some(waiter) = waiting.remove(history_id) else { return false };
        waiter.resume.send(resumed).is_ok()
    }
}
