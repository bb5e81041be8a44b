//! The task that sends pushes: it follows the events the live hub publishes on this instance
//! (each event is published once, on the instance where it happened, so each push goes out
//! once), decides in order what each calls for, and sends from tasks of their own. A push that
//! fails is logged once with its cause; a push service's 404 or 410 removes the subscription.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jiff::Timestamp;

use super::message::ask_notification;
use super::settings::{self, buttons_outside};
use super::store::{self, SubscriptionRow};
use super::{Push, vapid::VapidKeys};
use crate::answer_links::{self, Capability};
use crate::error::{AppResult, Error};
use crate::live::Following;
use crate::turn::store::{StoredPendingAsk, pending_ask};
use palaver_wire::live::{AskCreated, AskResolved, LiveEvent};
use palaver_wire::push::{ClosedNotification, NotificationAction, NotificationSettings, PushMessage};

/// How long a push service keeps a "closed" message for a device that is offline.
const CLOSED_TTL: Duration = Duration::from_secs(3600);

/// The longest a push service keeps an ask's notification for an offline device.
const ASK_TTL_MAX: Duration = Duration::from_secs(24 * 3600);

/// Pushes the asks it follows and closes them, until the hub is gone; makes the VAPID key first
/// if none is stored.
pub(super) async fn follow(push: Push, mut following: Following) {
    if let Err(err) = push.keys().await {
        tracing::error!(?err, "the VAPID key for push notifications could not be made or read");
    }
    while let Some(published) = following.next().await {
        let outcome = match &published.event {
            LiveEvent::AskCreated(event) => push.asked(&published.user_id, event).await,
            LiveEvent::AskResolved(event) => push.ended(event).await,
            _ => Ok(()),
        };
        if let Err(err) = outcome {
            tracing::warn!(?err, "a push notification was not sent");
        }
    }
}

/// The events push follows.
pub(super) fn wanted(event: &LiveEvent) -> bool {
    matches!(event, LiveEvent::AskCreated(_) | LiveEvent::AskResolved(_))
}

impl Push {
    /// A new ask of `owner_id`'s conversation: followed for re-nudges, and one notification to
    /// each device of whoever answers it (the owner, or the approvers an admin routed an
    /// approval to), unless their quiet hours hold it back or a tab of theirs shows the
    /// conversation.
    async fn asked(&self, owner_id: &str, event: &AskCreated) -> AppResult<()> {
        if !self.anyone_has_a_device().await? {
            return Ok(());
        }
        let pool = &self.inner.pool;
        let pending = pending_ask(pool, &event.history_id).await?;
        let Some(pending) = pending.filter(|pending| pending.ask.tool_call_id == event.tool_call_id) else {
            return Ok(()); // ended already
        };
        let answerers = super::answerers(pool, owner_id, pending.ask.routed.as_ref()).await?;
        let now = Timestamp::now();
        for answerer in answerers {
            if let Err(err) = self.reach(&answerer, &event.history_id, &pending, now).await {
                tracing::warn!(?err, "a push notification was not sent to one of an ask's answerers");
            }
        }
        Ok(())
    }

    /// Follows the ask for a person with devices (one without gets nothing, now or later), and
    /// notifies them unless quiet hours hold it back.
    async fn reach(
        &self,
        user_id: &str,
        history_id: &str,
        pending: &StoredPendingAsk,
        now: Timestamp,
    ) -> AppResult<()> {
        let pool = &self.inner.pool;
        let devices = self.devices_of(user_id).await?;
        if devices.is_empty() {
            return Ok(());
        }
        self.follow_up(user_id, history_id, &pending.ask, now).await?;
        let settings = settings::read(pool, user_id).await?;
        if self.held_back(user_id, &settings, now).await? {
            return Ok(());
        }
        self.notify(user_id, devices, history_id, pending, &settings, false).await
    }

    /// The notification of `pending` (a `reminder` of it: pushed again) to `devices`, those of
    /// `user_id`'s, with its buttons' answer capabilities (theirs) unless their `settings` have it
    /// only open Palaver; nothing while a tab of theirs shows the conversation.
    pub(super) async fn notify(
        &self,
        user_id: &str,
        devices: Vec<SubscriptionRow>,
        history_id: &str,
        pending: &StoredPendingAsk,
        settings: &NotificationSettings,
        reminder: bool,
    ) -> AppResult<()> {
        let pool = &self.inner.pool;
        if store::shown_in_a_tab(pool, user_id, history_id).await? {
            return Ok(());
        }
        let ask = &pending.ask;
        let Some((title, seconds_left)) = store::ask_context(pool, history_id, ask.expires_at.as_deref()).await? else {
            return Ok(()); // the conversation was deleted
        };
        let mut actions = Vec::new();
        let mut hashes = Vec::new();
        let buttons = buttons_outside(settings, ask);
        if let Some(expires_at) = ask.expires_at.as_deref().filter(|_| !buttons.is_empty()) {
            for button in buttons {
                let capability = Capability::mint()?;
                hashes.push((capability.hash, button.id.clone()));
                actions.push(NotificationAction {
                    action: button.id.clone(),
                    title: button.label.clone(),
                    token: capability.token,
                });
            }
            let (tool_call_id, push) = (&ask.tool_call_id, answer_links::Surface::Push);
            answer_links::store_links(pool, push, user_id, history_id, tool_call_id, expires_at, &hashes).await?;
        }
        let mut notification = ask_notification(ask, history_id, title.as_deref(), seconds_left, actions);
        if reminder {
            notification.body = format!("Still waiting for your answer. {}", notification.body);
        }
        store::mark_notified(pool, user_id, history_id, &ask.tool_call_id).await?;
        let ttl = Duration::from_secs(seconds_left.unwrap_or(0).max(60).unsigned_abs()).min(ASK_TTL_MAX);
        self.send_to_all(devices, &PushMessage::Ask(notification), ttl).await
    }

