//! Asks nobody answered in time end as `expired`: a stored ending like an answer or a cancel,
//! made by the same guarded move, so an answer racing the expiry and the expiry itself resolve
//! the ask once between them. No default is applied: an expired approval's tool never runs,
//! and the model learns on the next turn that the user did not answer.

use std::time::Duration;

use super::TurnRunner;
use super::answer::answer_rows;
use super::store::{Deadline, Resolution, StoredPendingAsk};
use super::waiting::Resumed;
use crate::db::new_id;
use crate::error::{AppError, AppResult};
use palaver_contract::asks::AskResponse;
use palaver_wire::audit::Decider;
use palaver_wire::conversation::model::AskStatus;

mod store;

/// The cancel reason an ask that expired is stored with.
pub const EXPIRED: &str = "expired";

/// How often the sweeper looks for asks that are due.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// How many due asks one query of the sweeper takes.
const SWEEP_BATCH: i64 = 100;

/// How often the sweeper empties the request log's old text.
const FORGET_TEXT_EVERY: Duration = Duration::from_secs(60);

impl TurnRunner {
    /// Ends `pending` as expired when it is due and still pending; a turn waiting on it (an
    /// elicitation's) is told, and ends the tool's call. False when it is not due, or already
    /// resolved.
    pub(super) async fn expire(&self, history_id: &str, pending: &StoredPendingAsk) -> AppResult<bool> {
        let response = AskResponse::Cancel { reason: Some(EXPIRED.into()) };
        let rows = answer_rows(pending, &response);
        let palaver = Decider::palaver();
        let resolution = Resolution {
            expected: pending,
            status: AskStatus::Expired,
            rows,
            deadline: Deadline::Passed,
            response: &response,
            decider: &palaver,
            grant: None,
            changeable_for: None,
        };
        let expired = self.resolve(history_id, &new_id(), resolution).await?.is_some();
        if expired {
            tracing::info!(history = history_id, ask = %pending.ask.tool_call_id, "an ask expired unanswered");
            self.waiting.resume(history_id, &pending.ask.tool_call_id, Resumed::Expired);
        }
        Ok(expired)
    }

    /// The error for an answer to `pending` that found it expired.
    pub(super) fn expired_error(pending: &StoredPendingAsk) -> AppError {
        AppError::ExpiredAsk {
            tool_call_id: pending.ask.tool_call_id.clone(),
            expires_at: pending.ask.expires_at.clone().unwrap_or_default(),
        }
    }

    /// Why an answer to `tool_call_id` finds no such pending ask: it expired, or it is stale.
    pub(super) async fn not_pending(&self, history_id: &str, tool_call_id: &str) -> AppResult<AppError> {
        let tool_call_id = tool_call_id.to_string();
        Ok(match store::expired_at(&self.pool, history_id, &tool_call_id).await? {
            Some(expires_at) => AppError::ExpiredAsk { tool_call_id, expires_at },
            None => AppError::StaleAsk { tool_call_id },
        })
    }

    /// Ends every ask that is due; returns how many it ended.
    pub async fn expire_due(&self) -> AppResult<usize> {
        let mut ended = 0;
        loop {
            let due = store::due_asks(&self.pool, SWEEP_BATCH).await?;
            let full = due.len() == SWEEP_BATCH as usize;
            for (history_id, pending) in due {
                ended += usize::from(self.expire(&history_id, &pending).await?);
            }
            if !full {
                return Ok(ended);
            }
        }
    }

    /// Dates the asks stored before asks expired, then, now and every second, ends due asks
    /// (so asks expire across restarts) and saves the turns a stopped process cut off; once a
    /// minute it empties the request log's old text and forgets the answers that can no longer
    /// be changed. Runs until it is aborted or the pool closes.
    pub fn spawn_sweeper(&self) -> tokio::task::JoinHandle<()> {
        let runner = self.clone();
        tokio::spawn(async move {
            let (ttl, approval_ttl) = (runner.settings.ask_ttl, runner.settings.approval_ttl);
            match store::date_undated_asks(&runner.pool, ttl, approval_ttl).await {
                Ok(0) => {}
                Ok(dated) => tracing::info!(dated, "pending asks from before expiry were given an expiry"),
                Err(err) => tracing::error!(?err, "could not date the pending asks"),
            }
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            let mut forget = tokio::time::interval(FORGET_TEXT_EVERY);
            forget.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = forget.tick() => {
                        if let Err(err) = runner.forget_old_request_text().await {
                            tracing::warn!(?err, "the request log's old text was not emptied; trying again");
                        }
                        if let Err(err) = runner.forget_lapsed_answers().await {
                            tracing::warn!(?err, "the answers past changing were not forgotten; trying again");
                        }
                        continue;
                    }
                }
                if runner.pool.is_closed() {
                    return;
                }
                if let Err(err) = runner.expire_due().await {
                    tracing::warn!(?err, "the ask expiry sweep failed; trying again");
                }
                if let Err(err) = runner.close_interrupted().await {
                    tracing::warn!(?err, "the sweep for interrupted turns failed; trying again");
                }
            }
        })
    }
}
