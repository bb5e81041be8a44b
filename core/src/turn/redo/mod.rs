//! Regenerate and edit: the conversation's last exchange is retracted, and the message sent
//! again (or its edit) is stored as the new turn's draft in the same transaction.

pub mod store;

use super::attachments::Attached;
use super::{TurnRunner, check_prompt, store as turns};
use crate::accounts::auth::Caller;
use crate::conversation::access::{HistoryAccess, authorize_history};
use crate::error::{AppError, AppResult};
use palaver_wire::audit::Decider;

/// What a redo changes of the last message: its text (an edit), the row count the client saw,
/// and its files (none: the ones it had).
pub(super) struct Retract<'a> {
    pub(super) edited: Option<&'a str>,
    pub(super) seen_rows: Option<i64>,
    pub(super) attachments: &'a [String],
}

impl TurnRunner {
    /// Retracts a conversation's last exchange for a redo; returns the prompt to send in its
    /// place (`edited`, or the retracted message) and the pending ask it cancelled, if any.
    /// Everything is checked before anything changes: the caller may write, no reply runs,
    /// the conversation has the rows the client saw and a message to redo.
    pub(super) async fn retract_last(
        &self,
        caller: &Caller,
        history_id: &str,
        turn_id: &str,
        running_key: &str,
        Retract { edited, seen_rows, attachments }: Retract<'_>,
        decider: &Decider,
    ) -> AppResult<(String, Attached, Option<String>)> {
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        if let Some(edited) = edited {
            check_prompt(edited)?;
        }
        if self.running.is_running(history_id).await {
            return Err(AppError::ReplyRunning.into());
        }
        let last = store::last_message(&self.pool, history_id).await?.ok_or(AppError::NothingToRedo)?;
        if seen_rows.is_some_and(|seen| seen != last.row_count) {
            return Err(AppError::ConversationChanged.into());
        }
        // The files go with the message again, checked before anything is retracted.
        let files = if attachments.is_empty() { &last.attachments } else { attachments };
        let attached = self.load_attachments(&caller.user.id, files).await?;
        let cancelled = self.cancel_for_prompt(history_id, turn_id, decider).await?;
        let prompt = edited.map_or(last.text.clone(), str::to_string);
        let rows = super::draft::first_rows(Some(prompt.trim().to_string()), &attached.rows);
        let draft = turns::Draft { turn_id, history_id, user_id: &caller.user.id, running_key, rows: &rows };
        if !store::retract_exchange(&self.pool, history_id, &last, &draft).await? {
            return Err(AppError::ConversationChanged.into());
        }
        Ok((prompt, attached, cancelled))
    }
}
