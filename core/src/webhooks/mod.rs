//! Outgoing webhooks: a person registers URLs that get their asks and turns as signed JSON
//! posts (`ask.created`, `ask.resolved`, `turn.done`), enough for a Slack, Teams or Telegram
//! bridge that answers through the headless API. Delivery is durable: each event the live hub
//! publishes on this instance becomes one outbox row per webhook that wants it (`follow`), and
//! a worker on every instance claims due rows under a lease, posts them, and retries failures
//! on a schedule (`deliver`); a webhook whose attempts fail too often in a row is disabled
//! until its person enables it again.

mod deliver;
mod payload;
pub mod sign;
mod store;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;

use crate::db::{Pool, new_id};
use crate::error::{AppResult, FieldError};
use crate::kept::Kept;
use crate::live::LiveHub;
use palaver_wire::webhooks::{
    DeliveryStatus, MAX_WEBHOOKS, NewWebhook, PING, WEBHOOK_EVENTS, Webhook, WebhookChange, WebhookDeliveries,
    WebhookDelivery, WebhookWithSecret, Webhooks as WebhookList,
};
use store::WebhookRow;

pub use deliver::retry_delay;

/// The longest URL a webhook may have.
const URL_MAX_CHARS: usize = 2048;

/// The longest description a webhook may have.
const DESCRIPTION_MAX_CHARS: usize = 200;

/// How many deliveries `GET /webhooks/{id}/deliveries` lists.
const DELIVERIES_LISTED: i64 = 50;

/// How the worker delivers: given to it, so tests run the schedule in milliseconds.
#[derive(Clone, Debug, PartialEq)]
pub struct WebhookSettings {
    /// The waits after the 1st, 2nd, … failed attempt of a delivery; after the last, it has failed.
    pub retry_delays: Vec<Duration>,
    /// Failed attempts in a row (of any of its deliveries) that disable a webhook.
    pub disable_after: u32,
    /// How often the worker looks for due deliveries (new events wake it at once).
    pub poll_every: Duration,
    /// How long a claimed delivery is this instance's; past it, another may attempt it.
    pub lease: Duration,
    /// How long one attempt may take.
    pub timeout: Duration,
    /// `PALAVER_PUBLIC_URL`'s first origin, for absolute links in payloads (relative without).
    pub public_url: Option<String>,
    /// Finished deliveries are kept this many days, and at most this many per webhook; each
    /// instance drops the others every `prune_every`.
    pub keep_days: i64,
    pub keep_last: i64,
    pub prune_every: Duration,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            retry_delays: [30, 120, 600, 3600, 6 * 3600].map(Duration::from_secs).to_vec(),
            disable_after: 5,
            poll_every: Duration::from_secs(5),
            lease: Duration::from_secs(60),
            timeout: Duration::from_secs(10),
            public_url: None,
            keep_days: 7,
            keep_last: 100,
            prune_every: Duration::from_secs(600),
        }
    }
}

/// The webhook service: cloning shares it.
#[derive(Clone)]
pub struct Webhooks {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    client: reqwest::Client,
    settings: WebhookSettings,
    /// Wakes the worker when this instance queued deliveries.
    wake: Arc<Notify>,
    /// Each user's enabled webhooks (id, events), which every live event of theirs looks at.
    enabled: Kept<Vec<(String, String)>>,
}

/// Why a request about webhooks was refused (the caller's doing, not the server's).
#[derive(Debug, PartialEq)]
pub enum Refusal {
    /// Fields that are not valid, each with its path.
    Fields(Vec<FieldError>),
    /// The person has [`MAX_WEBHOOKS`] already.
    TooMany,
    /// The person has no webhook by that id (someone else's included).
    NotFound,
}

fn refusal(path: &str, code: &str, message: &str, fix: &str) -> FieldError {
    FieldError { code: code.into(), fix: fix.into(), message: message.into(), path: path.into() }
}

fn check_url(url: &str) -> Result<String, FieldError> {
    let url = url.trim();
    let parsed = url::Url::parse(url).ok().filter(|parsed| parsed.host().is_some());
    let allowed = parsed.as_ref().is_some_and(|parsed| {
        crate::outbound::https_or_loopback(parsed) && parsed.username().is_empty() && parsed.password().is_none()
    });
    if url.chars().count() > URL_MAX_CHARS || !allowed {
        return Err(refusal(
            "url",
            "INVALID_URL",
            "The URL is not an https URL (http is allowed only on a loopback address).",
            "Give the https URL your receiver listens on, such as https://bridge.example.com/palaver.",
        ));
    }
    Ok(url.to_string())
}

fn check_description(description: &str) -> Result<String, FieldError> {
    let description = description.trim();
    if description.chars().count() > DESCRIPTION_MAX_CHARS {
        return Err(refusal(
            "description",
            "INVALID_DESCRIPTION",
            "The description is too long.",
            &format!("Describe the webhook in at most {DESCRIPTION_MAX_CHARS} characters."),
        ));
    }
    Ok(description.to_string())
}