    /// An ask ended: it is followed no more, and its notifications close on the devices of
    /// everyone they went to. While nobody has a device there is nothing to close (an ask
    /// notified before the last device went keeps its row of whom it reached, read by nothing).
    async fn ended(&self, event: &AskResolved) -> AppResult<()> {
        if !self.anyone_has_a_device().await? {
            return Ok(());
        }
        let pool = &self.inner.pool;
        self.stop_following(&event.history_id, &event.tool_call_id).await?;
        let closed = PushMessage::Closed(ClosedNotification { tag: event.tool_call_id.clone() });
        for user_id in store::take_notified(pool, &event.history_id, &event.tool_call_id).await? {
            self.send_to_user(&user_id, &closed, CLOSED_TTL).await?;
        }
        Ok(())
    }

    /// `message` to every device of `user_id`'s.
    pub(super) async fn send_to_user(&self, user_id: &str, message: &PushMessage, ttl: Duration) -> AppResult<()> {
        let devices = self.devices_of(user_id).await?;
        self.send_to_all(devices, message, ttl).await
    }

    async fn send_to_all(&self, devices: Vec<SubscriptionRow>, message: &PushMessage, ttl: Duration) -> AppResult<()> {
        let payload = serde_json::to_vec(message)?;
        for device in devices {
            let (push, payload) = (self.clone(), payload.clone());
            tokio::spawn(async move {
                if let Err(err) = push.send(&device, payload, ttl).await {
                    tracing::warn!(?err, device = device.id, "a push notification was not delivered");
                }
            });
        }
        Ok(())
    }

    /// Encrypts `payload` for one device and posts it to its push service.
    async fn send(&self, device: &SubscriptionRow, payload: Vec<u8>, ttl: Duration) -> AppResult<()> {
        let keys = self.keys().await?;
        let request = encrypted_request(device, payload, ttl)?;
        let endpoint = url::Url::parse(&device.endpoint).map_err(|err| Error::internal(err))?;
        let authorization = signed(keys, &endpoint, &self.inner.contact)?;
        let (parts, body) = request.into_parts();
        let response = self
            .inner
            .client
            .post(endpoint)
            .headers(parts.headers)
            .header(http::header::AUTHORIZATION, authorization)
            .header("Urgency", "high")
            .body(body)
            .send()
            .await
            .map_err(|err| Error::internal(err))?;
        let status = response.status();
        if status == http::StatusCode::NOT_FOUND || status == http::StatusCode::GONE {
            tracing::info!(device = device.id, %status, "a push subscription has ended; it is removed");
            return self.forget_device(&device.id).await;
        }
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Err(Error::internal(format!("the push service answered {status}: {text}")));
        }
        Ok(())
    }
}

/// The push request for `device`: the payload encrypted for its keys (RFC 8291), with `TTL`.
fn encrypted_request(device: &SubscriptionRow, payload: Vec<u8>, ttl: Duration) -> AppResult<http::Request<Vec<u8>>> {
    let endpoint: http::Uri = device.endpoint.parse().map_err(|err| Error::internal(err))?;
    let point = URL_SAFE_NO_PAD.decode(&device.p256dh).map_err(|err| Error::internal(err))?;
    let public = web_push_native::p256::PublicKey::from_sec1_bytes(&point)
        .map_err(|err| Error::internal(format!("a stored device key is not a P-256 point: {err}")))?;
    let auth = URL_SAFE_NO_PAD.decode(&device.auth).map_err(|err| Error::internal(err))?;
    if auth.len() != 16 {
        return Err(Error::internal("a stored device secret is not 16 bytes"));
    }
    web_push_native::WebPushBuilder::new(endpoint, public, web_push_native::Auth::clone_from_slice(&auth))
        .with_valid_duration(ttl)
        .build(payload)
        .map_err(|err| Error::internal(err))
}

fn signed(keys: &VapidKeys, endpoint: &url::Url, contact: &str) -> AppResult<String> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|since| since.as_secs()).unwrap_or_default();
    keys.authorization(endpoint, contact, now)
}
