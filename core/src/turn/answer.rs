//! Answering: an answer checked against the pending ask and stored (or a pending ask cancelled
//! by a new prompt), the files of a `files` answer loaded for the model, and the turn that
//! continues from the answer (running or refusing the tool an approval guarded).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value, json};

use super::arguments::HeldStep;
use super::attachments::{Attached, described_file_parts};
use super::grant_answer::split_grant;
use super::request_log::{AskLog, AskPhase};
use super::routed::{Answerer, needs_second_approval};
use super::run::{Resolved, Turn};
use super::steps::{result_row, tool_message};
use super::store;
use super::store::{Deadline, Resolution, StoredPendingAsk};
use super::tools::{ToolOutput, ToolReply};
use super::waiting::Resumed;
use super::{TurnInput, TurnRunner};
use super::{reopen, replay};
use crate::conversation::store as histories;
use crate::error::{AppError, AppResult, FieldError};
use crate::llm::{ContentPart, ModelMessage, ToolCall};
use palaver_contract::asks::{
    Ask, AskResponse, check_ask_file_bytes, file_not_owned_error, parse_ask_data_url, parse_stored_ask, told_answer,
    validate_ask_response, whole_numbers_as_integers,
};
use palaver_wire::audit::Decider;
use palaver_wire::conversation::model::{AskStatus, HistoryRow};
use palaver_wire::live::{AskResolved, LiveEvent};

/// The cancel reason of an elicitation whose server request ended with the process.
pub const QUESTION_GONE: &str = "server_request_gone";

/// What the model gets as the result of a tool whose question was lost to a restart.
const QUESTION_GONE_RESULT: &str = "The MCP server's question was lost: Palaver restarted before the user answered, \
so this tool call did not finish.";

/// What the model gets for an approved call that ran before (its approval was replayed).
const ALREADY_RAN: &str = "This call already ran once; an approval runs a call at most once.";

/// What the model gets as the result of a host tool call that never ran.
const UNANSWERED_TOOL_CALL_RESULT: &str = "This tool call did not run, so it has no result.";

/// An answer to the ask `tool_call_id`, the pending ask as read before it; `from_app`: the MCP
/// server whose app drew the question gave it (an `ElicitResult`).
pub(super) struct Answer<'a> {
    pub(super) tool_call_id: &'a str,
    pub(super) response: &'a Value,
    pub(super) pending: Option<StoredPendingAsk>,
    pub(super) from_app: Option<&'a str>,
}

impl TurnRunner {
    /// Cancels the pending ask, if any, with `user_sent_message`; once, even when prompts race.
    /// A turn that waits on it (an elicitation) ends.
    pub(super) async fn cancel_for_prompt(
        &self,
        history_id: &str,
        turn_id: &str,
        decider: &Decider,
    ) -> AppResult<Option<String>> {
        let cancelled = self.cancel_pending(history_id, turn_id, "user_sent_message", None, decider).await?;
        if let Some(tool_call_id) = &cancelled {
            self.waiting.resume(history_id, tool_call_id, Resumed::Superseded);
        }
        Ok(cancelled)
    }

    /// Cancels the pending ask, if any (and if it is `only`, when given), with `reason`;
    /// returns its id. An ask that is due expires instead (and this returns `None`).
    pub(super) async fn cancel_pending(
        &self,
        history_id: &str,
        turn_id: &str,
        reason: &str,
        only: Option<&str>,
        decider: &Decider,
    ) -> AppResult<Option<String>> {
        for _ in 0..3 {
            let pending = store::pending_ask(&self.pool, history_id).await?;
            let Some(pending) = pending.filter(|pending| only.is_none_or(|id| pending.ask.tool_call_id == id)) else {
                return Ok(None);
            };
            if self.expire(history_id, &pending).await? {
                return Ok(None);
            }
            let response = AskResponse::Cancel { reason: Some(reason.into()) };
            let rows = answer_rows(&pending, &response);
            let resolution = Resolution {
                expected: &pending,
                status: AskStatus::Cancelled,
                rows,
                deadline: Deadline::Before,
                response: &response,
                decider,
                grant: None,
                changeable_for: None,
            };
            if self.resolve(history_id, turn_id, resolution).await?.is_some() {
                return Ok(Some(pending.ask.tool_call_id));
            }
        }
        Ok(None)
    }