/// The events as stored (comma-separated, in the canonical order), or which one is unknown.
fn check_events(events: &[String]) -> Result<String, FieldError> {
    let path = match events.iter().position(|event| !WEBHOOK_EVENTS.contains(&event.as_str())) {
        Some(index) => format!("events[{index}]"),
        None if events.is_empty() => "events".to_string(),
        None => {
            let wanted = WEBHOOK_EVENTS.iter().filter(|known| events.iter().any(|event| event == *known));
            return Ok(wanted.copied().collect::<Vec<_>>().join(","));
        }
    };
    Err(refusal(
        &path,
        "INVALID_EVENT",
        "The events are empty or name one Palaver does not send.",
        &format!("Choose one or more of {}.", WEBHOOK_EVENTS.join(", ")),
    ))
}

/// Collects each check's refusal, so a request learns every one at once.
fn collect<T>(outcome: Result<T, FieldError>, refusals: &mut Vec<FieldError>) -> Option<T> {
    outcome.map_err(|error| refusals.push(error)).ok()
}

fn view(row: WebhookRow) -> Webhook {
    Webhook {
        events: row.events.split(',').filter(|event| !event.is_empty()).map(str::to_string).collect(),
        enabled: row.enabled == 1,
        disabled_reason: row.disabled_reason.filter(|_| row.enabled == 0),
        created: row.created_at,
        id: row.id,
        url: row.url,
        description: row.description,
    }
}

