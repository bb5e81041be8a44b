//! A host tool call held on the person's input: its MCP server answered `input_required` (the
//! 2026-07-28 revision). What was asked, the call and the step's later calls are stored with the
//! ask, and the turn pauses like any other; nothing waits in the process, so the answer may come
//! from any surface, after a restart too. Each request is asked in turn, page by page, as a
//! running call's questions are; once all are answered the call is sent again with the answers
//! and the server's state, and a server that needs more gets the next card. Skip declines (the
//! server decides what that means); Stop, a new message or the ask's expiry end the call
//! unfinished, and nothing is sent again.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use super::asking::AskFrom;
use super::pending::held_call::{HeldCall, Taken};
use super::run::{Pause, Turn};
use super::steps::{result_row, tool_message};
use super::tools::input::{InputRequired, MAX_INPUT_ROUNDS};
use super::tools::{HostTool, ToolReply};
use crate::error::FieldError;
use crate::llm::ToolCall;
use palaver_contract::asks::{AskResponse, AskSurface, parse_ask_input};
use palaver_wire::conversation::model::HistoryRow;

/// How long an answer waits for its call's server to be connected again (a server's start).
const SERVER_START_WAIT: Duration = Duration::from_secs(30);
/// How often it looks.
const TOOL_LOOK_AGAIN: Duration = Duration::from_millis(100);

impl Turn {
    /// The pause on what `call`'s server needs (after `rounds` retries), the step's later calls
    /// held with it; `None` when the turn cannot ask it (asks are off, another ask of the step
    /// is waiting, too many rounds, or a request Palaver cannot ask): the call then ends with
    /// why (a task waiting on it is cancelled), and the step goes on.
    pub(super) async fn input_pause(
        &mut self,
        call: &ToolCall,
        input: InputRequired,
        rounds: u32,
        another_ask_waits: bool,
    ) -> Option<Pause> {
        let server = self.tools.get(&call.name).and_then(|tool| tool.server()).unwrap_or_default().to_string();
        let held = HeldCall::new(call, &server, input, rounds);
        let refusal = if !self.runner.asks_on() {
            "The MCP server needs the user's input, but asks are off.".to_string()
        } else if another_ask_waits {
            "The MCP server needs the user's input, but the turn waits on another question; call it again after \
             that one."
                .to_string()
        } else if rounds >= MAX_INPUT_ROUNDS {
            format!("The MCP server still needed input after {MAX_INPUT_ROUNDS} rounds; the call was given up.")
        } else {
            // Every card is planned now: an answer is never asked for a call that cannot go on.
            match held.check().and_then(|()| self.held_pause(held.clone())) {
                Ok(pause) => return Some(pause),
                Err(problem) => {
                    tracing::warn!(server, %problem, "a call's input request cannot be asked");
                    format!("The MCP server needed input Palaver cannot ask: {problem}")
                }
            }
        };
        self.give_up_held_call(&held, json!({"error": refusal})).await;
        None
    }

    /// The pause on the page `held` asks now.
    fn held_pause(&self, held: HeldCall) -> Result<Pause, String> {
        let question = held.question()?;
        let (kind, input) = question.ask(held.page);
        // Any surface may answer later, so the ask is checked as the chat shows it.
        let ask = parse_ask_input(kind, &input, AskSurface::Full).map_err(|errors| {
            let problems: Vec<String> = errors.iter().map(|error| FieldError::from(error).message).collect();
            format!("its question does not make a valid card ({})", problems.join("; "))
        })?;
        let from = AskFrom::ToolInput {
            tool: held.call.name.clone(),
            server: held.server.clone(),
            url: question.link().map(str::to_string),
            app: held.app_ask(&question),
        };
        let mut pause = self.ask_pause(&input, ask, from);
        pause.stored.held_call = Some(Box::new(held));
        Ok(pause)
    }

