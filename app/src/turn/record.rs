//! Recording a turn: its rows, the pause that claims the pending slot, the undo of an answer
//! whose continuation failed, and the request log.

use std::time::Instant;

use super::TurnInput;
use super::request_log::store::{AiRequestLog, log_ai_request};
use super::request_log::{AskLog, AskPhase};
use super::run::{Pause, Turn};
use super::store::{self, Paused, Saved, StoredPendingAsk};
use crate::chat::model::{HistoryRow, PendingAskRef, TurnEvent};
use crate::error::AppError;
use crate::live::{AskCreated, LiveEvent, TurnDone};
use crate::llm::ModelMessage;

impl Turn {
    /// The reply's row: none for no text, unless it was cut off (then it says so).
    pub(super) fn assistant_row(&self) -> Option<HistoryRow> {
        (!self.reply.is_empty() || self.interrupted).then(|| HistoryRow::Assistant {
            text: self.reply.clone(),
            document: self.document,
            block_errors: self.block_errors.clone(),
            interrupted: self.interrupted,
            blocks: None,
            model: Some(self.model.name().to_string()),
        })
    }

    pub(super) async fn save_reply(&mut self) {
        let mut rows = std::mem::take(&mut self.new_rows);
        rows.extend(self.assistant_row());
        match store::append_rows(&self.runner.pool, &self.history_id, &self.turn_id, &rows, self.draft.stored()).await {
            Ok(Saved::Stored) => {}
            Ok(Saved::CutOff) => self.tell_cut_off().await,
            Err(err) => {
                tracing::error!(?err, "could not save a turn");
                self.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
            }
        }
    }

    /// Tells the client its reply was kept only as far as a sweeper saved it: never a silent
    /// `{done}` over a reply stored shorter than it streamed.
    async fn tell_cut_off(&mut self) {
        let error = "This reply was cut off: Palaver lost touch with its database for a while and kept the \
                     reply only as far as it had got then. Retry to get it whole."
            .to_string();
        self.emit(TurnEvent::Error { error }).await;
    }

    /// Saves the paused turn and claims the pending slot; emits `{ask}` when it did.
    pub(super) async fn pause(&mut self, pause: Pause) -> Option<PendingAskRef> {
        let Pause { mut stored, row, ttl } = pause;
        // Files reach the model only on the turn that answers: stored messages keep no bytes.
        stored.response_messages = self.messages[self.replayed_len..]
            .iter()
            .cloned()
            .map(|mut message| {
                if let ModelMessage::Tool { parts, .. } = &mut message {
                    parts.clear();
                }
                message
            })
            .collect();
        let mut rows = std::mem::take(&mut self.new_rows);
        rows.extend(self.assistant_row());
        rows.push(row);
        let asked = Some(AskLog::of(&stored, AskPhase::Asked));
        if self.resolved.is_some() {
            self.metadata.next_ask = asked;
        } else {
            self.metadata.ask = asked;
        }
        let drafted = self.draft.stored();
        let paused =
            store::pause(&self.runner.pool, &self.history_id, &self.turn_id, rows, &mut stored, ttl, drafted).await;
        // The pause took the draft's place: a turn that goes on (a tool's question answered)
        // starts a new one.
        if paused.is_ok() {
            self.draft.restart();
        }
        match paused {
            Ok(Paused::Claimed) => {
                let tool_call_id = stored.ask.tool_call_id.clone();
                self.tell_asked(&stored).await;
                self.emit(TurnEvent::Ask { ask: Box::new(stored.ask), history_id: self.history_id.clone() }).await;
                Some(PendingAskRef { tool_call_id })
            }
            Ok(Paused::Taken) => None,
            Ok(Paused::CutOff) => {
                self.tell_cut_off().await;
                None
            }
            Err(err) => {
                tracing::error!(?err, "could not pause a turn");
                self.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
                None
            }
        }
    }

    /// After a failure: an answer whose continuation showed nothing is undone (the ask is
    /// pending again); otherwise what the user saw is saved.
    pub(super) async fn undo_or_save(&mut self) -> Option<PendingAskRef> {
        if let Some(resolved) = self.resolved.as_ref().filter(|_| !self.produced_output && self.new_rows.is_empty()) {
            let pool = &self.runner.pool;
            match store::undo_resolution(
                pool,
                &self.history_id,
                &self.turn_id,
                &resolved.pending,
                resolved.rows_before,
                resolved.rows_added,
            )
            .await
            {
                Ok(true) => {
                    self.tell_asked(&resolved.pending).await;
                    return Some(PendingAskRef { tool_call_id: resolved.pending.ask.tool_call_id.clone() });
                }
                Ok(false) => {}
                Err(err) => tracing::error!(?err, "could not undo an answer"),
            }
        }
        self.save_reply().await;
        None
    }

    /// Tells the owner's tabs and devices that the conversation waits on `pending`.
    async fn tell_asked(&self, pending: &StoredPendingAsk) {
        let event = AskCreated {
            history_id: self.history_id.clone(),
            tool_call_id: pending.ask.tool_call_id.clone(),
            kind: pending.ask.kind,
            expires_at: pending.ask.expires_at.clone(),
        };
        self.runner.live.publish(&self.user_id, LiveEvent::AskCreated(event)).await;
    }

    /// Ends this request's stream with `{done}`, and tells the owner's tabs and devices.
    pub(super) async fn done(&mut self, title: Option<String>, pending_ask: Option<PendingAskRef>) {
        let event = TurnDone {
            history_id: self.history_id.clone(),
            pending_ask: pending_ask.as_ref().map(|pending| pending.tool_call_id.clone()),
        };
        self.runner.live.publish(&self.user_id, LiveEvent::TurnDone(event)).await;
        self.emit(TurnEvent::Done { done: true, history_id: self.history_id.clone(), title, pending_ask }).await;
    }

    pub(super) async fn log(&self, answer: Option<String>, error: Option<&str>, started: Instant) {
        let prompt = match (&self.input, answer) {
            (TurnInput::Prompt(prompt), _) => prompt.clone(),
            (TurnInput::Answer { .. }, Some(answer)) => answer,
            (TurnInput::Answer { .. }, None) => String::new(),
        };
        let log = AiRequestLog {
            history_id: &self.history_id,
            turn_id: &self.turn_id,
            user_id: &self.user_id,
            model: self.model.name(),
            prompt: &prompt,
            response: &self.reply,
            error,
            input_tokens: self.usage.input_tokens,
            output_tokens: self.usage.output_tokens,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            metadata: &self.metadata,
        };
        // A failed log write is already traced by the store; the turn itself went through.
        let _ = log_ai_request(&self.runner.pool, &log).await;
    }
}