impl Webhooks {
    /// The service with its worker and the follower of `live`'s events, delivering as
    /// `settings` say.
    pub fn start(pool: Pool, live: &LiveHub, settings: WebhookSettings) -> Self {
        let client = crate::outbound::client_builder()
            // A redirect could lead a delivery anywhere, past the URL's checks: it counts as a failure.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_else(|err| {
                tracing::error!(%err, "the webhook client could not be built as configured; using the default");
                reqwest::Client::new()
            });
        let enabled = Kept::new("webhooks", live.signals());
        let inner = Inner { pool, client, settings, wake: Arc::new(Notify::new()), enabled };
        let webhooks = Self { inner: Arc::new(inner) };
        tokio::spawn(deliver::follow(webhooks.clone(), live.follow("webhooks", deliver::wanted)));
        tokio::spawn(deliver::work(webhooks.clone()));
        webhooks
    }

    pub async fn list(&self, user_id: &str) -> AppResult<WebhookList> {
        let rows = store::webhooks_of(&self.inner.pool, user_id).await?;
        Ok(WebhookList { webhooks: rows.into_iter().map(view).collect() })
    }

    /// Registers a webhook; its secret is in the answer and nowhere else.
    pub async fn create(&self, user_id: &str, new: &NewWebhook) -> AppResult<Result<WebhookWithSecret, Refusal>> {
        let mut refusals = Vec::new();
        let url = collect(check_url(&new.url), &mut refusals);
        let description = collect(check_description(new.description.as_deref().unwrap_or_default()), &mut refusals);
        let all = WEBHOOK_EVENTS.map(str::to_string).to_vec();
        let events = collect(check_events(new.events.as_ref().unwrap_or(&all)), &mut refusals);
        let (Some(url), Some(description), Some(events)) = (url, description, events) else {
            return Ok(Err(Refusal::Fields(refusals)));
        };
        let pool = &self.inner.pool;
        let secret = sign::new_secret()?;
        let row = WebhookRow {
            id: new_id(),
            user_id: user_id.to_string(),
            url,
            description,
            events,
            secret: secret.clone(),
            enabled: 1,
            disabled_reason: None,
            created_at: String::new(),
        };
        if !store::insert_webhook(pool, &row, i64::try_from(MAX_WEBHOOKS).unwrap_or(i64::MAX)).await? {
            return Ok(Err(Refusal::TooMany));
        }
        self.inner.enabled.changed(user_id).await;
        let Some(stored) = store::webhook(pool, user_id, &row.id).await? else { return Ok(Err(Refusal::NotFound)) };
        Ok(Ok(WebhookWithSecret { webhook: view(stored), secret }))
    }

    /// Changes what `change` names of one of the user's webhooks.
    pub async fn update(&self, user_id: &str, id: &str, change: &WebhookChange) -> AppResult<Result<Webhook, Refusal>> {
        let pool = &self.inner.pool;
        let Some(mut row) = store::webhook(pool, user_id, id).await? else { return Ok(Err(Refusal::NotFound)) };
        let mut refusals = Vec::new();
        if let Some(url) = change.url.as_deref().and_then(|url| collect(check_url(url), &mut refusals)) {
            row.url = url;
        }
        if let Some(text) =
            change.description.as_deref().and_then(|text| collect(check_description(text), &mut refusals))
        {
            row.description = text;
        }
        if let Some(events) = change.events.as_deref().and_then(|events| collect(check_events(events), &mut refusals)) {
            row.events = events;
        }
        if !refusals.is_empty() {
            return Ok(Err(Refusal::Fields(refusals)));
        }
        if let Some(enabled) = change.enabled {
            row.enabled = i32::from(enabled);
        }
        store::update_webhook(pool, &row).await?;
        self.inner.enabled.changed(user_id).await;
        self.inner.wake.notify_one(); // enabled again: its pending deliveries are due
        let Some(stored) = store::webhook(pool, user_id, id).await? else { return Ok(Err(Refusal::NotFound)) };
        Ok(Ok(view(stored)))
    }

    /// Forgets what was kept of an account just deleted.
    pub async fn account_deleted(&self, user_id: &str) {
        self.inner.enabled.changed(user_id).await;
    }

    /// Removes one of the user's webhooks with its deliveries.
    pub async fn remove(&self, user_id: &str, id: &str) -> AppResult<Result<(), Refusal>> {
        let removed = store::remove_webhook(&self.inner.pool, user_id, id).await?;
        self.inner.enabled.changed(user_id).await;
        Ok(if removed { Ok(()) } else { Err(Refusal::NotFound) })
    }

    /// Gives one of the user's webhooks a new secret, shown this once; the old one signs nothing more.
    pub async fn rotate_secret(&self, user_id: &str, id: &str) -> AppResult<Result<WebhookWithSecret, Refusal>> {
        let pool = &self.inner.pool;
        let secret = sign::new_secret()?;
        if !store::set_secret(pool, user_id, id, &secret).await? {
            return Ok(Err(Refusal::NotFound));
        }
        let Some(stored) = store::webhook(pool, user_id, id).await? else { return Ok(Err(Refusal::NotFound)) };
        Ok(Ok(WebhookWithSecret { webhook: view(stored), secret }))
    }

    /// One of the user's webhook's recent deliveries, newest first.
    pub async fn deliveries(&self, user_id: &str, id: &str) -> AppResult<Result<WebhookDeliveries, Refusal>> {
        let pool = &self.inner.pool;
        if store::webhook(pool, user_id, id).await?.is_none() {
            return Ok(Err(Refusal::NotFound));
        }
        let rows = store::deliveries_of(pool, id, DELIVERIES_LISTED).await?;
        let deliveries = rows
            .into_iter()
            .map(|row| {
                let status = match row.status.as_str() {
                    "delivered" => DeliveryStatus::Delivered,
                    "failed" => DeliveryStatus::Failed,
                    _ => DeliveryStatus::Pending,
                };
                WebhookDelivery {
                    next_attempt_at: (status == DeliveryStatus::Pending).then_some(row.next_attempt_at),
                    id: row.id,
                    event_id: row.event_id,
                    event: row.event_type,
                    status,
                    attempts: i64::from(row.attempts),
                    last_status: row.last_status.map(i64::from),
                    last_error: row.last_error,
                    created: row.created_at,
                }
            })
            .collect();
        Ok(Ok(WebhookDeliveries { deliveries }))
    }

    /// Queues a `ping` delivery to one of the user's webhooks; returns the delivery's id.
    pub async fn ping(&self, user_id: &str, id: &str) -> AppResult<Result<String, Refusal>> {
        let pool = &self.inner.pool;
        if store::webhook(pool, user_id, id).await?.is_none() {
            return Ok(Err(Refusal::NotFound));
        }
        let event_id = new_id();
        let body = payload::ping(&event_id, store::now(pool).await?)?;
        let delivery_id = new_id();
        let delivery = store::NewDelivery {
            id: delivery_id.clone(),
            webhook_id: id,
            event_id: &event_id,
            event_type: PING,
            payload: &body,
        };
        store::queue(pool, &[delivery]).await?;
        self.inner.wake.notify_one();
        Ok(Ok(delivery_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_https_or_http_on_a_loopback_address() {
        assert!(check_url("https://bridge.example.com/palaver").is_ok());
        assert!(check_url("http://127.0.0.1:8080/hook").is_ok());
        assert!(check_url("http://[::1]/hook").is_ok());
        for bad in
            ["ftp://example.com/x", "http://example.com/hook", "not a url", "https://", "https://u:p@example.com/"]
        {
            let error = check_url(bad).unwrap_err();
            assert_eq!((error.path.as_str(), error.code.as_str()), ("url", "INVALID_URL"), "{bad}");
        }
    }

    #[test]
    fn events_are_known_and_kept_in_order() {
        let events = |list: &[&str]| check_events(&list.iter().map(|event| event.to_string()).collect::<Vec<_>>());
        assert_eq!(events(&["turn.done", "ask.created"]).unwrap(), "ask.created,turn.done");
        assert_eq!(events(&["ask.created", "ask.bogus"]).unwrap_err().path, "events[1]");
        assert_eq!(events(&[]).unwrap_err().path, "events");
    }
}
