//! A running tool's question (an MCP server's elicitation) asked in the chat: the turn saves
//! what it has and pauses on the ask like any other, so the client's stream ends and every
//! surface can answer it, but the turn itself stays alive, because the tool is still running;
//! the answer's request picks up its events ([`super::waiting`]). The ask expires when the
//! call can wait no longer (an MCP server's `answerTimeoutSeconds`): the call then ends,
//! freeing its server for other people's calls.

use std::time::Duration;

use serde_json::Map;
use tokio::sync::{mpsc, oneshot};

use super::asking::AskFrom;
use super::run::Turn;
use super::tools::question::{QuestionAnswer, Step, ToolQuestion};
use super::waiting::Resumed;
use crate::llm::ToolCall;
use palaver_contract::asks::{AskResponse, AskSurface, parse_ask_input};
use palaver_wire::audit::Decider;
use palaver_wire::conversation::model::{AskResolvedEvent, TurnEvent};

/// The cancel reason an elicitation gets when the user stops the turn while it waits.
const STOPPED: &str = "user_stopped";

/// The cancel reason an elicitation gets when its server withdraws it (or its call ends).
const WITHDRAWN: &str = "server_withdrew";

/// Nobody answered a tool's question before its ask expired: the call has waited on the
/// person as long as it may.
pub(super) struct AnswerTimedOut;

impl Turn {
    /// Asks `question` of the user, page by page, for the host tool call `call`, each page's
    /// ask expiring `answer_within` from now; `reply` is where the answer goes (closed when the
    /// server withdraws the question).
    pub(super) async fn ask_question(
        &mut self,
        call: &ToolCall,
        question: ToolQuestion,
        answer_within: Duration,
        reply: &mut oneshot::Sender<QuestionAnswer>,
    ) -> Result<QuestionAnswer, AnswerTimedOut> {
        if !self.runner.asks_on() {
            tracing::warn!(server = question.asker(), "an elicitation was declined: asks are off");
            return Ok(QuestionAnswer::Decline);
        }
        let deadline = tokio::time::Instant::now() + answer_within;
        let mut content = Map::new();
        for page in 0..question.pages() {
            let (kind, input) = question.ask(page);
            // Any surface may answer later, so the ask is checked as the chat shows it.
            let ask = match parse_ask_input(kind, &input, AskSurface::Full) {
                Ok(ask) => ask,
                Err(errors) => {
                    tracing::warn!(server = question.asker(), ?errors, "an elicitation's ask does not validate");
                    return Ok(QuestionAnswer::Decline);
                }
            };
            let from = AskFrom::Elicitation {
                tool: call.name.clone(),
                call_id: call.id.clone(),
                server: question.asker().to_string(),
                url: question.link().map(str::to_string),
                answer_within: deadline.saturating_duration_since(tokio::time::Instant::now()),
            };
            let pause = self.ask_pause(&input, ask, from);
            let ask_id = pause.stored.ask.tool_call_id.clone();
            let Some(response) = self.wait_for_answer(pause, &ask_id, &question, page, reply).await? else {
                return Ok(QuestionAnswer::Cancel);
            };
            if let Step::Done(answer) = question.answer(page, &response, &mut content) {
                return Ok(answer);
            }
        }
        Ok(QuestionAnswer::Cancel)
    }

    /// Pauses on one page's ask and waits, alive, for its answer; `None` when the turn is
    /// stopped, a new message supersedes it, or the server withdraws the question first;
    /// [`AnswerTimedOut`] when the ask expired.
    async fn wait_for_answer(
        &mut self,
        pause: super::run::Pause,
        ask_id: &str,
        question: &ToolQuestion,
        page: usize,
        reply: &mut oneshot::Sender<QuestionAnswer>,
    ) -> Result<Option<AskResponse>, AnswerTimedOut> {
        let waiting = self.runner.waiting.clone();
        // Registered before the ask is stored, so an answer as quick as can be finds the turn.
        let Some(resumed) = waiting.wait(&self.ids.history_id, ask_id, question.clone(), page) else {
            tracing::warn!(
                server = question.asker(),
                "an elicitation was cancelled: the conversation waits on another"
            );
            return Ok(None);
        };
        let Some(pending) = self.pause(pause).await else {
            waiting.forget(&self.ids.history_id, ask_id);
            return Ok(None);
        };
        // The reply after the answer starts afresh.
        self.output.reply.clear();
        // A turn that asked names nothing: the title comes after the first reply.
        self.done(None, Some(pending)).await;
        // This request's stream ends here; the answer's request gets what follows.
        self.events.sender = mpsc::channel(1).0;
        let mut stop = self.lifecycle.stop.clone();
        let ended = tokio::select! {
            resumed = resumed => match resumed {
                Ok(resumed) => Ok(resumed),
                Err(_) => Err(WITHDRAWN),
            },
            _ = async { let _ = stop.wait_for(|stopped| *stopped).await; } => Err(STOPPED),
            _ = reply.closed() => Err(WITHDRAWN),
        };
        match ended {
            Ok(Resumed::Answer { response, events, stream_id }) => {
                self.events.sender = events;
                self.events.log.restart(&stream_id);
                let event = AskResolvedEvent { tool_call_id: ask_id.to_string(), action: response.action().into() };
                self.events.emit(TurnEvent::AskResolved { ask_resolved: event }).await;
                Ok(Some(response))
            }
            Ok(Resumed::Superseded) => {
                self.lifecycle.superseded = true;
                Ok(None)
            }
            Ok(Resumed::Expired) => Err(AnswerTimedOut),
            Err(reason) => {
                waiting.forget(&self.ids.history_id, ask_id);
                if let Err(err) = self
                    .runner
                    .cancel_pending(&self.ids.history_id, &self.ids.turn_id, reason, Some(ask_id), &Decider::palaver())
                    .await
                {
                    tracing::error!(?err, "could not cancel an elicitation");
                }
                Ok(None)
            }
        }
    }
}
