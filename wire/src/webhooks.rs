//! Outgoing webhooks (Palaver's addition): the bodies of `/webhooks/*`, and what each delivery
//! posts to a webhook's URL (`WebhookPayload`), signed with the webhook's secret:
//! `Palaver-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.

use palaver_contract::asks::{AskKind, SimpleCard};
use serde::{Deserialize, Serialize};

/// A new ask was made in one of the person's conversations.
pub const ASK_CREATED: &str = "ask.created";
/// An ask ended: answered (anywhere), cancelled or expired.
pub const ASK_RESOLVED: &str = "ask.resolved";
/// A turn of one of the person's conversations finished (paused on an ask, or done).
pub const TURN_DONE: &str = "turn.done";
/// A test delivery, queued by `POST /webhooks/{id}/test`; every webhook gets it.
pub const PING: &str = "ping";

/// The events a webhook may ask for (a new webhook wants all of them).
pub const WEBHOOK_EVENTS: [&str; 3] = [ASK_CREATED, ASK_RESOLVED, TURN_DONE];

/// At most this many webhooks per person.
pub const MAX_WEBHOOKS: usize = 10;

/// `POST /webhooks`: a new webhook.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewWebhook {
    /// Where deliveries are posted: https (http only on a loopback address).
    pub url: String,
    /// What it is for, as its person reads it (at most 200 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The events it wants (`ask.created`, `ask.resolved`, `turn.done`); absent: all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<String>>,
}

/// `PATCH /webhooks/{id}`: what changes; what is absent stays. Enabling a webhook that was
/// disabled after failures resumes its pending deliveries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookChange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// A webhook as its person sees it (never its secret).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhook {
    pub id: String,
    pub url: String,
    pub description: String,
    pub events: Vec<String>,
    pub enabled: bool,
    /// Why the server disabled it (its deliveries failed too many times in a row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_reason: Option<String>,
    pub created: String,
}

/// `GET /webhooks`: the caller's webhooks, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Webhooks {
    pub webhooks: Vec<Webhook>,
}

/// `POST /webhooks` (201) and `POST /webhooks/{id}/secret`: the webhook and its secret, shown
/// this once (256 random bits, base64url).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookWithSecret {
    pub webhook: Webhook,
    pub secret: String,
}

/// Where a delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum DeliveryStatus {
    /// Not yet delivered: due at `nextAttemptAt` (held while its webhook is disabled).
    Pending,
    /// Its URL answered 2xx.
    Delivered,
    /// Every attempt failed; no more are made.
    Failed,
}

/// One delivery of one event to one webhook.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDelivery {
    /// The `Palaver-Delivery` header: the same on every attempt, so a receiver dedupes on it.
    pub id: String,
    /// The event's id (the payload's `id`).
    pub event_id: String,
    /// The event's type (`ask.created`, …, `ping`).
    pub event: String,
    pub status: DeliveryStatus,
    pub attempts: i64,
    /// The HTTP status of the last attempt, when one came back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_status: Option<i64>,
    /// Why the last attempt failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// When the next attempt is due (pending deliveries only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_attempt_at: Option<String>,
    pub created: String,
}

/// `GET /webhooks/{id}/deliveries`: the webhook's recent deliveries, newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDeliveries {
    pub deliveries: Vec<WebhookDelivery>,
}

/// `POST /webhooks/{id}/test` (202): the `ping` delivery queued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookPingQueued {
    pub delivery_id: String,
}

/// What a delivery posts: `{id, type, createdAt, data}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookPayload {
    /// The event's id: the same in the deliveries of one event to several webhooks.
    pub id: String,
    /// `ask.created`, `ask.resolved`, `turn.done` or `ping`.
    #[serde(rename = "type")]
    pub event_type: String,
    pub created_at: String,
    pub data: WebhookData,
}

/// The event's data: the conversation it happened in, and what happened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookData {
    /// Absent on `ping`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation: Option<WebhookConversation>,
    /// `ask.created`: the ask as the headless API shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<WebhookAsk>,
    /// `ask.created`: how to answer it through the headless API (a bearer token of the person's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<WebhookAnswerLinks>,
    /// `ask.resolved`: how the ask ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<WebhookResolved>,
    /// `turn.done`: the ask the turn paused on, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_ask: Option<String>,
}

/// The conversation an event happened in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookConversation {
    pub id: String,
    /// Unset until the first reply names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// An ask as `GET /gpt/histories/pendingAsks` shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookAsk {
    pub tool_call_id: String,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::ask_kind))]
    pub kind: AskKind,
    /// The question, as its simple card words it.
    pub prompt: String,
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::openapi::simple_card))]
    pub simple: SimpleCard,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// The headless API's URLs for an ask: absolute on `PALAVER_PUBLIC_URL`, relative without it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookAnswerLinks {
    /// `POST` here `{toolCallId, buttonId}` (a simple card's button) or `{askResponse}`.
    pub turn: String,
    /// `POST` here `{answers: [{historyId, toolCallId, buttonId}]}` to answer several at once.
    pub batch: String,
    /// `GET`: every pending ask of the person's.
    pub pending_asks: String,
    /// The conversation in the browser.
    pub open: String,
}

/// How an ask ended, as the live `askResolved` event says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookResolved {
    pub tool_call_id: String,
    /// `answered`, `cancelled` or `expired`.
    pub ending: String,
    /// The answer's action (`accept`, `decline`, `cancel`).
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