    /// A held call's ask answered: the next page or request, else the call sent again with
    /// the answers (which may need more); then the step's later calls.
    pub(super) async fn finish_held_call(&mut self, mut held: HeldCall, response: &AskResponse) {
        match response {
            // The call's row was stored with the answer (`answer_rows`); the model is told.
            AskResponse::Cancel { reason } => {
                let result = HeldCall::unfinished(reason.as_deref());
                self.emit_tool_result(&held.call.id, &held.call.name, result.clone()).await;
                self.transcript.messages.push(tool_message(&held.call, result));
            }
            _ => match held.take(response) {
                Err(problem) => self.give_up_held_call(&held, json!({"error": problem})).await,
                Ok(Taken::More) => match self.held_pause(held.clone()) {
                    Ok(pause) => {
                        self.lifecycle.held_pause = Some(pause);
                        return;
                    }
                    Err(problem) => self.give_up_held_call(&held, json!({"error": problem})).await,
                },
                Ok(Taken::Answered) => {
                    if let Some(pause) = self.send_held_call_again(&mut held).await {
                        self.lifecycle.held_pause = Some(pause);
                        return;
                    }
                }
            },
        }
        self.lifecycle.held_pause = self.run_calls(held.rest).await;
        if self.lifecycle.held_pause.is_some() {
            self.close_client_calls().await;
        }
    }

    /// Sends a held call again with every answer, to the server that asked; the pause on what
    /// it needs next, if it does.
    pub(super) async fn send_held_call_again(&mut self, held: &mut HeldCall) -> Option<Pause> {
        let call = held.call.clone();
        if !self.wait_for_server(held).await {
            let gone = format!("The MCP server \"{}\" is not connected, so the call could not go on.", held.server);
            self.end_held_call(&call, json!({"error": gone})).await;
            return None;
        }
        match self.run_host_tool(&call, Some(held.retry())).await {
            ToolReply::Done(output) => {
                self.output.new_rows.push(result_row(&call, output.result.clone()));
                self.transcript.messages.push(output.message(&call.id, &call.name));
                self.write_draft_after_task().await;
                None
            }
            ToolReply::NeedsInput(input) => {
                let pause = self.input_pause(&call, input, held.rounds + 1, false).await?;
                Some(pause.holding(std::mem::take(&mut held.rest)))
            }
        }
    }

    /// The held call's tool as its own server offers it now (a tool of that name from another
    /// server never gets the answers).
    fn held_tool(&self, held: &HeldCall) -> Option<Arc<dyn HostTool>> {
        self.tools.get(&held.call.name).filter(|tool| tool.server() == Some(held.server.as_str())).cloned()
    }

    /// Waits until the held call's server offers its tool, as long as a server has to start:
    /// after a restart, the answer may come before Palaver has connected to it again.
    async fn wait_for_server(&mut self, held: &HeldCall) -> bool {
        let deadline = tokio::time::Instant::now() + SERVER_START_WAIT;
        while self.held_tool(held).is_none() && self.tools.get(&held.call.name).is_none() {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(TOOL_LOOK_AGAIN).await;
            if let Some(tool) = self.runner.tools().get(&held.call.name) {
                // Offered now: the registry has no other tool of that name.
                let _ = self.tools.insert(tool.clone());
            }
        }
        self.held_tool(held).is_some()
    }

    /// Ends a held call that will not be sent again: what its server holds for it (a task) is
    /// let go, and the call ends with `result`.
    async fn give_up_held_call(&mut self, held: &HeldCall, result: Value) {
        if let Some(tool) = self.held_tool(held) {
            tool.abandon(&held.input);
        }
        self.end_held_call(&held.call, result).await;
    }

    /// Ends a held call without its server's result: shown, stored and told as `result`.
    async fn end_held_call(&mut self, call: &ToolCall, result: Value) {
        self.emit_tool_result(&call.id, &call.name, result.clone()).await;
        self.output.new_rows.push(result_row(call, result.clone()));
        self.transcript.messages.push(tool_message(call, result));
    }
}

impl Pause {
    /// The pause with the step's later calls held beside the call it asks for.
    pub(super) fn holding(mut self, rest: Vec<ToolCall>) -> Pause {
        if let Some(held) = self.stored.held_call.as_mut() {
            held.rest = rest;
        }
        self
    }
}

/// The row that ends a held call whose question was cancelled (stored with the cancel).
pub(super) fn unfinished_row(held: &HeldCall, reason: Option<&str>) -> HistoryRow {
    result_row(&held.call, HeldCall::unfinished(reason))
}
