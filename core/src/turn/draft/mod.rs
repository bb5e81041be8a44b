//! A running turn's draft: its rows as far as it got, the reply so far last (marked
//! interrupted), stored when the turn starts and at most a second behind while it streams. The
//! transaction that saves the turn removes it, so a draft that outlives its turn's instance
//! (killed, or cut off by a crash) is what the user saw: the sweeper saves it as the turn's
//! rows, the reply shown cut off with a Retry and told so to the model on the next turn.

use std::collections::HashSet;
use std::time::Instant;

use super::TurnRunner;
use super::run::Turn;
use super::store as turns;
use crate::conversation::store as histories;
use crate::error::{AppError, AppResult};
use palaver_wire::conversation::model::{Attachment, HistoryRow};
use palaver_wire::live::{LiveEvent, TurnDone};
use store::Draft;

pub mod store;

/// A turn's first draft, stored before its request is answered: the user's message (none for
/// an answer, stored already; `from_app` when an MCP App sent it) and the reply of `model`
/// (when known: a redo's is chosen after its draft), empty so far.
pub(super) fn first_rows(
    prompt: Option<String>,
    attachments: &[Attachment],
    from_app: Option<String>,
    model: Option<&str>,
) -> Vec<HistoryRow> {
    let message = prompt.map(|text| HistoryRow::User { text, attachments: attachments.to_vec(), from_app });
    message.into_iter().chain([interrupted_reply(String::new(), model.map(str::to_string))]).collect()
}

/// A draft's last row: the reply as far as it got, marked cut off should the draft be saved.
pub(in crate::turn) fn interrupted_reply(text: String, model: Option<String>) -> HistoryRow {
    HistoryRow::Assistant { text, document: false, block_errors: String::new(), interrupted: true, blocks: None, model }
}

/// Waits until `due`, or forever without one.
pub(super) async fn until(due: Option<Instant>) {
    match due {
        Some(due) => tokio::time::sleep_until(due.into()).await,
        None => std::future::pending().await,
    }
}

impl Turn {
    /// Stores the draft if it is due (a second behind what streamed).
    pub(super) async fn write_draft_if_due(&mut self, streaming: &str) {
        if self.lifecycle.draft.due().is_some_and(|due| due <= Instant::now()) {
            self.write_draft(streaming).await;
        }
    }

    /// A call that followed a task has its result row: the draft is stored at once, so that
    /// once the step goes past the call, a restart never follows the task again (and never runs
    /// the step's later calls twice).
    pub(super) async fn write_draft_after_task(&mut self) {
        if self.lifecycle.draft.take_task_ended() {
            self.write_draft("").await;
        }
    }

    /// Stores the draft now, `streaming` (the text of the step that runs) after the reply so far.
    pub(super) async fn write_draft(&mut self, streaming: &str) {
        if self.lifecycle.draft.is_taken() {
            return;
        }
        let mut rows = self.output.new_rows.clone();
        rows.push(interrupted_reply(
            [self.output.reply.as_str(), streaming].concat(),
            Some(self.model.name().to_string()),
        ));
        if self.lifecycle.draft.holds(&rows) {
            self.lifecycle.draft.written_now(rows);
            return;
        }
        let draft = Draft {
            turn_id: &self.ids.turn_id,
            history_id: &self.ids.history_id,
            user_id: &self.ids.user_id,
            running_key: &self.ids.running_key,
            rows: &rows,
            task: self.lifecycle.draft.task(),
        };
        match store::write_draft(&self.runner.pool, &draft, !self.lifecycle.draft.stored()).await {
            Ok(true) => self.lifecycle.draft.written_now(rows),
            // A sweeper took this turn for dead (its lease lapsed) and saved the draft: the turn
            // goes on, and its save replaces what the sweeper stored or says it was cut off. (Or
            // the conversation is gone: its save stores nothing either.)
            Ok(false) => {
                self.lifecycle.draft.mark_taken();
                // A sweeper that found a task in the draft started a turn in this one's place,
                // which follows the task on: this one stops, unsaved.
                if store::taken_over(&self.runner.pool, &self.ids.turn_id).await.unwrap_or(false) {
                    tracing::warn!(history = self.ids.history_id, "a turn taken for dead goes on in another's place");
                    self.lifecycle.superseded = true;
                }
            }
            // A draft not stored is only a loss if the process dies too: the turn goes on.
            Err(err) => tracing::warn!(?err, history = self.ids.history_id, "a running turn's draft was not stored"),
        }
    }
}

impl TurnRunner {
    /// Saves every draft whose turn no instance runs any more as that turn's rows (interrupted),
    /// or, when a call of the turn followed a task, starts a turn that goes on from it
    /// (`follow_on`); returns how many it took. One that cannot be saved now is tried again on the next sweep,
    /// and so are the conversation's drafts after it: its rows come before theirs. A turn that
    /// waits for an earlier one waits for its draft to be saved here (`runs_earlier`).
    pub async fn close_interrupted(&self) -> AppResult<usize> {
        let mut closed = 0;
        let mut held_back = HashSet::new();
        let instance_id = self.running.instance_id();
        let other_instances = self.running.other_instances();
        for draft in store::drafts(&self.pool).await? {
            if held_back.contains(&draft.history_id)
                || self.running.may_still_run(&draft.running_key, draft.holder.as_ref())
            {
                held_back.insert(draft.history_id);
                continue;
            }
            if draft.follows_task {
                match self.follow_on(&draft).await {
                    Ok(()) => {
                        closed += 1;
                        tracing::info!(
                            history = draft.history_id,
                            turn = draft.turn_id,
                            "a turn cut off while its call's task ran goes on from the task"
                        );
                        self.forget_running_turn(&draft).await;
                        continue;
                    }
                    Err(err) if matches!(err.kind(), AppError::ReplyRunning) => {
                        held_back.insert(draft.history_id);
                        continue;
                    }
                    Err(err) => tracing::warn!(
                        ?err,
                        history = draft.history_id,
                        "a turn cut off while its call's task ran cannot go on; it is saved as interrupted"
                    ),
                }
            }
            match turns::save_draft(&self.pool, &draft.history_id, &draft.turn_id, instance_id, other_instances).await {
                Ok(true) => {}
                // Its owner saved it, or renewed its lease since: it runs still.
                Ok(false) => {
                    held_back.insert(draft.history_id);
                    continue;
                }
                Err(err) => {
                    tracing::warn!(?err, history = draft.history_id, "an interrupted turn was not saved yet");
                    held_back.insert(draft.history_id);
                    continue;
                }
            }
            closed += 1;
            tracing::info!(
                history = draft.history_id,
                turn = draft.turn_id,
                "a turn cut off by a stop of its process was saved as interrupted"
            );
            self.forget_running_turn(&draft).await;
            let done = TurnDone { history_id: draft.history_id, pending_ask: None };
            self.live.publish(&draft.user_id, LiveEvent::TurnDone(done)).await;
        }
        match store::forget_swept(&self.pool).await {
            Ok(0) => {}
            Ok(forgotten) => tracing::info!(forgotten, "forgot the drafts swept an hour ago"),
            Err(err) => tracing::warn!(?err, "swept drafts were not forgotten"),
        }
        Ok(closed)
    }

    /// A swept draft's row among the running turns no longer stands for a running turn (a
    /// Retry would find it running).
    async fn forget_running_turn(&self, draft: &store::StoredDraft) {
        if draft.holder.is_some() {
            let _ = histories::remove_running_turn(&self.pool, &draft.running_key).await;
        }
    }
}
