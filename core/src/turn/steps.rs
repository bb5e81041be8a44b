//! The step loop: each model call and the tools it calls (run, guarded by an approval, or an
//! ask the turn pauses on); what the model is offered is in offer.rs.

use futures::StreamExt;
use serde_json::{Value, json};

use super::REPLY_MAX_LENGTH;
use super::arguments;
use super::arguments::HeldStep;
use super::asking::{AskFrom, keyed_by_ask};
use super::call_ids::CallIds;
use super::run::{Pause, StepsEnd, Turn};
use super::store;
use super::tools::{HostTool, ToolReply, call_keys};
use crate::grants::store::{self as grants, Covering};
use crate::llm::{CONTEXT_TOO_LONG, ModelEvent, ModelMessage, ToolCall};
use palaver_contract::asks::{Ask, AskError, AskKind, AskSurface, parse_ask_input};
use palaver_contract::text::shorten;
use palaver_wire::approvers::RoutedApproval;
use palaver_wire::conversation::model::{AskStatus, HistoryRow, RowAsk, ToolCallEvent, TurnEvent};
use palaver_wire::grants::AllowedBy;

impl Turn {
    /// Ends a host tool call that does not run: its result is shown and stored as `result`, and
    /// the model is told `told` (denied, refused, or completed by its check).
    pub(super) async fn end_unrun_call(&mut self, call: &ToolCall, result: Value, told: ModelMessage) {
        self.emit_tool_result(&call.id, &call.name, result.clone()).await;
        self.output.new_rows.push(call_row(call, call.input.clone(), None));
        self.output.new_rows.push(result_row(call, result));
        self.transcript.messages.push(told);
    }

    /// One model call: its text, its tool calls, and an error; `None` when the user stopped it.
    /// A call the model refuses as too long is made once more with less of the conversation.
    pub(super) async fn call_model(&mut self) -> Option<(String, Vec<ToolCall>, Option<String>)> {
        let called = self.call_model_once().await;
        match called {
            Some((text, calls, Some(error)))
                if error == CONTEXT_TOO_LONG && text.is_empty() && calls.is_empty() && self.shrink_context().await =>
            {
                self.call_model_once().await
            }
            called => called,
        }
    }

    async fn call_model_once(&mut self) -> Option<(String, Vec<ToolCall>, Option<String>)> {
        let request = self.model_request().await;
        let mut stream = self.model.stream(request);
        let (mut text, mut calls, mut error) = (String::new(), Vec::new(), None);
        let mut ids =
            CallIds::taken_by(self.transcript.rows.iter().chain(&self.output.new_rows), &self.transcript.messages);
        let mut stop = self.lifecycle.stop.clone();
        let mut length = self.output.reply.chars().count();
        loop {
            self.write_draft_if_due(&text).await;
            let draft_due = self.lifecycle.draft.due();
            let event = tokio::select! {
                event = stream.next() => event,
                _ = stop.wait_for(|stopped| *stopped) => {
                    self.output.reply.push_str(&text);
                    return None;
                }
                // The text streamed since the last draft is stored a second on, even if the
                // model falls silent (above: nothing is awaited while these futures live).
                () = super::draft::until(draft_due) => continue,
            };
            let Some(event) = event else { break };
            match event {
                ModelEvent::TextDelta(delta) => {
                    length += delta.chars().count();
                    // The reply ends at its cap, kept and marked cut off (see `steps`).
                    if length > REPLY_MAX_LENGTH {
                        self.output.interrupted = true;
                        calls.clear();
                        break;
                    }
                    text.push_str(&delta);
                    // Live tokens go out as `{delta}` (Palaver's); the step's `{text}` comes at its end.
                    self.events.emit(TurnEvent::Delta { delta }).await;
                    self.lifecycle.draft.changed();
                }
                ModelEvent::ToolCallDelta { id, name, piece } => {
                    let id = ids.ours(&id);
                    self.preview_piece(&id, &name, &piece).await;
                }
                ModelEvent::ToolCall(mut call) => {
                    call.id = ids.for_call(&call, &calls);
                    calls.push(call);
                }
                ModelEvent::Finish { usage, .. } => {
                    self.record.add_usage(&usage);
                    break;
                }
                ModelEvent::Error(message) => {
                    error = Some(message);
                    break;
                }
            }
        }
        Some((text, calls, error))
    }

