//! Web Push in the browser: the service worker at the site root (`/sw.js`), the permission to
//! notify, this device's push subscription, and whether the page is visible (for the tab's
//! presence).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{NotificationPermission, PushManager, PushSubscription, PushSubscriptionOptionsInit, VisibilityState};

/// The service worker's script, served at the root so its scope is the whole site.
const WORKER: &str = "/sw.js";

/// Whether this browser can get push notifications here (a secure context with a service
/// worker, push and notifications).
pub fn push_supported() -> bool {
    let global = js_sys::global();
    let has = |name: &str| js_sys::Reflect::has(&global, &name.into()).unwrap_or(false);
    let navigator = leptos::prelude::window().navigator();
    let workers = js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    leptos::prelude::window().is_secure_context() && workers && has("PushManager") && has("Notification")
}

fn failure(what: &str) -> impl Fn(JsValue) -> String + '_ {
    move |error| {
        let reason = js_sys::Reflect::get(&error, &"message".into()).ok().and_then(|message| message.as_string());
        match reason {
            Some(reason) => format!("{what}: {reason}"),
            None => format!("{what}."),
        }
    }
}

/// The push manager of the worker's registration, registering the worker first.
async fn push_manager() -> Result<PushManager, String> {
    let workers = leptos::prelude::window().navigator().service_worker();
    JsFuture::from(workers.register(WORKER)).await.map_err(failure("The service worker could not be registered"))?;
    let ready = workers.ready().map_err(failure("The service worker is not available"))?;
    let registration: web_sys::ServiceWorkerRegistration =
        JsFuture::from(ready).await.map_err(failure("The service worker did not start"))?.unchecked_into();
    registration.push_manager().map_err(failure("This browser has no push service"))
}

async fn current_subscription() -> Result<Option<PushSubscription>, String> {
    let manager = push_manager().await?;
    let promise = manager.get_subscription().map_err(failure("The subscription could not be read"))?;
    let found = JsFuture::from(promise).await.map_err(failure("The subscription could not be read"))?;
    Ok(found.dyn_into::<PushSubscription>().ok())
}

/// The endpoint this device is subscribed with, if it is (registers the worker).
pub async fn this_push_endpoint() -> Option<String> {
    if !push_supported() {
        return None;
    }
    current_subscription().await.ok().flatten().map(|subscription| subscription.endpoint())
}

/// Asks the person's permission, then subscribes this device with the server's key (base64url);
/// returns the subscription as `PushSubscription.toJSON()` writes it.
pub async fn subscribe_push(server_key: &str) -> Result<String, String> {
    let asked = web_sys::Notification::request_permission().map_err(failure("Notifications are not available"))?;
    JsFuture::from(asked).await.map_err(failure("Notifications are not available"))?;
    if web_sys::Notification::permission() != NotificationPermission::Granted {
        return Err("Notifications are blocked for this site: allow them in the browser's site settings.".into());
    }
    let key = base64url_bytes(server_key).ok_or("The server's key could not be read.")?;
    let options = PushSubscriptionOptionsInit::new();
    options.set_user_visible_only(true);
    options.set_application_server_key(&js_sys::Uint8Array::from(key.as_slice()).into());
    let manager = push_manager().await?;
    let promise = manager.subscribe_with_options(&options).map_err(failure("This device could not subscribe"))?;
    let subscription = JsFuture::from(promise).await.map_err(failure("This device could not subscribe"))?;
    let json = js_sys::JSON::stringify(&subscription).map_err(failure("The subscription could not be read"))?;
    json.as_string().ok_or_else(|| "The subscription could not be read.".into())
}

/// Ends this device's subscription; returns the endpoint it had, if it had one.
pub async fn unsubscribe_push() -> Result<Option<String>, String> {
    let Some(subscription) = current_subscription().await? else { return Ok(None) };
    let promise = subscription.unsubscribe().map_err(failure("This device could not unsubscribe"))?;
    JsFuture::from(promise).await.map_err(failure("This device could not unsubscribe"))?;
    Ok(Some(subscription.endpoint()))
}

fn base64url_bytes(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

/// A name for this device from its browser and system ("Firefox on Linux").
pub fn device_name_guess() -> String {
    let agent = leptos::prelude::window().navigator().user_agent().unwrap_or_default();
    let browser =
        [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
            .into_iter()
            .find(|(mark, _)| agent.contains(mark))
            .map_or("A browser", |(_, name)| name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .into_iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| name);
    match system {
        Some(system) => format!("{browser} on {system}"),
        None => browser.to_string(),
    }
}

/// A random id for this tab's presence.
pub fn new_tab_id() -> String {
    format!(
        "{:016x}{:016x}",
        (js_sys::Math::random() * 2f64.powi(53)) as u64,
        (js_sys::Math::random() * 2f64.powi(53)) as u64
    )
}

/// Whether the page is visible (not a background tab, not minimised).
pub fn page_visible() -> bool {
    leptos::prelude::document().visibility_state() == VisibilityState::Visible
}

/// Calls `on_change` whenever the page is shown or hidden, for as long as the page lives (the
/// app's presence, which is never unmounted, listens).
pub fn on_visibility_change(on_change: impl Fn() + 'static) {
    let listener = Closure::<dyn Fn()>::new(on_change);
    let document = leptos::prelude::document();
    let _ = document.add_event_listener_with_callback("visibilitychange", listener.as_ref().unchecked_ref());
    listener.forget();
}
