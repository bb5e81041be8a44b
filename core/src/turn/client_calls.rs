//! A turn's side of the client's tools (`client_tools`): a call of one is streamed and kept
//! open, and a turn goes on from the results the client sends.

use serde_json::json;

use super::client_tools::{ClientResult, ClientTool, check};
use super::replay;
use super::run::Turn;
use crate::error::AppResult;
use crate::llm::{ModelMessage, ToolCall};
use palaver_wire::conversation::model::{HistoryRow, ToolCallEvent, ToolResultEvent, TurnEvent};

impl super::TurnRunner {
    /// Refuses client tools a turn could not offer the model (see [`check`]), before anything
    /// is written for the turn.
    pub fn check_client_tools(&self, tools: &[ClientTool]) -> AppResult<()> {
        check(tools, &self.tools())
    }
}

impl Turn {
    /// Whether the model's call is of a tool the client offered.
    pub(super) fn is_client_call(&self, call: &ToolCall) -> bool {
        self.offer.client_tools.iter().any(|tool| tool.name == call.name)
    }

    /// A call of the client's tool: streamed, kept open (the client runs it); the turn ends
    /// after this step.
    pub(super) async fn client_call(&mut self, call: &ToolCall) {
        let event =
            ToolCallEvent { tool_call_id: call.id.clone(), tool_name: call.name.clone(), args: call.input.clone() };
        self.events.emit(TurnEvent::ToolCall { tool_call: event }).await;
        self.output.new_rows.push(HistoryRow::ToolCall {
            tool_name: call.name.clone(),
            tool_call_id: call.id.clone(),
            args: call.input.clone(),
            ask: None,
            allowed_by: None,
            model_call_id: None,
            client_tool: true,
        });
        self.output.client_calls.push(call.clone());
    }

    /// The step also paused on an ask: its client calls are not left open (the answer goes
    /// on from the ask), each told (the model, and the client that saw the call) as not run.
    pub(super) async fn close_client_calls(&mut self) {
        for call in std::mem::take(&mut self.output.client_calls) {
            let result =
                json!({"error": "Not run: the turn waited on a question first. Call it again if it is still needed."});
            let event =
                ToolResultEvent { tool_call_id: call.id.clone(), tool_name: call.name.clone(), result: result.clone() };
            self.events.emit(TurnEvent::ToolResult { tool_result: event }).await;
            self.output.new_rows.push(HistoryRow::ToolResult {
                tool_name: call.name.clone(),
                tool_call_id: call.id.clone(),
                result: result.clone(),
                model_call_id: None,
            });
            self.transcript.messages.push(ModelMessage::tool(call.id, call.name, result));
        }
    }

    /// A turn that goes on from the client's results (stored already, as the rows that answer
    /// the calls): the conversation up to the turn's message, then the turn's calls and their
    /// results as the model made and saw them; the results are streamed.
    pub(super) async fn prepare_from_results(&mut self, results: &[ClientResult]) {
        self.replay_unfinished_turn();
        for result in results {
            let tool_name = self.transcript.rows.iter().find_map(|row| match row {
                HistoryRow::ToolCall { tool_call_id, tool_name, .. } if *tool_call_id == result.call_id => {
                    Some(tool_name.clone())
                }
                _ => None,
            });
            let event = ToolResultEvent {
                tool_call_id: result.call_id.clone(),
                tool_name: tool_name.unwrap_or_default(),
                result: result.result.clone(),
            };
            self.events.emit(TurnEvent::ToolResult { tool_result: event }).await;
        }
    }

    /// The messages of a turn that goes on where it stopped: the conversation up to the turn's
    /// message, then the turn's calls and their results (stored already) as the model made and
    /// saw them.
    pub(super) fn replay_unfinished_turn(&mut self) {
        let rows = &self.transcript.rows;
        let turn_start = rows.iter().rposition(|row| matches!(row, HistoryRow::User { .. })).map_or(0, |at| at + 1);
        self.transcript.messages = replay::replay(&rows[..turn_start]);
        self.transcript.replayed_len = self.transcript.messages.len();
        self.transcript.prompt_index = turn_start;
        self.transcript.messages.extend(replay::replay_turn(&rows[turn_start..]));
    }
}