    /// Checks an answer against the pending ask and stores it (409 when stale or expired, 400
    /// when invalid). An ask found due is expired first: an answer never beats its deadline.
    pub(super) async fn resolve_answer(
        &self,
        history_id: &str,
        turn_id: &str,
        answer: Answer<'_>,
        decider: &Decider,
        answerer: &Answerer,
    ) -> AppResult<Resolved> {
        let Answer { tool_call_id, response, pending, from_app } = answer;
        // Whether someone else may answer the pending ask is settled before they learn its id
        // (an approver's second answer to an ask that ended is told it ended).
        if let Some(pending) = pending.as_ref().filter(|_| !answerer.is_owner()) {
            answerer.check(pending)?;
        }
        let pending = pending.filter(|pending| pending.ask.tool_call_id == tool_call_id);
        let Some(pending) = pending else { return Err(self.not_pending(history_id, tool_call_id).await?.into()) };
        answerer.check(&pending)?;
        // An ask not due by this clock is left to the resolution's own deadline check below.
        if may_be_due(&pending) && self.expire(history_id, &pending).await? {
            return Err(Self::expired_error(&pending).into());
        }
        let drawn_answer = from_app.map(|server| pending.app_answer(server, response)).transpose()?;
        let (response, grant) = split_grant(&pending, drawn_answer.as_ref().unwrap_or(response))?;
        let response = &response;
        let ask = parse_stored_ask(pending.ask.kind, &pending.ask.input).map_err(|errors| {
            tracing::error!(?errors, "a stored pending ask no longer validates");
            AppError::Internal
        })?;
        let errors = validate_ask_response(&ask, response, self.settings.max_file_size_bytes);
        if !errors.is_empty() {
            return Err(AppError::InvalidAnswer { fields: errors.iter().map(FieldError::from).collect() }.into());
        }
        let (mut response, parts) = match (&ask, response.get("content")) {
            (Ask::Files(_), Some(content)) => self.load_answer_files(history_id, content).await?,
            _ => (response.clone(), Vec::new()),
        };
        whole_numbers_as_integers(&mut response);
        let mut response: AskResponse = serde_json::from_value(response)?;
        if let (Some(held), AskResponse::Accept { content }) = (&pending.held_step, &response) {
            let refusals = held.refusals(content["values"].as_object().unwrap_or(&Map::new()));
            if !refusals.is_empty() {
                return Err(AppError::InvalidAnswer { fields: refusals }.into());
            }
        }
        if let (Some(held), AskResponse::Accept { .. }) = (&pending.held_call, &response) {
            let refusals = held.refusals(&response);
            if !refusals.is_empty() {
                return Err(AppError::InvalidAnswer { fields: refusals }.into());
            }
        }
        if pending.asked_by_call.is_some() {
            match self.waiting.refusals(history_id, tool_call_id, &response) {
                Some(refusals) if !refusals.is_empty() => {
                    return Err(AppError::InvalidAnswer { fields: refusals }.into());
                }
                Some(_) => {}
                // The process restarted since: the server's request is gone with it.
                None => response = AskResponse::Cancel { reason: Some(QUESTION_GONE.into()) },
            }
        }
        if needs_second_approval(&pending) && denial_reason(&response).is_none() {
            self.record_first_approval(history_id, &pending, decider, answerer).await?;
            return Err(AppError::SecondApprovalNeeded.into());
        }
        let status =
            if matches!(response, AskResponse::Cancel { .. }) { AskStatus::Cancelled } else { AskStatus::Answered };
        let rows = answer_rows(&pending, &response);
        let rows_added = i64::try_from(rows.len()).unwrap_or(i64::MAX);
        let resolution = Resolution {
            expected: &pending,
            status,
            rows,
            deadline: Deadline::Before,
            response: &response,
            decider,
            grant,
            changeable_for: reopen::changeable_for(&pending, &response),
        };
        let Some(rows_before) = self.resolve(history_id, turn_id, resolution).await? else {
            // Lost a race: to another answer, or to the expiry (the sweeper's, or this one).
            if self.expire(history_id, &pending).await? {
                return Err(Self::expired_error(&pending).into());
            }
            return Err(self.not_pending(history_id, tool_call_id).await?.into());
        };
        Ok(Resolved { pending, response, parts, rows_before, rows_added })
    }

