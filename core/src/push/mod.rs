//! Web Push: Palaver is its own application server (RFC 8030 delivery, RFC 8291 `aes128gcm`
//! through web-push-native, RFC 8292 VAPID). A person subscribes each device; when an ask is
//! made for them, each device gets one notification, unless a tab of theirs shows that
//! conversation and is visible; a simple card of at most two buttons answers from the
//! notification through single-use capabilities (`crate::answer_links`, `POST /push/answer`);
//! an ask that ends closes its notifications. Pushes go out from a task of their own that
//! follows the live hub's events (`deliver`), so no turn waits for a push service or fails
//! with one.

mod deliver;
pub mod message;
mod nudges;
pub mod settings;
pub mod store;
pub mod vapid;

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use tokio::sync::OnceCell;

use crate::db::{Pool, new_id};
use crate::error::{AppError, AppResult, FieldError};
use crate::kept::Kept;
use crate::live::LiveHub;
pub use nudges::NudgeSchedule;
use palaver_wire::approvers::{Approver, RoutedApproval};
use palaver_wire::push::{NewPushSubscription, NotificationSettings, Presence, PushDevice, PushDevices};
use settings::CheckedSettings;
use store::SubscriptionRow;
use vapid::VapidKeys;

/// The longest name a device may have.
const NAME_MAX_CHARS: usize = 80;

/// The longest endpoint Palaver keeps (push services' are far shorter).
const ENDPOINT_MAX_CHARS: usize = 2048;

/// The longest tab id a presence may carry.
const TAB_ID_MAX_CHARS: usize = 64;

/// The name of a device its person did not name.
const UNNAMED_DEVICE: &str = "This device";

/// How a deployment pushes.
pub struct PushConfig {
    /// The VAPID subject (RFC 8292 §2.1): a `mailto:` or `https:` URL a push service may write
    /// to about this server's pushes.
    pub contact: String,
    /// When an unanswered ask is pushed again.
    pub nudges: NudgeSchedule,
}

/// The VAPID subject of a deployment that names none: a push service may refuse it.
pub const PLACEHOLDER_CONTACT: &str = "mailto:push@palaver.invalid";

/// The re-nudges of a deployment that configures none: 10 minutes and an hour after the ask,
/// and an hour before it expires.
pub const DEFAULT_NUDGES: &str = "10m,1h,-1h";

impl Default for PushConfig {
    fn default() -> Self {
        let nudges = DEFAULT_NUDGES.parse().unwrap_or_else(|err| {
            tracing::error!(%err, "the default re-nudges do not parse; none are sent");
            NudgeSchedule::default()
        });
        Self { contact: PLACEHOLDER_CONTACT.to_string(), nudges }
    }
}

/// The push service: cloning shares it.
#[derive(Clone)]
pub struct Push {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    keys: OnceCell<VapidKeys>,
    client: reqwest::Client,
    /// The VAPID `sub`: whom a push service may write to about this server's pushes.
    contact: String,
    /// When an unanswered ask is pushed again.
    nudges: NudgeSchedule,
    /// Each user's devices, which every ask of theirs looks at.
    devices: Kept<Vec<SubscriptionRow>>,
    /// Whether anyone has a device (under the key `""`): while nobody has, an ask costs push
    /// nothing.
    any_device: Kept<bool>,
}

/// A subscription whose endpoint and keys were checked.
pub struct CheckedSubscription(SubscriptionRow);

fn refusal(path: &str, code: &str, message: &str, fix: &str) -> FieldError {
    FieldError { code: code.into(), fix: fix.into(), message: message.into(), path: path.into() }
}

/// A device's name as kept: trimmed, not empty, at most [`NAME_MAX_CHARS`] characters.
pub fn device_name(name: &str) -> Result<String, FieldError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > NAME_MAX_CHARS {
        return Err(refusal(
            "name",
            "INVALID_NAME",
            "The device name is empty or too long.",
            &format!("Give the device a name of 1 to {NAME_MAX_CHARS} characters."),
        ));
    }
    Ok(name.to_string())
}