    /// What a finished step said: its text without a trailing action blob, except when the
    /// text is a block document (a JSON document's buttons carry `"action"` keys).
    fn said<'t>(&self, text: &'t str) -> &'t str {
        if self.runner.settings.blocks.is_some() && palaver_contract::blocks::reads_as_document(text) {
            text
        } else {
            super::step_text::without_action_blob(text)
        }
    }

    pub(super) async fn steps(&mut self) -> StepsEnd {
        for _ in 0..self.runner.settings.max_steps {
            let Some((text, calls, error)) = self.call_model().await else {
                self.settle_previews(None).await;
                // A stopped step ends with what it said so far.
                if !self.output.reply.is_empty() {
                    self.events.emit(TurnEvent::Text { text: self.output.reply.clone() }).await;
                }
                return StepsEnd::Stopped;
            };
            // As the reference has it, only a step that ends well without calling a tool says
            // something: a failed step's text and a tool step's reasoning are dropped (Palaver's
            // own clients, which saw them as `{delta}`, are told to take them back).
            if (error.is_some() || !calls.is_empty()) && !text.is_empty() {
                self.events.emit(TurnEvent::Retract { retract: "step".into() }).await;
            }
            if let Some(error) = error {
                self.settle_previews(None).await;
                return StepsEnd::Failed(error);
            }
            if calls.is_empty() {
                self.settle_previews(None).await;
                let said = self.said(&text);
                if !said.is_empty() {
                    self.events.emit(TurnEvent::Text { text: said.to_string() }).await;
                } else if !text.is_empty() {
                    self.events.emit(TurnEvent::Retract { retract: "step".into() }).await;
                }
                self.output.reply.push_str(said);
                if self.output.interrupted {
                    let error = format!("The reply passed {REPLY_MAX_LENGTH} characters and was cut off there.");
                    self.events.emit(TurnEvent::Error { error }).await;
                }
                return StepsEnd::Finished;
            }
            self.finish_app_inputs().await;
            let pause = self.tool_step(calls).await;
            // A preview stays only for the ask the turn pauses on: the real card replaces it.
            let asked = pause.as_ref().and_then(|pause| pause.stored.model_call_id.clone());
            self.settle_previews(asked.as_deref()).await;
            if self.lifecycle.superseded {
                return StepsEnd::Superseded;
            }
            if pause.is_none() {
                self.write_draft("").await;
                // A call waits on an approval no one can give, or the client runs its tools'
                // calls: the turn ends with this step.
                if std::mem::take(&mut self.output.awaits_approval) || !self.output.client_calls.is_empty() {
                    return StepsEnd::Finished;
                }
            }
            // A stop while a tool ran: the model is not called again.
            if pause.is_none() && *self.lifecycle.stop.borrow() {
                return StepsEnd::Stopped;
            }
            if let Some(pause) = pause {
                return StepsEnd::Paused(Box::new(pause));
            }
        }
        StepsEnd::Finished
    }

    /// Handles one step's tool calls: held on an argument ask when they need values from the
    /// person, else run in call order. Returns the ask the turn pauses on.
    pub(super) async fn tool_step(&mut self, calls: Vec<ToolCall>) -> Option<Pause> {
        self.transcript.messages.push(ModelMessage::Assistant { text: String::new(), tool_calls: calls.clone() });
        let fields = arguments::needed(&calls, &self.tools);
        if !fields.is_empty() && self.runner.asks_on() {
            let mut held = HeldStep::new(calls.clone(), fields);
            if let Some(pause) = self.arguments_pause(&mut held) {
                return Some(pause);
            }
        }
        let pause = self.run_calls(calls).await;
        if pause.is_some() {
            self.close_client_calls().await;
        }
        pause
    }

    /// The pause on the next form of a held step; `None` once it needs no more values.
    pub(super) fn arguments_pause(&self, held: &mut HeldStep) -> Option<Pause> {
        let input = held.next_form()?;
        let ask = match parse_ask_input(AskKind::Form, &input, AskSurface::Full) {
            Ok(ask) => ask,
            Err(errors) => {
                tracing::error!(?errors, "an argument form does not validate");
                return None;
            }
        };
        let tool = held.fields.first().map(|field| field.tool.clone()).unwrap_or_default();
        let mut pause = self.ask_pause(&input, ask, AskFrom::Arguments { tool });
        pause.stored.ask.field_patterns = held.field_patterns();
        pause.stored.held_step = Some(held.clone());
        Some(pause)
    }

    /// Runs one step's tool calls in call order; returns the ask the turn pauses on.
    pub(super) async fn run_calls(&mut self, calls: Vec<ToolCall>) -> Option<Pause> {
        let offered = self.offered_kinds();
        let mut pause: Option<Pause> = None;
        let mut dropped_rows = Vec::new();
        let mut calls = calls.into_iter();
        while let Some(call) = calls.next() {
            let ask_kind =
                call.name.strip_prefix("ask_").and_then(AskKind::parse).filter(|kind| offered.contains(kind));
            if let Some(kind) = ask_kind {
                match parse_ask_input(kind, &call.input, self.ids.surface) {
                    Err(errors) => self.transcript.messages.push(invalid_ask_result(&call, &errors)),
                    Ok(ask) if pause.is_none() => {
                        let from = AskFrom::Model { call_id: call.id.clone() };
                        pause = Some(self.ask_pause(&call.input, ask, from));
                    }
                    Ok(_) => {
                        let row_ask = RowAsk { kind, status: AskStatus::Cancelled, origin: None, expired_at: None };
                        let ask_id = self.model_ask_id(&call.id);
                        dropped_rows.extend(
                            [
                                call_row(&call, call.input.clone(), Some(row_ask)),
                                result_row(&call, store::one_ask_at_a_time()),
                            ]
                            .map(|row| keyed_by_ask(row, &ask_id)),
                        );
                        self.transcript.messages.push(tool_message(&call, store::one_ask_at_a_time()));
                    }
                }
                continue;
            }
            if self.is_client_call(&call) {
                self.client_call(&call).await;
                continue;
            }
            let Some(tool) = self.tools.get(&call.name).cloned() else {
                self.transcript
                    .messages
                    .push(tool_message(&call, json!({"error": format!("There is no tool named \"{}\".", call.name)})));
                continue;
            };
            let event =
                ToolCallEvent { tool_call_id: call.id.clone(), tool_name: call.name.clone(), args: call.input.clone() };
            self.events.emit(TurnEvent::ToolCall { tool_call: event }).await;
            let schema = tool.input_schema();
            let refused = call_keys::refused_keys(tool.as_ref(), &call.input);
            if !refused.is_empty() {
                let result = call_keys::refused_result(&call.name, &refused, &schema);
                self.end_unrun_call(&call, result.clone(), tool_message(&call, result)).await;
                continue;
            }
            if tool.approval(&call.input).is_none() {
                match self.run_now(&call, None, pause.is_some()).await {
                    Ran::Done => continue,
                    Ran::Superseded => return None,
                    Ran::Held(held) => pause = Some(held.holding(calls.by_ref().collect())),
                }
                break;
            }
            // Approvals are asks: without asks on, a guarded call waits on an approval no one can
            // give. It does not run, not even its check; nothing more is sent for it, and the turn
            // ends after this step (reference Q.4). Its rows say why.
            if !self.runner.asks_on() {
                tracing::warn!(
                    tool = call.name,
                    "a tool that needs approval was called with asks off; it does not run"
                );
                let denied = json!({"approved": false, "reason": "approvals_unavailable"});
                self.output.new_rows.extend([call_row(&call, call.input.clone(), None), result_row(&call, denied)]);
                let told = json!({"type": "execution-denied", "reason": "approvals_unavailable"});
                self.transcript.messages.push(tool_message(&call, told));
                self.output.awaits_approval = true;
                continue;
            }
            let guard = approval_input(tool.as_ref(), &call.input, self.ids.surface);
            let Some(checked) = self.preflight(tool.as_ref(), &call).await else { continue };
            // A call with keys its tool's schema does not name is never covered by a grant.
            let all_named = call_keys::unnamed_keys(&schema, &call.input).is_empty();
            // An approval routed to someone else is theirs to give, once: it offers no grant.
            let route = self.offer.approval_routes.iter().find(|route| route.covers(&call.name, tool.server()));
            let ungranted = self.offer.ungranted_tools.contains(&call.name) || route.is_some();
            let grantable = guard
                .as_ref()
                .is_some_and(|(_, input)| tool.grantable() && !ungranted && input["destructive"] != true && all_named);
            // A grant the user gave covers the call: it runs without a card, says so, and the
            // audit trail records it (unrecorded, it asks instead).
            if grantable
                && let Some(grant) = self.grant_for(&call).await
                && self.record_grant_run(&call, &grant).await
            {
                match self.run_now(&call, Some(AllowedBy::new(grant.scope, grant.arguments)), pause.is_some()).await {
                    Ran::Done => continue,
                    Ran::Superseded => return None,
                    Ran::Held(held) => pause = Some(held.holding(calls.by_ref().collect())),
                }
                break;
            }
            match guard {
                Some((ask, input)) if pause.is_none() => {
                    self.output.new_rows.push(call_row(&call, call.input.clone(), None));
                    let from = AskFrom::Approval {
                        tool: call.name.clone(),
                        grantable,
                        call_id: call.id.clone(),
                        server: tool.server().map(str::to_string),
                        arguments: call_keys::shown_arguments(&schema, &call.input),
                    };
                    let mut approval = self.ask_pause(&input, ask, from);
                    approval.stored.preflight = checked.fingerprint;
                    (approval.stored.ask.impact, approval.stored.ask.tool_hints) = (checked.impact, tool.hints());
                    approval.stored.ask.routed = route.map(RoutedApproval::new);
                    pause = Some(approval);
                }
                // Another approval of the step waits on the ask the turn pauses on, and is denied
                // `one_ask_at_a_time` when that ask ends (reference Q.3, Q.8).
                Some(_) => self.output.new_rows.push(call_row(&call, call.input.clone(), None)),
                None => {
                    tracing::error!(tool = call.name, "a guarded tool's approval could not be made; it does not run");
                    let denied = json!({"approved": false, "reason": "approvals_unavailable"});
                    let told =
                        tool_message(&call, json!({"type": "execution-denied", "reason": "approvals_unavailable"}));
                    self.end_unrun_call(&call, denied, told).await;
                }
            }
        }
        // The dropped asks' rows follow the ask's own (reference Q.3).
        let mut pause = pause?;
        pause.after = dropped_rows;
        Some(pause)
    }

    /// Runs a host tool call now (unguarded, or allowed by a grant); a call that needs the
    /// person's input is held on it, unless `another_ask_waits` (then it ends with why).
    async fn run_now(&mut self, call: &ToolCall, allowed_by: Option<AllowedBy>, another_ask_waits: bool) -> Ran {
        // The call's row comes first: a question the tool asks while it runs follows it.
        let mut row = call_row(call, call.input.clone(), None);
        if let HistoryRow::ToolCall { allowed_by: slot, .. } = &mut row {
            *slot = allowed_by;
        }
        self.output.new_rows.push(row);
        let output = match self.run_host_tool(call, None).await {
            ToolReply::Done(output) => output,
            ToolReply::NeedsInput(input) => {
                return match self.input_pause(call, input, 0, another_ask_waits).await {
                    Some(held) => Ran::Held(Box::new(held)),
                    None => Ran::Done,
                };
            }
        };
        self.output.new_rows.push(result_row(call, output.result.clone()));
        self.transcript.messages.push(output.message(&call.id, &call.name));
        self.write_draft_after_task().await;
        // A new message came while the tool's question waited, or a sweeper took the turn over
        // (`follow_on`): the turn ends unsaved.
        if self.lifecycle.superseded {
            return Ran::Superseded;
        }
        Ran::Done
    }

    /// The user's live grant that covers `call`, if any.
    async fn grant_for(&self, call: &ToolCall) -> Option<Covering> {
        match grants::covering(&self.runner.pool, &self.ids.user_id, &call.name, &self.ids.history_id, &call.input)
            .await
        {
            Ok(grant) => grant,
            Err(err) => {
                tracing::error!(?err, "could not read the grants; asking instead");
                None
            }
        }
    }
}

