//! The two tasks behind webhooks. `follow` reads the events the live hub publishes on this
//! instance (each is published once, on the instance where it happened, so each is queued
//! once) and queues one delivery per webhook of the conversation's owner that wants it. `work`
//! runs on every instance: it claims due deliveries (one instance wins each claim, see
//! `store`), posts each from a task of its own, and records the outcome: delivered on a 2xx,
//! else due again after the schedule's next wait, failed after its last, and the webhook
//! disabled after too many failures in a row.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::payload::{self, Event};
use super::store::{self, ClaimedDelivery, Failure, NewDelivery};
use super::{Inner, WebhookSettings, Webhooks, sign};
use crate::db::new_id;
use crate::error::AppResult;
use crate::live::{Following, Published};
use crate::turn::store::pending_ask;
use palaver_wire::live::LiveEvent;
use palaver_wire::webhooks::{ASK_CREATED, ASK_RESOLVED, TURN_DONE, WebhookConversation};

/// The wait after a delivery's `attempts`-th failed attempt, or `None` when that was its last.
pub fn retry_delay(delays: &[Duration], attempts: u32) -> Option<Duration> {
    let index = usize::try_from(attempts).ok()?.checked_sub(1)?;
    delays.get(index).copied()
}

/// Queues what the events it follows call for, until the hub is gone.
pub(super) async fn follow(webhooks: Webhooks, mut following: Following) {
    while let Some(published) = following.next().await {
        if let Err(err) = webhooks.seen(&published).await {
            tracing::warn!(?err, "a webhook event was not queued");
        }
    }
}

/// The events webhooks follow.
pub(super) fn wanted(event: &LiveEvent) -> bool {
    matches!(event, LiveEvent::AskCreated(_) | LiveEvent::AskResolved(_) | LiveEvent::TurnDone(_))
}

impl Webhooks {
    /// Queues what a live event calls for to the owner's webhooks that want it.
    async fn seen(&self, published: &Published) -> AppResult<()> {
        let (event_type, history_id) = match &published.event {
            LiveEvent::AskCreated(event) => (ASK_CREATED, &event.history_id),
            LiveEvent::AskResolved(event) => (ASK_RESOLVED, &event.history_id),
            LiveEvent::TurnDone(event) => (TURN_DONE, &event.history_id),
            _ => return Ok(()),
        };
        let pool = &self.inner.pool;
        let owner = &published.user_id;
        let wanted: Vec<String> = self
            .inner
            .enabled
            .read(owner, || store::enabled_webhooks_of(pool, owner))
            .await?
            .into_iter()
            .filter(|(_, events)| events.split(',').any(|event| event == event_type))
            .map(|(id, _)| id)
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let Some(title) = store::conversation_title(pool, owner, history_id).await? else { return Ok(()) };
        let event_id = new_id();
        let event = Event {
            id: &event_id,
            created_at: store::now(pool).await?,
            conversation: WebhookConversation { id: history_id.clone(), title },
        };
        let body = match &published.event {
            LiveEvent::AskCreated(created) => {
                let pending = pending_ask(pool, history_id).await?;
                // An ask that ended before this ran is told by its `ask.resolved` alone.
                let Some(pending) = pending.filter(|pending| pending.ask.tool_call_id == created.tool_call_id) else {
                    return Ok(());
                };
                payload::ask_created(event, &pending, self.inner.settings.public_url.as_deref())?
            }
            LiveEvent::AskResolved(resolved) => payload::ask_resolved(event, resolved)?,
            LiveEvent::TurnDone(done) => payload::turn_done(event, done)?,
            _ => return Ok(()),
        };
        let deliveries: Vec<NewDelivery<'_>> = wanted
            .iter()
            .map(|webhook_id| NewDelivery { id: new_id(), webhook_id, event_id: &event_id, event_type, payload: &body })
            .collect();
        store::queue(pool, &deliveries).await?;
        self.inner.wake.notify_one();
        Ok(())
    }
}

