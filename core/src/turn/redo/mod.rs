//! Regenerate and edit: a message and what followed it are set aside as a version of the
//! conversation, and the message sent again (or its edit) is stored as the new turn's draft in
//! the same transaction.

pub mod store;

use super::attachments::Attached;
use super::{TurnRunner, check_prompt, store as turns};
use crate::accounts::auth::Caller;
use crate::conversation::access::{HistoryAccess, authorize_history};
use crate::error::{AppError, AppResult};
use palaver_wire::audit::Decider;
use palaver_wire::live::{HistoryRef, LiveEvent};
use store::ShowOutcome;

/// What a redo changes of a message (at index `from` of the rows, else the last one): its text
/// (an edit), the row count the client saw, and its files (none: the ones it had).
pub(super) struct Retract<'a> {
    pub(super) from: Option<i64>,
    pub(super) edited: Option<&'a str>,
    pub(super) seen_rows: Option<i64>,
    pub(super) attachments: &'a [String],
}

impl TurnRunner {
    /// Sets a message and what followed it aside for a redo; returns the prompt to send in its
    /// place (`edited`, or the message) and the pending ask it cancelled, if any. Everything
    /// is checked before anything changes: the caller may write, no reply runs, the
    /// conversation has the rows the client saw and a message to redo there.
    pub(super) async fn retract(
        &self,
        caller: &Caller,
        history_id: &str,
        turn_id: &str,
        running_key: &str,
        Retract { from, edited, seen_rows, attachments }: Retract<'_>,
        decider: &Decider,
    ) -> AppResult<(String, Attached, Option<String>)> {
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        if let Some(edited) = edited {
            check_prompt(edited)?;
        }
        if self.running.is_running(history_id).await {
            return Err(AppError::ReplyRunning.into());
        }
        let last = store::message_at(&self.pool, history_id, from).await?.ok_or_else(|| match from {
            Some(_) => AppError::BadRequest("replaceFrom must be the index in rows of one of your messages.".into()),
            None => AppError::NothingToRedo,
        })?;
        if seen_rows.is_some_and(|seen| seen != last.row_count) {
            return Err(AppError::ConversationChanged.into());
        }
        // The files go with the message again, checked before anything is retracted.
        let files = if attachments.is_empty() { &last.attachments } else { attachments };
        let attached = self.load_attachments(&caller.user.id, files).await?;
        let cancelled = self.cancel_for_prompt(history_id, turn_id, decider).await?;
        let prompt = edited.map_or(last.text.clone(), str::to_string);
        let rows = super::draft::first_rows(Some(prompt.trim().to_string()), &attached.rows, None, None);
        let draft = crate::turn::draft::store::Draft {
            turn_id,
            history_id,
            user_id: &caller.user.id,
            running_key,
            rows: &rows,
            task: None,
        };
        if !store::retract_from(&self.pool, history_id, &last, &draft).await? {
            return Err(AppError::ConversationChanged.into());
        }
        Ok((prompt, attached, cancelled))
    }
}

impl TurnRunner {
    /// Shows the version at `position` of the message at index `row` (the versions a redo
    /// kept): no reply may run, and no ask wait, so nothing in flight is set aside. The
    /// owner's other tabs and devices hear of it.
    pub async fn show_branch(
        &self,
        caller: &Caller,
        history_id: &str,
        row: i64,
        position: i64,
        seen_rows: Option<i64>,
    ) -> AppResult<()> {
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        if self.running.is_running(history_id).await {
            return Err(AppError::ReplyRunning.into());
        }
        match store::show_version(&self.pool, history_id, row, position, seen_rows).await? {
            ShowOutcome::Shown => {}
            ShowOutcome::Changed if turns::pending_ask(&self.pool, history_id).await?.is_some() => {
                return Err(AppError::AskWaiting.into());
            }
            ShowOutcome::Changed => return Err(AppError::ConversationChanged.into()),
            ShowOutcome::NoSuchVersion => {
                return Err(AppError::BadRequest(
                    "That message has no such version: row must be the index of a message with versions, and \
                     position one of its versions, from 0."
                        .into(),
                )
                .into());
            }
        }
        let shown = HistoryRef { history_id: history_id.to_string() };
        self.live.publish(&caller.user.id, LiveEvent::BranchShown(shown)).await;
        Ok(())
    }
}
