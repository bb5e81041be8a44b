//! The pause on an ask: the id Palaver mints for it, its row, the `{ask}` event it sends and
//! what the store keeps of it, whoever asks (the model, an approval, an argument ask, or a
//! running tool's question).

use std::time::Duration;

use serde_json::Value;

use super::arguments::ARGUMENTS_PREFIX;
use super::call_ids::{ASK_PREFIX, QUESTION_PREFIX, mint};
use super::run::{Pause, Turn};
use super::store::{APPROVAL_PREFIX, StoredPendingAsk};
use super::tools::question::link_host;
use palaver_contract::asks::{Ask, to_simple_card};
use palaver_wire::body::CallArgument;
use palaver_wire::conversation::model::{AppAsk, AskEvent, AskOrigin, AskStatus, HistoryRow, RowAsk};

/// Whose ask a turn pauses on.
pub(super) enum AskFrom {
    /// The model's own ask, by its call `call_id`.
    Model { call_id: String },
    /// The approval guarding the call `call_id` of this host tool (on `server`, an MCP
    /// tool's), made with `arguments`; `grantable`: the user may allow its calls for the
    /// conversation or for good.
    Approval { tool: String, grantable: bool, call_id: String, server: Option<String>, arguments: Vec<CallArgument> },
    /// The values the calls of a step of this host tool (the first that needs one) wait for.
    Arguments { tool: String },
    /// A running host tool's question: the call, the MCP server that asks, and how long the
    /// call can wait on the answer.
    Elicitation { tool: String, call_id: String, server: String, url: Option<String>, answer_within: Duration },
    /// What an MCP server needs before it can finish a call of this tool (the call is held,
    /// stored with the ask), and the server's app that may draw it.
    ToolInput { tool: String, server: String, url: Option<String>, app: Option<AppAsk> },
}

impl Turn {
    /// The id of the model's ask by its call `call_id`: the one its preview showed under, else
    /// a new one.
    pub(super) fn model_ask_id(&self, call_id: &str) -> String {
        self.previews.ask_id(call_id).unwrap_or_else(|| mint(ASK_PREFIX))
    }

    /// The pause on an ask of `input`; `from` says whose it is. The ask gets an id of its own,
    /// minted here (a model's ask keeps the one its preview showed under), and its time to live.
    pub(super) fn ask_pause(&self, input: &Value, ask: Ask, from: AskFrom) -> Pause {
        let kind = ask.kind();
        let settings = &self.runner.settings;
        let ttl = match &from {
            AskFrom::Approval { .. } => settings.approval_ttl,
            AskFrom::Elicitation { answer_within, .. } => settings.ask_ttl.min(*answer_within),
            AskFrom::Model { .. } | AskFrom::Arguments { .. } | AskFrom::ToolInput { .. } => settings.ask_ttl,
        };
        let (id, origin, host_tool) = match &from {
            AskFrom::Model { call_id } => (self.model_ask_id(call_id), None, None),
            AskFrom::Approval { tool, .. } => (mint(APPROVAL_PREFIX), Some(AskOrigin::Approval), Some(tool.clone())),
            AskFrom::Elicitation { tool, .. } | AskFrom::ToolInput { tool, .. } => {
                (mint(QUESTION_PREFIX), Some(AskOrigin::Elicitation), Some(tool.clone()))
            }
            AskFrom::Arguments { tool } => (mint(ARGUMENTS_PREFIX), Some(AskOrigin::Arguments), Some(tool.clone())),
        };
        let event = AskEvent {
            tool_call_id: id.clone(),
            kind,
            input: ask.stored_input(input),
            simple: to_simple_card(&ask, &id),
            origin,
            tool_title: host_tool.as_deref().and_then(|name| self.tools.get(name)).and_then(|tool| tool.title()),
            tool_name: host_tool,
            server: None,
            url: None,
            link_host: None,
            arguments: None,
            guarded_call_id: None,
            expires_at: None,
            field_patterns: Vec::new(),
            grantable: matches!(from, AskFrom::Approval { grantable: true, .. }),
            impact: None,
            tool_hints: None,
            routed: None,
            app: None,
        };
        let mut stored = StoredPendingAsk {
            ask: event,
            prompt_index: self.transcript.prompt_index,
            response_messages: Vec::new(),
            created: String::new(),
            model_call_id: None,
            approval_id: None,
            asked_by_call: None,
            preflight: None,
            held_step: None,
            held_call: None,
        };
        match from {
            AskFrom::Model { call_id } => stored.model_call_id = Some(call_id),
            AskFrom::Approval { call_id, server, arguments, .. } => {
                (stored.approval_id, stored.ask.guarded_call_id) = (Some(id.clone()), Some(call_id));
                (stored.ask.server, stored.ask.arguments) = (server, Some(arguments));
            }
            AskFrom::Elicitation { call_id, server, url, .. } => {
                stored.ask.link_host = url.as_deref().and_then(link_host);
                (stored.ask.server, stored.ask.url, stored.asked_by_call) = (Some(server), url, Some(call_id));
            }
            AskFrom::ToolInput { server, url, app, .. } => {
                stored.ask.link_host = url.as_deref().and_then(link_host);
                (stored.ask.server, stored.ask.url, stored.ask.app) = (Some(server), url, app);
            }
            AskFrom::Arguments { .. } => {}
        }
        let row = HistoryRow::ToolCall {
            tool_name: stored.ask.tool_name.clone().unwrap_or_else(|| kind.tool_name()),
            tool_call_id: id,
            args: stored.ask.input.clone(),
            ask: Some(RowAsk { kind, status: AskStatus::Pending, origin, expired_at: None }),
            allowed_by: None,
            model_call_id: stored.model_call_id.clone(),
            client_tool: false,
        };
        Pause { stored, row, after: Vec::new(), ttl }
    }
}

/// A model's call or result row keyed by its ask's id, the model's own id kept beside it.
pub(super) fn keyed_by_ask(mut row: HistoryRow, ask_id: &str) -> HistoryRow {
    if let HistoryRow::ToolCall { tool_call_id, model_call_id, .. }
    | HistoryRow::ToolResult { tool_call_id, model_call_id, .. } = &mut row
    {
        *model_call_id = Some(std::mem::replace(tool_call_id, ask_id.to_string()));
    }
    row
}
