//! Recording a turn: its rows, the pause that claims the pending slot, the undo of an answer
//! whose continuation failed, and the request log.

use std::time::Instant;

use super::TurnInput;
use super::request_log::store::{AiRequestLog, log_ai_request};
use super::request_log::{AskLog, AskPhase};
use super::run::{Pause, Turn};
use super::store;
use super::store::{Paused, Saved, StoredPendingAsk};
use crate::error::AppError;
use crate::llm::ModelMessage;
use palaver_wire::conversation::model::{PendingAskRef, TurnEvent};
use palaver_wire::live::{AskCreated, LiveEvent, TurnDone};

impl Turn {
    pub(super) async fn save_reply(&mut self) {
        let mut rows = std::mem::take(&mut self.output.new_rows);
        rows.extend(self.output.assistant_row(self.model.name()));
        match store::append_rows(
            &self.runner.pool,
            &self.ids.history_id,
            &self.ids.turn_id,
            &rows,
            self.lifecycle.draft.stored(),
        )
        .await
        {
            Ok(Saved::Stored) => {}
            Ok(Saved::CutOff) => self.tell_cut_off().await,
            Err(err) => {
                tracing::error!(?err, "could not save a turn");
                self.events.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
            }
        }
    }

    /// Tells the client its reply was kept only as far as a sweeper saved it: never a silent
    /// `{done}` over a reply stored shorter than it streamed.
    async fn tell_cut_off(&mut self) {
        let error = "This reply was cut off: Palaver lost touch with its database for a while and kept the \
                     reply only as far as it had got then. Retry to get it whole."
            .to_string();
        self.events.emit(TurnEvent::Error { error }).await;
    }

    /// Saves the paused turn and claims the pending slot; emits `{ask}` when it did.
    pub(super) async fn pause(&mut self, pause: Pause) -> Option<PendingAskRef> {
        let Pause { mut stored, row, after, ttl } = pause;
        // Files reach the model only on the turn that answers: stored messages keep no bytes.
        stored.response_messages = self.transcript.messages[self.transcript.replayed_len..]
            .iter()
            .cloned()
            .map(|mut message| {
                if let ModelMessage::Tool { parts, .. } = &mut message {
                    parts.clear();
                }
                message
            })
            .collect();
        let mut rows = std::mem::take(&mut self.output.new_rows);
        rows.extend(self.output.assistant_row(self.model.name()));
        rows.push(row);
        rows.extend(after);
        let asked = Some(AskLog::of(&stored, AskPhase::Asked));
        if self.transcript.resolved.is_some() {
            self.record.metadata.next_ask = asked;
        } else {
            self.record.metadata.ask = asked;
        }
        let drafted = self.lifecycle.draft.stored();
        let paused =
            store::pause(&self.runner.pool, &self.ids.history_id, &self.ids.turn_id, rows, &mut stored, ttl, drafted)
                .await;
        // The pause took the draft's place: a turn that goes on (a tool's question answered)
        // starts a new one.
        if paused.is_ok() {
            self.lifecycle.draft.restart();
        }
        match paused {
            Ok(Paused::Claimed) => {
                let tool_call_id = stored.ask.tool_call_id.clone();
                // Told with the turn's end, unless a title is made first (a model call).
                if self.names_conversation() {
                    self.tell_asked(&stored).await;
                } else {
                    self.output.held_events.push(LiveEvent::AskCreated(asked_event(&self.ids.history_id, &stored)));
                }
                self.events
                    .emit(TurnEvent::Ask { ask: Box::new(stored.ask), history_id: self.ids.history_id.clone() })
                    .await;
                Some(PendingAskRef { tool_call_id })
            }
            Ok(Paused::Taken) => None,
            Ok(Paused::CutOff) => {
                self.tell_cut_off().await;
                None
            }
            Err(err) => {
                tracing::error!(?err, "could not pause a turn");
                self.events.emit(TurnEvent::Error { error: AppError::Internal.to_string() }).await;
                None
            }
        }
    }

    /// After a failure: an answer whose continuation showed nothing is undone (the ask is
    /// pending again); otherwise what the user saw is saved.
    pub(super) async fn undo_or_save(&mut self) -> Option<PendingAskRef> {
        if let Some(resolved) = self
            .transcript
            .resolved
            .as_ref()
            .filter(|_| !self.events.produced_output && self.output.new_rows.is_empty())
        {
            let pool = &self.runner.pool;
            match store::undo_resolution(
                pool,
                &self.ids.history_id,
                &self.ids.turn_id,
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
        let event = asked_event(&self.ids.history_id, pending);
        self.runner.live.publish(&self.ids.user_id, LiveEvent::AskCreated(event)).await;
    }

    /// Ends this request's stream with `{done}`, and tells the owner's tabs and devices (with
    /// the events held for it).
    pub(super) async fn done(&mut self, title: Option<String>, pending_ask: Option<PendingAskRef>) {
        let event = TurnDone {
            history_id: self.ids.history_id.clone(),
            pending_ask: pending_ask.as_ref().map(|pending| pending.tool_call_id.clone()),
        };
        let mut events = std::mem::take(&mut self.output.held_events);
        events.push(LiveEvent::TurnDone(event));
        self.runner.live.publish_all(&self.ids.user_id, events).await;
        self.events
            .emit(TurnEvent::Done { done: true, history_id: self.ids.history_id.clone(), title, pending_ask })
            .await;
    }

    pub(super) async fn log(&self, answer: Option<String>, error: Option<&str>, started: Instant) {
        let prompt = match (&self.transcript.input, answer) {
            (TurnInput::Prompt(prompt), _) => prompt.clone(),
            (_, answer) => answer.unwrap_or_default(),
        };
        let log = AiRequestLog {
            history_id: &self.ids.history_id,
            turn_id: &self.ids.turn_id,
            user_id: &self.ids.user_id,
            model: self.model.name(),
            prompt: &prompt,
            response: &self.output.reply,
            error,
            input_tokens: self.record.usage.input_tokens,
            output_tokens: self.record.usage.output_tokens,
            latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            metadata: &self.record.metadata,
        };
        // A failed log write is already traced by the store; the turn itself went through.
        let _ = log_ai_request(&self.runner.pool, &log).await;
    }
}

/// The live event that says the conversation `history_id` waits on `pending`.
fn asked_event(history_id: &str, pending: &StoredPendingAsk) -> AskCreated {
    AskCreated {
        history_id: history_id.to_string(),
        tool_call_id: pending.ask.tool_call_id.clone(),
        kind: pending.ask.kind,
        expires_at: pending.ask.expires_at.clone(),
    }
}