/// Delivers due deliveries until the service is gone (its last handle dropped).
pub(super) async fn work(webhooks: Webhooks) {
    let weak: Weak<Inner> = Arc::downgrade(&webhooks.inner);
    let wake = Arc::clone(&webhooks.inner.wake);
    drop(webhooks);
    let mut pruned_at: Option<Instant> = None;
    loop {
        let Some(inner) = weak.upgrade() else { return };
        let webhooks = Webhooks { inner };
        let settings = webhooks.inner.settings.clone();
        webhooks.claim_and_send(&settings).await;
        if pruned_at.is_none_or(|at| at.elapsed() >= settings.prune_every) {
            pruned_at = Some(Instant::now());
            if let Err(err) = store::prune(&webhooks.inner.pool, settings.keep_days, settings.keep_last).await {
                tracing::warn!(?err, "old webhook deliveries could not be pruned");
            }
        }
        drop(webhooks);
        // Holds only the waker between rounds, so a dropped service ends this task.
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(settings.poll_every) => {}
        }
    }
}

impl Webhooks {
    /// Claims every due delivery and sends each from a task of its own.
    async fn claim_and_send(&self, settings: &WebhookSettings) {
        let lease = crate::db::seconds(settings.lease).max(1);
        loop {
            match store::claim_due(&self.inner.pool, lease).await {
                Ok(Some(claimed)) => {
                    let (webhooks, settings) = (self.clone(), settings.clone());
                    tokio::spawn(async move { webhooks.attempt(claimed, &settings).await });
                }
                Ok(None) => return,
                Err(err) => {
                    tracing::warn!(?err, "due webhook deliveries could not be claimed");
                    return;
                }
            }
        }
    }

    /// Posts one claimed delivery and records how it went.
    async fn attempt(&self, claimed: ClaimedDelivery, settings: &WebhookSettings) {
        let timestamp = SystemTime::now().duration_since(UNIX_EPOCH).map(|since| since.as_secs()).unwrap_or_default();
        let signature = sign::signature_header(&claimed.secret, timestamp, claimed.payload.as_bytes());
        let sent = self
            .inner
            .client
            .post(&claimed.url)
            .timeout(settings.timeout)
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::USER_AGENT, "Palaver-Webhooks")
            .header("Palaver-Event", &claimed.event_type)
            .header("Palaver-Delivery", &claimed.id)
            .header("Palaver-Signature", signature)
            .body(claimed.payload.clone())
            .send()
            .await;
        let pool = &self.inner.pool;
        let (status, error) = match sent {
            Ok(response) if response.status().is_success() => {
                if let Err(err) = store::delivered(pool, &claimed, response.status().as_u16()).await {
                    tracing::error!(?err, delivery = claimed.id, "a webhook delivery went out but was not recorded");
                }
                return;
            }
            Ok(response) => {
                let status = response.status();
                (Some(status.as_u16()), format!("The receiver answered {status}."))
            }
            Err(err) if err.is_timeout() => {
                (None, format!("The receiver did not answer within {} s.", settings.timeout.as_secs_f32()))
            }
            Err(err) if err.is_connect() => (None, "Palaver could not connect to the receiver.".to_string()),
            Err(err) => (None, format!("The request failed: {}.", err.without_url())),
        };
        let attempts = u32::try_from(claimed.attempts).unwrap_or(u32::MAX);
        let failure = Failure {
            status,
            error: &error,
            retry_in: retry_delay(&settings.retry_delays, attempts).map(|wait| wait.as_secs_f64()),
            disable_after: i32::try_from(settings.disable_after).unwrap_or(i32::MAX),
        };
        tracing::info!(
            delivery = claimed.id,
            webhook = claimed.webhook_id,
            attempts,
            error,
            "a webhook delivery failed"
        );
        match store::failed(pool, &claimed, &failure).await {
            Ok(Some(disabled)) => {
                if disabled.by_this_attempt {
                    tracing::warn!(webhook = claimed.webhook_id, "a webhook was disabled after failing in a row");
                }
                self.inner.enabled.changed(&disabled.owner).await;
            }
            Ok(None) => {}
            Err(err) => tracing::error!(?err, delivery = claimed.id, "a failed webhook delivery was not recorded"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_waits_longer_each_time_then_gives_up() {
        let delays = WebhookSettings::default().retry_delays;
        let waits: Vec<Option<u64>> =
            (0..=6).map(|attempts| retry_delay(&delays, attempts).map(|wait| wait.as_secs())).collect();
        assert_eq!(waits, [None, Some(30), Some(120), Some(600), Some(3600), Some(6 * 3600), None]);
        let tiny = [Duration::from_millis(5), Duration::from_millis(10)];
        assert_eq!(retry_delay(&tiny, 2), Some(Duration::from_millis(10)));
        assert_eq!(retry_delay(&tiny, 3), None, "a delivery gets one attempt more than the schedule's waits");
    }
}