    /// Stores a resolution (see [`store::resolve`]) and tells the owner's tabs and devices;
    /// returns the number of rows the conversation had before it.
    pub(super) async fn resolve(
        &self,
        history_id: &str,
        turn_id: &str,
        resolution: Resolution<'_>,
    ) -> AppResult<Option<i64>> {
        let event = AskResolved {
            history_id: history_id.to_string(),
            tool_call_id: resolution.expected.ask.tool_call_id.clone(),
            ending: resolution.status.as_str().to_string(),
            action: resolution.response.action().to_string(),
            reason: resolution.response.cancel_reason().map(str::to_string),
        };
        // A held call's question that ends unanswered: nothing is sent to its server again, so
        // what the server holds for it (a task) is let go.
        let abandoned = match resolution.response {
            AskResponse::Cancel { .. } => resolution.expected.held_call.as_ref().map(|held| held.as_ref().clone()),
            _ => None,
        };
        let Some((rows_before, owner)) = store::resolve(&self.pool, history_id, turn_id, resolution).await? else {
            return Ok(None);
        };
        if let Some(held) = abandoned
            && let Some(tool) = self.tools().get(&held.call.name)
            && tool.server() == Some(held.server.as_str())
        {
            tool.abandon(&held.input);
        }
        self.live.publish(&owner, LiveEvent::AskResolved(event)).await;
        Ok(Some(rows_before))
    }

    /// Loads and checks the bytes of a `files` answer. Returns the answer as it is stored
    /// (names, types and real sizes: no bytes, no data URLs) and the files as model parts.
    pub(super) async fn load_answer_files(
        &self,
        history_id: &str,
        content: &Value,
    ) -> AppResult<(Value, Vec<ContentPart>)> {
        let owner = histories::history_owner(&self.pool, history_id).await?.flatten().unwrap_or_default();
        let files = content["files"].as_array().cloned().unwrap_or_default();
        let cap = self.settings.max_file_size_bytes;
        let mut errors = Vec::new();
        let mut loaded = Vec::new();
        for (index, file) in files.iter().enumerate() {
            let mime_type = file["mimeType"].as_str().unwrap_or_default();
            let bytes = match (file["fileId"].as_str(), &self.dependencies.files) {
                (Some(id), Some(store)) => store.load_owned(&self.pool, &owner, id).await?,
                (Some(_), None) => None,
                (None, _) => {
                    file["url"].as_str().and_then(parse_ask_data_url).and_then(|url| BASE64.decode(url.base64).ok())
                }
            };
            match bytes {
                Some(bytes) => {
                    errors.extend(check_ask_file_bytes(&bytes, index, mime_type, cap));
                    loaded.push((file, bytes));
                }
                None => errors.push(file_not_owned_error(index)),
            }
        }
        if !errors.is_empty() {
            let errors = palaver_contract::asks::finalize(errors);
            return Err(AppError::InvalidAnswer { fields: errors.iter().map(FieldError::from).collect() }.into());
        }
        let count = loaded.len();
        let mut stored = Vec::new();
        let mut parts = Vec::new();
        for (index, (file, bytes)) in loaded.into_iter().enumerate() {
            let filename = file["filename"].as_str().unwrap_or_default().to_string();
            let mime_type = file["mimeType"].as_str().unwrap_or_default().to_string();
            let mut entry = json!({"filename": filename, "mimeType": mime_type, "size": bytes.len()});
            if let Some(id) = file.get("fileId") {
                entry["fileId"] = id.clone();
            }
            stored.push(entry);
            parts.extend(described_file_parts(index, count, &filename, &mime_type, &bytes));
        }
        Ok((json!({"action": "accept", "content": {"files": stored}}), parts))
    }
}

impl Turn {
    /// Builds the messages the model continues from.
    pub(super) async fn prepare(&mut self) -> Option<String> {
        match &self.transcript.input {
            TurnInput::Prompt(prompt) => {
                let prompt = prompt.trim().to_string();
                self.transcript.messages = replay::replay(&self.transcript.rows);
                let Attached { rows, parts } = std::mem::take(&mut self.transcript.attached);
                let from_app = self.transcript.from_app.take();
                let told = replay::sent_by(&prompt, from_app.as_deref());
                self.transcript.messages.push(ModelMessage::User { text: told, parts });
                self.transcript.replayed_len = self.transcript.messages.len();
                self.transcript.prompt_index = self.transcript.rows.len() + 1;
                self.output.new_rows.push(HistoryRow::User { text: prompt, attachments: rows, from_app });
                None
            }
            TurnInput::Answer { .. } => {
                let resolved = self.transcript.resolved.as_ref()?;
                let pending = resolved.pending.clone();
                let response = resolved.response.clone();
                let parts = resolved.parts.clone();
                self.transcript.prompt_index = pending.prompt_index.min(self.transcript.rows.len());
                self.transcript.messages = replay::replay(&self.transcript.rows[..self.transcript.prompt_index]);
                self.transcript.replayed_len = self.transcript.messages.len();
                self.transcript.messages.extend(pending.response_messages.iter().cloned());
                self.record.metadata.ask = Some(AskLog::of(&pending, AskPhase::Answered(response.action())));
                match (pending.guarded_call_id(), &pending.asked_by_call, &pending.held_step, &pending.held_call) {
                    (Some(call_id), ..) => self.finish_approval(&pending, call_id, &response).await,
                    (None, Some(call_id), ..) => self.finish_lost_question(&pending, call_id).await,
                    (None, None, Some(held), _) => self.finish_held_step(held.clone(), &response).await,
                    (None, None, None, Some(held)) => self.finish_held_call((**held).clone(), &response).await,
                    (None, None, None, None) => self.transcript.messages.push(ModelMessage::Tool {
                        tool_call_id: pending.model_call_id().to_string(),
                        tool_name: pending.ask.kind.tool_name(),
                        result: told_answer(pending.ask.kind, &pending.ask.input, &response.to_value()),
                        parts,
                    }),
                }
                self.deny_waiting_approvals(&pending).await;
                Some(serde_json::to_string(&response).unwrap_or_default())
            }
            TurnInput::ToolResults(results) => {
                let results = results.clone();
                self.prepare_from_results(&results).await;
                let told: Vec<_> =
                    results.iter().map(|result| json!({result.call_id.clone(): result.result})).collect();
                Some(serde_json::to_string(&told).unwrap_or_default())
            }
            TurnInput::FollowOn(_) => self.prepare_follow_on().await,
        }
    }

