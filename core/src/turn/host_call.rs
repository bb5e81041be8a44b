//! Running a host tool call now: the context it runs with, the questions it asks and what it
//! says it is doing while it runs (a task its server runs it as is stored with the draft), and
//! its result as the turn shows it.

use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::pending::held_call::HeldCall;
use super::run::Turn;
use super::tools::input::{InputAnswers, InputRequired};
use super::tools::{CallNews, PendingQuestion, ToolContext, ToolOutput, ToolReply};
use crate::llm::ToolCall;
use palaver_wire::conversation::model::{ToolResultEvent, ToolStatusEvent, TurnEvent};

/// What the model is told of a call whose question expired unanswered.
const QUESTION_TIMED_OUT: &str = "The user did not answer the tool's question in time, so the call was cancelled.";

impl Turn {
    pub(super) fn context(
        &self,
        call_id: &str,
        questions: mpsc::Sender<PendingQuestion>,
        answers: Option<InputAnswers>,
        news: Option<mpsc::Sender<CallNews>>,
    ) -> ToolContext {
        ToolContext {
            pool: self.runner.pool.clone(),
            user_id: self.ids.user_id.clone(),
            history_id: self.ids.history_id.clone(),
            idempotency_key: format!("{}:{call_id}", self.ids.turn_id),
            questions: Some(questions),
            answers,
            news,
        }
    }

    pub(super) async fn emit_tool_result(&mut self, call_id: &str, tool_name: &str, result: Value) {
        let event = ToolResultEvent { tool_call_id: call_id.to_string(), tool_name: tool_name.to_string(), result };
        self.events.emit(TurnEvent::ToolResult { tool_result: event }).await;
    }

    async fn emit_tool_status(&mut self, call_id: &str, message: String) {
        let status = ToolStatusEvent { tool_call_id: call_id.to_string(), message };
        self.events.emit(TurnEvent::ToolStatus { tool_status: status }).await;
    }

    /// Runs a host tool (its approval, if it needs one, given; `answers` when it is sent again
    /// after it needed input) and emits its result, unless it needs the person's input. The
    /// run ends early, as a tool error, when the user stops the turn or leaves its question
    /// unanswered past the ask's deadline.
    pub(super) async fn run_host_tool(&mut self, call: &ToolCall, answers: Option<InputAnswers>) -> ToolReply {
        let Some(tool) = self.tools.get(&call.name).cloned() else {
            return json!({"error": format!("There is no tool named \"{}\".", call.name)}).into();
        };
        let mut stop = self.lifecycle.stop.clone();
        let (questions, mut asked) = mpsc::channel(1);
        let (news, mut told) = mpsc::channel(4);
        let run = tool.execute(self.context(&call.id, questions, answers, Some(news)), call.input.clone());
        tokio::pin!(run);
        let output: ToolOutput = loop {
            tokio::select! {
                Some(news) = told.recv() => self.take_news(call, tool.server(), news).await,
                reply = &mut run => {
                    // What the call said last comes before how it ended.
                    while let Ok(news) = told.try_recv() {
                        self.take_news(call, tool.server(), news).await;
                    }
                    break match reply {
                        Ok(ToolReply::Done(output)) => output,
                        Ok(needs @ ToolReply::NeedsInput(_)) => {
                            // A task that needs input waits with the ask, not with the draft.
                            self.lifecycle.draft.follow(None);
                            return needs;
                        }
                        Err(message) => json!({"error": message}).into(),
                    };
                }
                Some(PendingQuestion { question, mut reply, answer_within }) = asked.recv() => {
                    let Ok(answer) = self.ask_question(call, question, answer_within, &mut reply).await else {
                        // Dropping the run ends the call and frees what it holds (its MCP server).
                        break json!({"error": QUESTION_TIMED_OUT}).into();
                    };
                    let _ = reply.send(answer);
                    if self.lifecycle.superseded {
                        return json!({"error": "A new message came before the tool's question was answered."}).into();
                    }
                }
                _ = async { let _ = stop.wait_for(|stopped| *stopped).await; } => {
                    break json!({"error": "The user stopped the turn before the tool finished."}).into();
                }
            }
        };
        // However the call ended, no task of it is followed any more.
        self.lifecycle.draft.follow(None);
        self.emit_tool_result(&call.id, &call.name, output.result.clone()).await;
        ToolReply::Done(output)
    }

    /// What the running `call` (of `server`'s tool) said: its status is shown; a task it runs
    /// as is stored with the draft at once, so that a sweeper follows it on should the process
    /// stop (`follow_on`).
    async fn take_news(&mut self, call: &ToolCall, server: Option<&str>, news: CallNews) {
        match news {
            CallNews::Status(message) => self.emit_tool_status(&call.id, message).await,
            CallNews::Task { task_id, stored } => {
                let input = InputRequired { requests: Vec::new(), request_state: None, task_id: Some(task_id) };
                self.lifecycle.draft.follow(Some(HeldCall::new(call, server.unwrap_or_default(), input, 0)));
                self.write_draft("").await;
                let _ = stored.send(());
            }
        }
    }
}
