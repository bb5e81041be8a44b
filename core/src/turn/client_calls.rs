//! A turn's side of the client's tools (`client_tools`): a call of one is streamed and kept
//! open, and a turn goes on from the results the client sends.

use serde_json::json;

use super::client_tools::{ClientResult, ClientTool, OpenCall, check, open_calls};
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
    /// on from the ask), each told as not run.
    pub(super) fn close_client_calls(&mut self) {
        for call in std::mem::take(&mut self.output.client_calls) {
            let result =
                json!({"error": "Not run: the turn waited on a question first. Call it again if it is still needed."});
            self.output.new_rows.push(HistoryRow::ToolResult {
                tool_name: call.name.clone(),
                tool_call_id: call.id.clone(),
                result: result.clone(),
                model_call_id: None,
            });
            self.transcript.messages.push(ModelMessage::tool(call.id, call.name, result));
        }
    }

    /// A turn that goes on from the client's results: the conversation, the calls they
    /// answer, and the results (streamed, and stored with the turn's rows).
    pub(super) async fn prepare_from_results(&mut self, results: &[ClientResult]) {
        let rows = std::mem::take(&mut self.transcript.rows);
        self.transcript.messages = replay::replay(&rows);
        self.transcript.replayed_len = self.transcript.messages.len();
        self.transcript.prompt_index = rows.len();
        let answered: Vec<(OpenCall<'_>, &ClientResult)> = open_calls(&rows)
            .into_iter()
            .filter_map(|call| results.iter().find(|result| result.call_id == call.id).map(|result| (call, result)))
            .collect();
        let calls = answered
            .iter()
            .map(|(call, _)| ToolCall {
                id: call.id.to_string(),
                name: call.name.to_string(),
                input: call.args.clone(),
            })
            .collect();
        self.transcript.messages.push(ModelMessage::Assistant { text: String::new(), tool_calls: calls });
        for (call, result) in &answered {
            let (id, name) = (call.id.to_string(), call.name.to_string());
            let event =
                ToolResultEvent { tool_call_id: id.clone(), tool_name: name.clone(), result: result.result.clone() };
            self.events.emit(TurnEvent::ToolResult { tool_result: event }).await;
            self.transcript.messages.push(ModelMessage::tool(id.clone(), name.clone(), result.result.clone()));
            self.output.new_rows.push(HistoryRow::ToolResult {
                tool_name: name,
                tool_call_id: id,
                result: result.result.clone(),
                model_call_id: None,
            });
        }
        self.transcript.rows = rows;
    }
}
