//! Who may answer a pending ask: its conversation's owner, except for an approval an admin
//! routed to someone else (`palaver_wire::approvers`), which only its approver may answer and
//! its owner never. Under the two-person rule the first approval is recorded on the pending
//! ask (and in the audit trail) and the call waits for a second, different approver.

use super::store::{self, StoredPendingAsk};
use super::{AppResult, TurnRunner};
use crate::accounts::auth::Caller;
use crate::audit::store::{Ending, record_alone};
use crate::error::AppError;
use palaver_wire::audit::Decider;
use palaver_wire::conversation::model::AskOrigin;
use palaver_wire::live::{AskCreated, LiveEvent};

/// Who answers an ask, as far as answering goes.
pub(super) struct Answerer {
    /// The conversation's owner: the turn the answer resumes runs as them.
    pub(super) owner_id: String,
    user_id: String,
    username: String,
    is_admin: bool,
}

impl Answerer {
    pub(super) fn is_owner(&self) -> bool {
        self.owner_id == self.user_id
    }

    /// Whether this answerer may answer `pending`: refused with the reason when not.
    pub(super) fn check(&self, pending: &StoredPendingAsk) -> AppResult<()> {
        let Some(routed) = &pending.ask.routed else {
            return if self.is_owner() { Ok(()) } else { Err(AppError::NotHistoryOwner.into()) };
        };
        let refused = || AppError::ApprovalRoutedElsewhere { approver: routed.approver.words() };
        if self.is_owner() || !routed.approver.admits(&self.user_id, self.is_admin) {
            return Err(refused().into());
        }
        if routed.first_approver.as_deref() == Some(self.user_id.as_str()) {
            return Err(AppError::AlreadyApproved.into());
        }
        Ok(())
    }
}

/// Whether `pending` waits for a second approver before an approval of it counts.
pub(super) fn needs_second_approval(pending: &StoredPendingAsk) -> bool {
    pending.ask.routed.as_ref().is_some_and(|routed| routed.needed == 2 && routed.first_approver.is_none())
}

impl TurnRunner {
    /// Who `caller` is to the conversation `history_id` (404 when there is none), and the
    /// conversation's pending ask, read with its owner.
    pub(super) async fn answerer(
        &self,
        caller: &Caller,
        history_id: &str,
        read: Option<store::OwnerAndPending>,
    ) -> AppResult<(Answerer, Option<StoredPendingAsk>)> {
        let found = match read {
            Some(read) => Some(read),
            None => store::owner_and_pending_ask(&self.pool, history_id).await?,
        };
        let Some((Some(owner_id), pending)) = found else { return Err(AppError::HistoryNotFound.into()) };
        let (user_id, username) = (caller.user.id.clone(), caller.user.username.clone());
        Ok((Answerer { owner_id, user_id, username, is_admin: caller.is_admin() }, pending))
    }

    /// Records the first approval of a two-person approval: on the pending ask (once, even
    /// when two approvals race: the loser is told the ask is no longer as it saw it) and in the
    /// audit trail; the owner's tabs show whom it waits for now.
    pub(super) async fn record_first_approval(
        &self,
        history_id: &str,
        pending: &StoredPendingAsk,
        decider: &Decider,
        answerer: &Answerer,
    ) -> AppResult<()> {
        let tool_call_id = &pending.ask.tool_call_id;
        let (approver_id, approver_name) = (&answerer.user_id, &answerer.username);
        if !store::set_first_approver(&self.pool, history_id, tool_call_id, approver_id, approver_name).await? {
            return Err(self.not_pending(history_id, tool_call_id).await?.into());
        }
        let ending = Ending {
            history_id,
            tool_call_id,
            kind: pending.ask.kind.as_str(),
            origin: Some(AskOrigin::Approval.as_str()),
            tool_name: pending.ask.tool_name.as_deref(),
            decision: "accept",
            approved: Some(true),
            reason: None,
            scope: Some("first-of-two"),
            args_digest: pending.args_digest(),
        };
        if let Err(err) = record_alone(&self.pool, decider, &ending).await {
            tracing::error!(?err, history = history_id, "a first approval is not in the audit trail");
        }
        let again = AskCreated {
            history_id: history_id.to_string(),
            tool_call_id: tool_call_id.clone(),
            kind: pending.ask.kind,
            expires_at: pending.ask.expires_at.clone(),
        };
        self.live.publish(&answerer.owner_id, LiveEvent::AskCreated(again)).await;
        Ok(())
    }
}