    /// An argument ask answered: the values that fit are kept; then the next form, or the held
    /// step's calls, each with the person's values (or refused for want of one).
    async fn finish_held_step(&mut self, mut held: HeldStep, response: &AskResponse) {
        match response {
            AskResponse::Accept { content } => held.take(content["values"].as_object().unwrap_or(&Map::new())),
            AskResponse::Decline => held.refuse_open("the user chose not to give it"),
            AskResponse::Cancel { .. } => held.refuse_open("the question ended before it was answered"),
        }
        if let Some(pause) = self.arguments_pause(&mut held) {
            self.lifecycle.held_pause = Some(pause);
            return;
        }
        let settled = held.settled_calls();
        // The model sees its calls as they run: the person's values, never what it proposed.
        let step = self.transcript.messages.iter_mut().rev().find_map(|message| match message {
            ModelMessage::Assistant { tool_calls, .. } if !tool_calls.is_empty() => Some(tool_calls),
            _ => None,
        });
        if let Some(tool_calls) = step {
            *tool_calls = settled.iter().map(|(call, _)| call.clone()).collect();
        }
        let mut runnable = Vec::new();
        for (call, refusal) in settled {
            let Some(refusal) = refusal else {
                runnable.push(call);
                continue;
            };
            let result = json!({"error": refusal});
            self.end_unrun_call(&call, result.clone(), tool_message(&call, result)).await;
        }
        self.lifecycle.held_pause = self.run_calls(runnable).await;
        if self.lifecycle.held_pause.is_some() {
            self.close_client_calls().await;
        }
    }

    /// An elicitation answered after a restart: its tool call ended with the old process.
    /// The model is told so (the call, and any other call of that step without a result).
    async fn finish_lost_question(&mut self, pending: &StoredPendingAsk, call_id: &str) {
        let tool_name = pending.ask.tool_name.clone().unwrap_or_default();
        let result = json!({"error": QUESTION_GONE_RESULT});
        self.emit_tool_result(call_id, &tool_name, result.clone()).await;
        self.output.new_rows.push(HistoryRow::ToolResult {
            tool_name,
            tool_call_id: call_id.to_string(),
            result,
            model_call_id: None,
        });
        let unanswered: Vec<ToolCall> =
            crate::llm::unanswered_calls(&self.transcript.messages).into_iter().cloned().collect();
        for call in &unanswered {
            let result = if call.id == call_id { QUESTION_GONE_RESULT } else { UNANSWERED_TOOL_CALL_RESULT };
            self.transcript.messages.push(ModelMessage::tool(
                call.id.clone(),
                call.name.clone(),
                json!({"error": result}),
            ));
        }
    }

    /// The step's other approvals are denied as the turn resumes, after the answered call, in
    /// call order (reference Q.8); their rows were stored with the answer.
    async fn deny_waiting_approvals(&mut self, pending: &StoredPendingAsk) {
        for call in pending.waiting_approvals() {
            self.emit_tool_result(&call.id, &call.name, store::approval_denied_one_ask_at_a_time()).await;
            let told = json!({"type": "execution-denied", "reason": "one_ask_at_a_time"});
            self.transcript.messages.push(tool_message(call, told));
        }
    }

