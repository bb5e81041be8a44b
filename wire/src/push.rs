//! Web Push (Palaver's addition): the bodies of `/push/*`, and the message a push carries to
//! the service worker (`public/sw.js`), encrypted for the device it goes to.

use serde::{Deserialize, Serialize};

/// `GET /push/key`: the key a browser subscribes with (`applicationServerKey`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushKey {
    /// The VAPID public key: the uncompressed P-256 point, base64url without padding.
    pub public_key: String,
}

/// The keys of a browser's `PushSubscription`, base64url as `toJSON()` gives them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushSubscriptionKeys {
    /// The device's P-256 public key (65 bytes once decoded).
    pub p256dh: String,
    /// The device's authentication secret (16 bytes once decoded).
    pub auth: String,
}

/// `POST /push/subscriptions`: a browser's `PushSubscription.toJSON()`, and a name for the device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewPushSubscription {
    /// The push service's URL for this device: https (http only on a loopback address).
    pub endpoint: String,
    pub keys: PushSubscriptionKeys,
    /// What the browser says of the subscription's end (read and ignored: a dead endpoint is
    /// removed when its push service answers 404 or 410).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expiration_time: Option<f64>,
    /// The device's name as its person reads it ("Firefox on Linux"); absent: "This device".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `PATCH /push/subscriptions/{id}`: a device's new name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RenamePushSubscription {
    pub name: String,
}

/// A device that gets notifications, as its person sees it (never its keys).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushDevice {
    pub id: String,
    pub name: String,
    /// The push service's host (`fcm.googleapis.com`, `updates.push.services.mozilla.com`, …).
    pub service: String,
    /// The endpoint itself, so a browser can tell which entry is its own subscription.
    pub endpoint: String,
    pub created: String,
}

/// `GET /push/subscriptions`: the caller's devices, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushDevices {
    pub devices: Vec<PushDevice>,
}

/// `POST /push/subscriptions`'s answer (201).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushSubscribed {
    pub id: String,
}

/// `PUT /push/presence`: what one tab of the caller shows. While a tab shows a conversation and
/// is visible, that conversation's asks send no push; a presence lasts
/// [`PRESENCE_SECONDS`] unless the tab sends it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Presence {
    /// The tab's own random id (at most 64 characters).
    pub tab_id: String,
    /// The conversation the tab shows while visible; absent when hidden or elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
}

/// How long a presence counts without being sent again.
pub const PRESENCE_SECONDS: i64 = 60;

/// How often a visible tab sends its presence again.
pub const PRESENCE_REFRESH_SECONDS: u32 = 30;

/// `POST /push/answer`: a notification's button, by the capability its push carried.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushAnswer {
    pub token: String,
}

/// `POST /push/answer`'s answer: the ask it answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushAnswered {
    pub history_id: String,
    pub tool_call_id: String,
    pub button_id: String,
}

/// What a push carries to the service worker, as JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PushMessage {
    /// Show a notification for a new ask.
    Ask(AskNotification),
    /// The ask ended (answered anywhere, cancelled or expired): close its notification.
    Closed(ClosedNotification),
    /// What waits for the person after their quiet hours held pushes back.
    Summary(SummaryNotification),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskNotification {
    /// The notification's tag: the ask's id, so a later push for it replaces or closes it.
    pub tag: String,
    /// The conversation's title.
    pub title: String,
    /// The question, then how long is left to answer it.
    pub body: String,
    /// The page the notification opens: the conversation.
    pub url: String,
    /// The buttons it answers with, at most two; none when the card needs more (or the ask
    /// is a destructive approval): then it only opens the conversation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<NotificationAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

/// One button of a notification, with the single-use capability that answers it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationAction {
    /// The notification action's id: the simple card's button id.
    pub action: String,
    pub title: String,
    /// Sent as `POST /push/answer` `{token}`.
    pub token: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClosedNotification {
    pub tag: String,
}

/// The one notification after quiet hours: how many asks wait, opening Palaver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryNotification {
    pub tag: String,
    pub title: String,
    pub body: String,
    pub url: String,
}

/// A person's notification settings (`GET` / `PUT /push/settings`), for all their devices.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NotificationSettings {
    /// Hours in which no push goes out; one summary follows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet_hours: Option<QuietHours>,
    /// No approval is answered from a notification: each only opens Palaver. (Destructive
    /// approvals never are, whatever this says.)
    #[serde(default)]
    pub approvals_open_only: bool,
    /// The tools whose approvals only open Palaver, by name.
    #[serde(default)]
    pub open_only_tools: Vec<String>,
}

/// A daily span of quiet in the person's own time zone: `from` 22:00 `until` 07:00 spans
/// midnight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct QuietHours {
    /// `HH:MM`, 24-hour.
    pub from: String,
    /// `HH:MM`, 24-hour: the first minute that is not quiet.
    pub until: String,
    /// An IANA time zone name, as the browser tells it (`Europe/Berlin`).
    pub time_zone: String,
}
