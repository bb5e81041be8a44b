//! Changing an answer: for a short while after a person answered a model's ask (or denied an
//! approval), while nothing but the reply to it came after, they may take the answer back: the
//! reply goes, the ask is pending again exactly as it was (same id, same expiry), and the audit
//! trail records the withdrawal. Then they answer again as usual. The reply must have finished
//! first (a running one is not stopped for it); an approved call that ran, a later message or a
//! later ask ends the chance, as does an MCP server's question (its call held the answer).

pub mod store;

use std::time::Duration;

use super::TurnRunner;
use super::answer::denial_reason;
use super::store::StoredPendingAsk;
use crate::accounts::auth::Caller;
use crate::conversation::access::{HistoryAccess, authorize_history};
use crate::conversation::store as histories;
use crate::error::AppResult;
use palaver_contract::asks::AskResponse;
use palaver_wire::audit::Decider;
use palaver_wire::conversation::answer_change::ChangeableAnswer;
use palaver_wire::conversation::model::PendingAskView;
use palaver_wire::live::{AskCreated, LiveEvent};

/// How long after it was given an answer can be changed.
pub const ANSWER_CHANGE_WINDOW: Duration = Duration::from_secs(2 * 60);

/// Why an answer can no longer be changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unchangeable {
    /// A message, an ask or a tool call that ran came after it (or it is not the last answer).
    WentOn,
    WindowClosed,
    /// The ask's own time to be answered is over.
    Expired,
    ReplyRunning,
    /// Taken back already (another tab or device): the ask waits for an answer.
    AlreadyOpen,
}

impl Unchangeable {
    /// The refusal as the person reads it.
    pub fn sentence(self) -> &'static str {
        match self {
            Unchangeable::WentOn => "This answer can no longer be changed: the conversation has gone on.",
            Unchangeable::WindowClosed => "This answer can no longer be changed: the window to change it closed.",
            Unchangeable::Expired => "This answer can no longer be changed: the question has expired.",
            Unchangeable::ReplyRunning => {
                "This answer cannot be changed while its reply is being written: wait for it, or stop it, first."
            }
            Unchangeable::AlreadyOpen => "This question is open again already: answer it in the conversation.",
        }
    }
}

impl std::fmt::Display for Unchangeable {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.sentence())
    }
}

/// For how long the person may change `response` to `pending`, stored with the answer: not at all
/// for an MCP server's question (its running call took the answer), an argument form (its values
/// went into calls) or an approval that approves (its call runs).
pub(super) fn changeable_for(pending: &StoredPendingAsk, response: &AskResponse) -> Option<Duration> {
    let approves = pending.guarded_call_id().is_some() && denial_reason(response).is_none();
    (!pending.answers_a_call() && !approves).then_some(ANSWER_CHANGE_WINDOW)
}

impl TurnRunner {
    /// Forgets the answers whose time to be changed is over (the sweeper, once a minute).
    pub async fn forget_lapsed_answers(&self) -> AppResult<u64> {
        store::forget_lapsed(&self.pool).await
    }

    /// The answer the caller may change on a conversation they may read, and until when (none
    /// for someone else's).
    pub async fn changeable_answer(&self, caller: &Caller, history_id: &str) -> AppResult<Option<ChangeableAnswer>> {
        let owner = histories::history_owner(&self.pool, history_id).await?.flatten();
        if owner.as_deref() != Some(caller.user.id.as_str()) {
            return Ok(None);
        }
        store::changeable_answer(&self.pool, history_id).await
    }

    /// Takes back the caller's answer to `tool_call_id` so they can answer again: the ask is
    /// pending again, as it was, and the owner's tabs and devices hear it. The refusal says why
    /// when it can no longer be changed.
    pub async fn reopen_answer(
        &self,
        caller: &Caller,
        history_id: &str,
        tool_call_id: &str,
    ) -> AppResult<Result<PendingAskView, Unchangeable>> {
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        // Held like a turn's admission: a message sent now waits, then finds the ask pending.
        let _admission = self.running.admit(history_id).await;
        let Some(remembered) = store::remembered(&self.pool, history_id, tool_call_id).await? else {
            return Ok(Err(self.why_not_pending_again(history_id, tool_call_id).await?));
        };
        if self.running.is_running(history_id).await {
            return Ok(Err(Unchangeable::ReplyRunning));
        }
        let decider = Decider::person(&caller.user.id, caller.decided_via());
        if !store::withdraw(&self.pool, history_id, &remembered, &decider).await? {
            let Some(standing) = store::standing(&self.pool, history_id, tool_call_id).await? else {
                return Ok(Err(self.why_not_pending_again(history_id, tool_call_id).await?));
            };
            return Ok(Err(match standing {
                store::Standing { reply_running: true, .. } => Unchangeable::ReplyRunning,
                store::Standing { went_on: true, .. } => self.why_not_pending_again(history_id, tool_call_id).await?,
                store::Standing { expired: true, .. } => Unchangeable::Expired,
                store::Standing { window_closed: true, .. } => Unchangeable::WindowClosed,
                // It changed between the withdrawal and this look: someone else moved.
                _ => Unchangeable::WentOn,
            }));
        }
        let pending = remembered.pending;
        let event = AskCreated {
            history_id: history_id.to_string(),
            tool_call_id: pending.ask.tool_call_id.clone(),
            kind: pending.ask.kind,
            expires_at: pending.ask.expires_at.clone(),
        };
        self.live.publish(&caller.user.id, LiveEvent::AskCreated(event)).await;
        Ok(Ok(PendingAskView { ask: pending.ask, created: pending.created }))
    }

    /// An answer that is not (or no longer) the one to change: taken back already, when the
    /// conversation waits on that very ask again; else the conversation went on.
    async fn why_not_pending_again(&self, history_id: &str, tool_call_id: &str) -> AppResult<Unchangeable> {
        let pending = super::store::pending_ask(&self.pool, history_id).await?;
        Ok(match pending {
            Some(pending) if pending.ask.tool_call_id == tool_call_id => Unchangeable::AlreadyOpen,
            _ => Unchangeable::WentOn,
        })
    }
}