    /// Runs (approved) or refuses the tool an approval guarded, and tells the model.
    pub(super) async fn finish_approval(&mut self, pending: &StoredPendingAsk, call_id: &str, response: &AskResponse) {
        let tool_name = pending.ask.tool_name.clone().unwrap_or_default();
        let call = pending.guarded_call().cloned();
        let output: ToolOutput = match (denial_reason(response), call) {
            (Some(reason), _) => {
                self.emit_tool_result(call_id, &tool_name, json!({"approved": false, "reason": reason})).await;
                json!({"type": "execution-denied", "reason": reason}).into()
            }
            (None, Some(call)) => {
                let output = match self.check_again(&call, pending.preflight.as_deref()).await {
                    Err(refused) => {
                        self.emit_tool_result(&call.id, &call.name, refused.result.clone()).await;
                        refused
                    }
                    Ok(()) => match self.run_approved(&call).await {
                        ToolReply::Done(output) => output,
                        ToolReply::NeedsInput(input) => {
                            // Its result comes when the call is sent again with the person's
                            // input (or, when that cannot be asked, the call ended with why).
                            self.lifecycle.held_pause = self.input_pause(&call, input, 0, false).await;
                            return;
                        }
                    },
                };
                self.output.new_rows.push(HistoryRow::ToolResult {
                    tool_name: tool_name.clone(),
                    tool_call_id: call.id.clone(),
                    result: output.result.clone(),
                    model_call_id: None,
                });
                output
            }
            (None, None) => json!({"error": UNANSWERED_TOOL_CALL_RESULT}).into(),
        };
        self.transcript.messages.push(output.message(call_id, &tool_name));
    }

    /// Runs an approved call at most once, whatever replays or races its approval: the run is
    /// recorded (with its arguments' digest) before it starts.
    async fn run_approved(&mut self, call: &ToolCall) -> ToolReply {
        let key = format!("{}/{}", self.ids.history_id, call.id);
        let digest = crate::audit::args_digest(&call.input);
        match store::claim_approved_run(&self.runner.pool, &key, &call.name, &digest).await {
            Ok(true) => self.run_host_tool(call, None).await,
            Ok(false) => json!({"error": ALREADY_RAN}).into(),
            Err(_) => json!({"error": UNANSWERED_TOOL_CALL_RESULT}).into(),
        }
    }
}

/// The rows an answer (or a cancel, or the expiry) adds: its result row; for an approval that
/// is not approved, the guarded tool's result saying it did not run; and the step's other
/// approvals, denied (reference Q.3).
pub(super) fn answer_rows(pending: &StoredPendingAsk, response: &AskResponse) -> Vec<HistoryRow> {
    let tool_name = pending.ask.tool_name.clone().unwrap_or_else(|| pending.ask.kind.tool_name());
    let mut rows = vec![HistoryRow::ToolResult {
        tool_name: tool_name.clone(),
        tool_call_id: pending.ask.tool_call_id.clone(),
        result: response.to_value(),
        model_call_id: pending.model_call_id.clone(),
    }];
    if let (Some(call_id), Some(reason)) = (pending.guarded_call_id(), denial_reason(response)) {
        rows.push(HistoryRow::ToolResult {
            tool_name,
            tool_call_id: call_id.to_string(),
            result: json!({"approved": false, "reason": reason}),
            model_call_id: None,
        });
    }
    // A held call's question cancelled (a stop, a new message, its expiry): the call ends
    // unfinished, and nothing is sent to its server again.
    if let (Some(held), AskResponse::Cancel { reason }) = (&pending.held_call, response) {
        rows.push(super::held_call::unfinished_row(held, reason.as_deref()));
    }
    let denied = store::approval_denied_one_ask_at_a_time();
    rows.extend(pending.waiting_approvals().into_iter().map(|call| result_row(call, denied.clone())));
    rows
}

/// Why an approval answer denies the tool, or `None` when it approves.
pub(super) fn denial_reason(response: &AskResponse) -> Option<String> {
    match response {
        AskResponse::Accept { content } if content.get("confirmed") == Some(&Value::Bool(true)) => None,
        AskResponse::Accept { .. } => Some("user_denied".into()),
        AskResponse::Decline => Some("user_declined".into()),
        AskResponse::Cancel { reason } => Some(reason.clone().unwrap_or_else(|| "user_cancelled".into())),
    }
}

/// Whether `pending` may be past its `expiresAt` (an unreadable time may be): one that is not is
/// not expired first. The store decides in the end: an answer is stored only before the deadline.
fn may_be_due(pending: &StoredPendingAsk) -> bool {
    pending.ask.expires_at.as_deref().is_some_and(|expires_at| {
        expires_at.parse::<jiff::Timestamp>().map_or(true, |expires_at| expires_at <= jiff::Timestamp::now())
    })
}