/// The bytes of a key as browsers send it: base64url, padded or not.
fn key_bytes(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

/// Checks a browser's subscription: every refusal at once, each with its path.
pub fn check_subscription(new: &NewPushSubscription) -> Result<CheckedSubscription, Vec<FieldError>> {
    let mut refusals = Vec::new();
    let endpoint = url::Url::parse(&new.endpoint).ok().filter(|endpoint| endpoint.host().is_some());
    if new.endpoint.len() > ENDPOINT_MAX_CHARS || !endpoint.as_ref().is_some_and(crate::outbound::https_or_loopback) {
        refusals.push(refusal(
            "endpoint",
            "INVALID_ENDPOINT",
            "The endpoint is not an https URL (http is allowed only on a loopback address).",
            "Send the endpoint of the browser's PushSubscription as it gave it.",
        ));
    }
    let point = key_bytes(&new.keys.p256dh)
        .filter(|bytes| bytes.len() == 65 && bytes[0] == 4)
        .filter(|bytes| web_push_native::p256::PublicKey::from_sec1_bytes(bytes).is_ok());
    if point.is_none() {
        refusals.push(refusal(
            "keys.p256dh",
            "INVALID_KEY",
            "keys.p256dh is not an uncompressed P-256 public key (65 bytes, base64url).",
            "Send keys.p256dh from the browser's PushSubscription.toJSON().",
        ));
    }
    if key_bytes(&new.keys.auth).is_none_or(|bytes| bytes.len() != 16) {
        refusals.push(refusal(
            "keys.auth",
            "INVALID_AUTH",
            "keys.auth is not a 16-byte secret in base64url.",
            "Send keys.auth from the browser's PushSubscription.toJSON().",
        ));
    }
    let name = match new.name.as_deref() {
        Some(name) => device_name(name).map_err(|error| refusals.push(error)).ok(),
        None => Some(UNNAMED_DEVICE.to_string()),
    };
    match (refusals.is_empty(), point, name) {
        (true, Some(point), Some(name)) => Ok(CheckedSubscription(SubscriptionRow {
            id: new_id(),
            endpoint: new.endpoint.clone(),
            p256dh: URL_SAFE_NO_PAD.encode(point),
            auth: new.keys.auth.trim_end_matches('=').to_string(),
            name,
            created_at: String::new(),
        })),
        _ => Err(refusals),
    }
}

fn bad_request(error: FieldError) -> crate::error::Error {
    crate::error::Error::new(AppError::BadRequest(format!("{} {}", error.message, error.fix)))
}

impl Push {
    /// The service, sending from its own task the pushes `live` events call for, and from
    /// another the re-nudges and the summaries after quiet hours.
    pub fn start(pool: Pool, live: &LiveHub, config: PushConfig) -> Self {
        let client = crate::outbound::client_builder()
            .timeout(std::time::Duration::from_secs(30))
            .build()
            .unwrap_or_else(|err| {
                tracing::error!(%err, "the push client could not be built as configured; using the default");
                reqwest::Client::new()
            });
        let PushConfig { contact, nudges } = config;
        let (devices, any_device) = (Kept::new("devices", live.signals()), Kept::new("any_device", live.signals()));
        let inner = Inner { pool, keys: OnceCell::new(), client, contact, nudges, devices, any_device };
        let push = Self { inner: Arc::new(inner) };
        tokio::spawn(deliver::follow(push.clone(), live.follow("push", deliver::wanted)));
        tokio::spawn(nudges::keep_nudging(push.clone()));
        push
    }

    /// The person's notification settings (the defaults when they saved none).
    pub async fn notification_settings(&self, user_id: &str) -> AppResult<NotificationSettings> {
        settings::read(&self.inner.pool, user_id).await
    }

    /// Saves the person's checked notification settings (see [`settings::check_settings`]).
    pub async fn save_notification_settings(&self, user_id: &str, checked: &CheckedSettings) -> AppResult<()> {
        settings::save(&self.inner.pool, user_id, checked).await
    }

    /// The deployment's key pair: made and stored by the first instance that needs it, read
    /// by every other.
    async fn keys(&self) -> AppResult<&VapidKeys> {
        self.inner
            .keys
            .get_or_try_init(|| async {
                let pool = &self.inner.pool;
                if store::vapid_key(pool).await?.is_none() {
                    let made = VapidKeys::generate()?;
                    store::offer_vapid_key(pool, &made, VapidKeys::from_text(&made)?.public_key()).await?;
                }
                let stored = store::vapid_key(pool).await?.ok_or(AppError::Internal)?;
                VapidKeys::from_text(&stored)
            })
            .await
    }

    /// The VAPID public key, for `applicationServerKey`.
    pub async fn public_key(&self) -> AppResult<String> {
        Ok(self.keys().await?.public_key().to_string())
    }

    /// Stores a device's subscription; returns its id.
    pub async fn subscribe(&self, user_id: &str, checked: CheckedSubscription) -> AppResult<String> {
        let id = store::save_subscription(&self.inner.pool, user_id, &checked.0).await?;
        self.devices_changed(user_id).await;
        Ok(id)
    }

    /// Forgets what was kept of `user_id`'s devices (and whether anyone has one).
    async fn devices_changed(&self, user_id: &str) {
        self.inner.devices.changed(user_id).await;
        self.inner.any_device.changed("").await;
    }

    /// Whether anyone on this server has a device to push to.
    async fn anyone_has_a_device(&self) -> AppResult<bool> {
        self.inner.any_device.read("", || store::any_subscription(&self.inner.pool)).await
    }

    /// Forgets what was kept of an account just deleted.
    pub async fn account_deleted(&self, user_id: &str) {
        self.devices_changed(user_id).await;
    }

    /// The devices a push to `user_id` goes to.
    async fn devices_of(&self, user_id: &str) -> AppResult<Vec<SubscriptionRow>> {
        let pool = &self.inner.pool;
        self.inner.devices.read(user_id, || store::subscriptions_of(pool, user_id)).await
    }

    /// Forgets a device its push service says is gone.
    async fn forget_device(&self, id: &str) -> AppResult<()> {
        if let Some(owner) = store::forget_subscription(&self.inner.pool, id).await? {
            self.devices_changed(&owner).await;
        }
        Ok(())
    }

    pub async fn devices(&self, user_id: &str) -> AppResult<PushDevices> {
        let rows = store::subscriptions_of(&self.inner.pool, user_id).await?;
        let devices = rows
            .into_iter()
            .map(|row| PushDevice {
                service: url::Url::parse(&row.endpoint)
                    .ok()
                    .and_then(|endpoint| endpoint.host_str().map(str::to_string))
                    .unwrap_or_default(),
                id: row.id,
                name: row.name,
                endpoint: row.endpoint,
                created: row.created_at,
            })
            .collect();
        Ok(PushDevices { devices })
    }

    /// Renames one of the user's devices; false when they have none by that id.
    pub async fn rename(&self, user_id: &str, id: &str, name: &str) -> AppResult<bool> {
        let name = device_name(name).map_err(bad_request)?;
        let renamed = store::rename_subscription(&self.inner.pool, user_id, id, &name).await?;
        self.inner.devices.changed(user_id).await;
        Ok(renamed)
    }

    /// Removes one of the user's devices; false when they have none by that id.
    pub async fn remove(&self, user_id: &str, id: &str) -> AppResult<bool> {
        let removed = store::remove_subscription(&self.inner.pool, user_id, id).await?;
        self.devices_changed(user_id).await;
        Ok(removed)
    }

    /// Records what one of the user's tabs shows.
    pub async fn set_presence(&self, user_id: &str, presence: &Presence) -> AppResult<()> {
        let tab = presence.tab_id.trim();
        if tab.is_empty() || tab.chars().count() > TAB_ID_MAX_CHARS {
            return Err(bad_request(refusal(
                "tabId",
                "INVALID_TAB",
                "The tab id is empty or too long.",
                &format!("Send the tab's own id of 1 to {TAB_ID_MAX_CHARS} characters."),
            )));
        }
        store::set_presence(&self.inner.pool, user_id, tab, presence.history_id.as_deref()).await
    }
}

/// Who answers an ask of `owner_id`'s: the owner, or the approvers an admin routed an approval
/// to (but the first, under the two-person rule, once they approved) — the people its
/// notifications and mails go to.
pub async fn answerers(pool: &Pool, owner_id: &str, routed: Option<&RoutedApproval>) -> AppResult<Vec<String>> {
    let Some(routed) = routed else { return Ok(vec![owner_id.to_string()]) };
    let approvers = match &routed.approver {
        Approver::User { id, .. } => vec![id.clone()],
        Approver::Admins => store::admins_but(pool, owner_id).await?,
    };
    Ok(approvers.into_iter().filter(|id| routed.first_approver.as_ref() != Some(id)).collect())
}