/// How a call run now ended.
enum Ran {
    Done,
    /// A new message superseded the turn while it ran.
    Superseded,
    /// Its server needs the person's input before it can finish: the turn pauses on it.
    Held(Box<Pause>),
}

/// The confirm input of an approval: the tool's own, or the default when it has none valid.
pub(super) fn approval_input(tool: &dyn HostTool, input: &Value, surface: AskSurface) -> Option<(Ask, Value)> {
    let own = tool.approval(input)?;
    if let Ok(ask) = parse_ask_input(AskKind::Confirm, &own, surface) {
        return Some((ask, own));
    }
    tracing::warn!(tool = tool.name(), "the approval input is not a valid confirm; using the default");
    let prompt = shorten(&format!("Allow {}? {}", tool.name(), tool.description().trim()), 500);
    let fallback = json!({"prompt": prompt, "confirmLabel": "Allow", "denyLabel": "Deny"});
    parse_ask_input(AskKind::Confirm, &fallback, surface).ok().map(|ask| (ask, fallback))
}

pub(super) fn call_row(call: &ToolCall, args: Value, ask: Option<RowAsk>) -> HistoryRow {
    HistoryRow::ToolCall {
        tool_name: call.name.clone(),
        tool_call_id: call.id.clone(),
        args,
        ask,
        allowed_by: None,
        model_call_id: None,
        client_tool: false,
    }
}

pub(super) fn result_row(call: &ToolCall, result: Value) -> HistoryRow {
    HistoryRow::ToolResult { tool_name: call.name.clone(), tool_call_id: call.id.clone(), result, model_call_id: None }
}

pub(super) fn tool_message(call: &ToolCall, result: Value) -> ModelMessage {
    ModelMessage::tool(call.id.clone(), call.name.clone(), result)
}

/// An invalid ask goes back to the model as a tool error, with the contract's errors.
pub(super) fn invalid_ask_result(call: &ToolCall, errors: &[AskError]) -> ModelMessage {
    tool_message(
        call,
        json!({"error": "The ask input is not valid. Fix these errors and ask again.", "errors": errors}),
    )
}
