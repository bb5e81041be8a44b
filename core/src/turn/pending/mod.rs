//! The pending ask as the store keeps it (`histories.pending_ask`): the `{ask}` event with
//! what resuming needs, and what it says of itself (the call an approval guards, the digest of
//! that call's arguments, its audit entry).

pub mod held_call;
pub mod store;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::arguments::HeldStep;
use crate::audit::store::Ending;
use crate::error::{AppError, AppResult};
use crate::llm::{ModelMessage, ToolCall, unanswered_calls};
use held_call::HeldCall;
use palaver_contract::asks::AskResponse;
use palaver_wire::conversation::model::{AskEvent, AskOrigin};
use palaver_wire::grants::GrantScope;

/// `histories.pending_ask`: the one ask a conversation waits on, with what resuming needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredPendingAsk {
    /// The `{ask}` event the pause sent; its fields sit at the top level of the stored JSON.
    #[serde(flatten)]
    pub ask: AskEvent,
    /// How many leading rows replay before `response_messages`: up to and including the
    /// paused turn's user message.
    pub prompt_index: usize,
    /// The paused turn's messages after that history, replayed verbatim on resume.
    pub response_messages: Vec<ModelMessage>,
    #[serde(default)]
    pub created: String,
    /// A model's ask: the id the model gave its call, which the model is told the answer under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_id: Option<String>,
    /// For an elicitation: the id of the host tool call that asks (still running while the
    /// process lives).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked_by_call: Option<String>,
    /// For an approval: what the guarded tool's check found before it was asked; the check
    /// just before the run must find the same, or the approval is stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preflight: Option<String>,
    /// For an argument ask: the step it holds, and what the person has given so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_step: Option<HeldStep>,
    /// For an MCP server's input request: the call it holds, and what was asked and answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_call: Option<Box<HeldCall>>,
}

/// The prefix of an approval's id.
pub const APPROVAL_PREFIX: &str = "approval_";

impl StoredPendingAsk {
    /// For an approval: the id of the host tool call it guards. An approval stored before
    /// approvals had ids of their own is named after that call.
    pub fn guarded_call_id(&self) -> Option<&str> {
        let approval_id = self.approval_id.as_deref()?;
        self.ask.guarded_call_id.as_deref().or_else(|| approval_id.strip_prefix(APPROVAL_PREFIX))
    }

    /// The id the model is told the answer under: its own call's, for its own ask.
    pub fn model_call_id(&self) -> &str {
        self.model_call_id.as_deref().unwrap_or(&self.ask.tool_call_id)
    }

    /// For an approval: the host tool call it guards, as the model made it.
    pub fn guarded_call(&self) -> Option<&ToolCall> {
        let id = self.guarded_call_id()?;
        self.response_messages.iter().rev().find_map(|message| match message {
            ModelMessage::Assistant { tool_calls, .. } => tool_calls.iter().find(|call| call.id == id),
            _ => None,
        })
    }

    /// The step's other approvals, waiting on this ask (reference Q.3): the calls of its step
    /// with no result yet but the one it asks about. They are denied `one_ask_at_a_time`
    /// however this ask ends. (A running tool's question and a held step end their calls
    /// themselves.)
    pub fn waiting_approvals(&self) -> Vec<&ToolCall> {
        if self.answers_a_call() {
            return Vec::new();
        }
        let asked_about = self.guarded_call_id().unwrap_or(self.model_call_id());
        let mut waiting = unanswered_calls(&self.response_messages);
        waiting.retain(|call| call.id != asked_about);
        waiting
    }

    /// Whether the answer goes into a tool call (a running call's question, an argument form,
    /// a held call's input), not to the model as an ask's result.
    pub fn answers_a_call(&self) -> bool {
        self.asked_by_call.is_some() || self.held_step.is_some() || self.held_call.is_some()
    }

    /// The answer an MCP App gave for the question it drew (`server`'s app; an `ElicitResult`),
    /// as the answer to the question's card: checked against what the server asked first.
    pub fn app_answer(&self, server: &str, result: &Value) -> AppResult<Value> {
        let drawn = self.ask.app.is_some() && self.ask.server.as_deref() == Some(server);
        match self.held_call.as_ref().filter(|_| drawn).and_then(|held| held.app_response(result)) {
            Some(Ok(response)) => Ok(response),
            Some(Err(fields)) => Err(AppError::InvalidAnswer { fields }.into()),
            None => Err(AppError::BadRequest(format!(
                "The pending question is not one an app of the MCP server \"{server}\" draws: answer it without fromApp."
            ))
            .into()),
        }
    }

    /// For an approval: the digest of the guarded call's arguments ([`args_digest`]).
    pub fn args_digest(&self) -> Option<String> {
        self.guarded_call().map(|call| crate::audit::args_digest(&call.input))
    }

    /// The audit entry of this ask ending with `decision` (an approval's reach: once, or the
    /// grant it gave).
    pub(super) fn ending<'a>(
        &'a self,
        history_id: &'a str,
        decision: &'a str,
        response: Option<&'a AskResponse>,
        grant: Option<GrantScope>,
    ) -> Ending<'a> {
        let approved = match response {
            Some(AskResponse::Accept { content }) if self.approval_id.is_some() => content["confirmed"].as_bool(),
            _ => None,
        };
        let reason = response.and_then(AskResponse::cancel_reason);
        Ending {
            history_id,
            tool_call_id: &self.ask.tool_call_id,
            kind: self.ask.kind.as_str(),
            origin: self.ask.origin.map(AskOrigin::as_str),
            tool_name: self.ask.tool_name.as_deref(),
            decision,
            approved,
            reason,
            scope: self.approval_id.as_ref().map(|_| grant.map_or("once", GrantScope::as_str)),
            args_digest: self.args_digest(),
        }
    }
}
