//! Re-nudges and quiet hours. Every ask made for a person with a device is followed while it
//! waits: at the configured moments it is pushed again (at most once per moment, by whichever
//! instance takes it first), unless a tab of theirs shows it. Quiet hours hold every push to
//! the person back, first ones and nudges alike; when they end, the person gets one summary of
//! what still waits.

mod schedule;
mod store;

use std::time::Duration;

use jiff::{SignedDuration, Timestamp};

use super::Push;
use super::settings::{self, quiet_of};
use crate::error::AppResult;
use crate::turn::store::pending_ask;
use palaver_wire::conversation::model::AskEvent;
use palaver_wire::push::{NotificationSettings, PushMessage, SummaryNotification};
pub use schedule::NudgeSchedule;
use store::NudgeRow;

/// How often an instance looks for nudges that are due and quiet hours that ended.
const PASS_EVERY: Duration = Duration::from_secs(30);

/// The most nudges one pass sends (the rest go in the next).
const NUDGES_PER_PASS: i64 = 100;

/// How long a summary stays with a push service for a device that is offline.
const SUMMARY_TTL: Duration = Duration::from_secs(12 * 3600);

/// The tag of the summary: a newer one replaces the one before.
const SUMMARY_TAG: &str = "palaver-waiting";

/// A moment as the tables keep it.
fn stamp(moment: Timestamp) -> String {
    moment.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn moment(text: &str) -> Option<Timestamp> {
    text.parse().inspect_err(|err| tracing::warn!(%err, text, "a stored time is not a timestamp")).ok()
}

/// Passes over the due nudges every [`PASS_EVERY`], until the process ends.
pub(super) async fn keep_nudging(push: Push) {
    let mut passes = tokio::time::interval(PASS_EVERY);
    passes.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        passes.tick().await;
        if let Err(err) = push.nudge_due(Timestamp::now()).await {
            tracing::warn!(?err, "a pass over the due push re-nudges failed; the next one tries again");
        }
    }
}

impl Push {
    /// Follows `ask`, made for `user_id` at `now`, until it ends: its nudges' moments start.
    pub(super) async fn follow_up(
        &self,
        user_id: &str,
        history_id: &str,
        ask: &AskEvent,
        now: Timestamp,
    ) -> AppResult<()> {
        let deadline = ask.expires_at.as_deref().and_then(moment);
        let row = NudgeRow {
            history_id: history_id.to_string(),
            tool_call_id: ask.tool_call_id.clone(),
            user_id: user_id.to_string(),
            asked_at: stamp(now),
            expires_at: ask.expires_at.clone(),
            sent: 0,
            next_at: self.inner.nudges.next(now, deadline, 0).map(stamp),
        };
        store::follow(&self.inner.pool, &row).await
    }

    /// The ask ended: it is followed no more.
    pub(super) async fn stop_following(&self, history_id: &str, tool_call_id: &str) -> AppResult<()> {
        store::forget(&self.inner.pool, history_id, tool_call_id).await
    }

    /// Whether quiet hours hold back a push to `user_id` at `now`; if they do, the person is
    /// owed a summary when they end.
    pub(super) async fn held_back(
        &self,
        user_id: &str,
        settings: &NotificationSettings,
        now: Timestamp,
    ) -> AppResult<bool> {
        let quiet = quiet_of(settings, user_id).is_some_and(|quiet| quiet.holds(now));
        if quiet {
            store::hold(&self.inner.pool, user_id, &stamp(now)).await?;
        }
        Ok(quiet)
    }

    /// One pass at `now`: the nudges due are pushed, those whose quiet hours ended get their
    /// summary, and what ended a day ago is dropped (nudges, answer links of pushes and mails). The instance's own loop passes every 30 s; a test passes at the moment it
    /// needs.
    pub async fn nudge_due(&self, now: Timestamp) -> AppResult<()> {
        let pool = &self.inner.pool;
        store::prune(pool, &stamp(now - SignedDuration::from_hours(24))).await?;
        crate::answer_links::prune(pool).await?; // the links of asks a day past their deadline
        for row in store::due(pool, &stamp(now), NUDGES_PER_PASS).await? {
            let asked = moment(&row.asked_at).unwrap_or(now);
            let deadline = row.expires_at.as_deref().and_then(moment);
            let sent = usize::try_from(row.sent).unwrap_or(usize::MAX);
            let next = self.inner.nudges.next(asked, deadline, sent.saturating_add(1)).map(stamp);
            if !store::take(pool, &row, next.as_deref()).await? {
                continue; // another instance took it
            }
            if let Err(err) = self.nudge(&row, now).await {
                tracing::warn!(?err, "a push re-nudge was not sent");
            }
        }
        for user_id in store::held(pool).await? {
            let settings = settings::read(pool, &user_id).await?;
            let still_quiet = quiet_of(&settings, &user_id).is_some_and(|quiet| quiet.holds(now));
            if still_quiet || !store::release(pool, &user_id).await? {
                continue;
            }
            if let Err(err) = self.summarise(&user_id, now).await {
                tracing::warn!(?err, "the summary after quiet hours was not sent");
            }
        }
        Ok(())
    }

    /// Pushes the ask of `row` again, if it still waits.
    async fn nudge(&self, row: &NudgeRow, now: Timestamp) -> AppResult<()> {
        let pool = &self.inner.pool;
        let pending = pending_ask(pool, &row.history_id).await?;
        let Some(pending) = pending.filter(|pending| pending.ask.tool_call_id == row.tool_call_id) else {
            return self.stop_following(&row.history_id, &row.tool_call_id).await; // ended unseen
        };
        let devices = self.devices_of(&row.user_id).await?;
        if devices.is_empty() {
            return Ok(()); // every device of theirs was removed meanwhile
        }
        let settings = settings::read(pool, &row.user_id).await?;
        if self.held_back(&row.user_id, &settings, now).await? {
            return Ok(());
        }
        self.notify(&row.user_id, devices, &row.history_id, &pending, &settings, true).await
    }

    /// The one notification after quiet hours: how many asks still wait, if any do.
    async fn summarise(&self, user_id: &str, now: Timestamp) -> AppResult<()> {
        let (count, newest_title) = store::waiting(&self.inner.pool, user_id, &stamp(now)).await?;
        if count == 0 {
            return Ok(());
        }
        let title =
            if count == 1 { "A question waits for you".to_string() } else { format!("{count} questions wait for you") };
        let body = match newest_title.as_deref().map(str::trim).filter(|title| !title.is_empty()) {
            Some(newest) => format!("Held back during your quiet hours. The newest is in \u{201c}{newest}\u{201d}."),
            None => "Held back during your quiet hours.".to_string(),
        };
        let summary = SummaryNotification { tag: SUMMARY_TAG.into(), title, body, url: "/".into() };
        self.send_to_user(user_id, &PushMessage::Summary(summary), SUMMARY_TTL).await
    }
}
