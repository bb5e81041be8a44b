//! Settings' "Notifications on this device": a switch that subscribes this browser (the
//! service worker, the permission, the server's key, then the subscription posted with the
//! device's name) or ends its subscription, and the devices that get notifications, each
//! renamed or removed here.

use leptos::prelude::*;

use crate::components::ErrorLine;
use crate::{browser, http};
use palaver_wire::push::{
    NewPushSubscription, PushDevice, PushDevices, PushKey, PushSubscribed, RenamePushSubscription,
};

/// Subscribes this device and stores the subscription as `name`; returns its endpoint.
async fn turn_on(name: String) -> Result<String, String> {
    let key: PushKey = http::get("/push/key").await?;
    let json = browser::subscribe_push(&key.public_key).await?;
    let mut subscription: NewPushSubscription =
        serde_json::from_str(&json).map_err(|err| format!("The browser's subscription could not be read: {err}."))?;
    subscription.name = Some(name).filter(|name| !name.trim().is_empty());
    let _: PushSubscribed = http::send("POST", "/push/subscriptions", &subscription).await?;
    Ok(subscription.endpoint)
}

async fn remove_device(id: &str) -> Result<(), String> {
    browser::request("DELETE", &format!("/push/subscriptions/{id}"), None).await
}

/// Ends this device's subscription, and the server's record of it.
async fn turn_off(devices: Vec<PushDevice>) -> Result<(), String> {
    let Some(endpoint) = browser::unsubscribe_push().await? else { return Ok(()) };
    match devices.iter().find(|device| device.endpoint == endpoint) {
        Some(device) => remove_device(&device.id).await,
        None => Ok(()),
    }
}

#[component]
pub fn PushSection() -> impl IntoView {
    let supported = RwSignal::new(false);
    let devices = RwSignal::new(Vec::<PushDevice>::new());
    let this_endpoint = RwSignal::new(None::<String>);
    let name = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let reload = move || {
        leptos::task::spawn_local(async move {
            match http::get::<PushDevices>("/push/subscriptions").await {
                Ok(list) => devices.set(list.devices),
                Err(err) => error.set(Some(err)),
            }
        });
    };
    Effect::new(move |_| {
        supported.set(browser::push_supported());
        name.set(browser::device_name_guess());
        reload();
        leptos::task::spawn_local(async move { this_endpoint.set(browser::this_push_endpoint().await) });
    });
    let on = Memo::new(move |_| {
        this_endpoint.get().is_some_and(|endpoint| devices.read().iter().any(|device| device.endpoint == endpoint))
    });
    let toggle = move |_| {
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        error.set(None);
        let turning_on = !on.get_untracked();
        leptos::task::spawn_local(async move {
            let outcome = if turning_on {
                turn_on(name.get_untracked()).await.map(Some)
            } else {
                turn_off(devices.get_untracked()).await.map(|()| None)
            };
            match outcome {
                Ok(endpoint) => this_endpoint.set(endpoint),
                Err(err) => error.set(Some(err)),
            }
            reload();
            busy.set(false);
        });
    };
    view! {
        <section aria-labelledby="push-heading" data-testid="push">
            <h2 id="push-heading">"Notifications"</h2>
            <p>
                "Get a notification on a device when Palaver asks you something, unless a tab of yours shows that conversation. A yes-or-no question can be answered from the notification itself."
            </p>
            <ErrorLine message=error />
            <Show when=move || !supported.get()>
                <p data-testid="push-unsupported">
                    "This browser cannot get notifications here (it needs a secure connection, a service worker and push)."
                </p>
            </Show>
            <label>
                "Name of this device"
                <input
                    type="text"
                    data-testid="push-device-name"
                    maxlength="80"
                    prop:value=move || name.get()
                    on:input=move |event| name.set(event_target_value(&event))
                />
            </label>
            <label>
                <input
                    type="checkbox"
                    role="switch"
                    data-testid="push-toggle"
                    prop:checked=move || {
                        busy.track();
                        on.get()
                    }
                    disabled=move || !supported.get() || busy.get()
                    on:change=toggle
                />
                "Notifications on this device"
            </label>
            <h3>"Devices that get notifications"</h3>
            {move || {
                let list = devices.get();
                if list.is_empty() {
                    return view! { <p>"No device gets notifications."</p> }.into_any();
                }
                view! {
                    <ul class="push-devices" data-testid="push-devices">
                        {list
                            .into_iter()
                            .map(|device| {
                                let mine = this_endpoint.get().as_deref() == Some(device.endpoint.as_str());
                                view! { <DeviceItem device mine error reload /> }
                            })
                            .collect_view()}
                    </ul>
                }
                    .into_any()
            }}
            <super::NotificationSettingsForm />
        </section>
    }
}

#[component]
fn DeviceItem(
    device: PushDevice,
    mine: bool,
    error: RwSignal<Option<String>>,
    reload: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let name = RwSignal::new(device.name.clone());
    let id = StoredValue::new(device.id.clone());
    let rename = move |_| {
        let body = RenamePushSubscription { name: name.get_untracked() };
        leptos::task::spawn_local(async move {
            let url = format!("/push/subscriptions/{}", id.get_value());
            if let Err(err) = http::send::<_, ()>("PATCH", &url, &body).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let remove = move |_| {
        leptos::task::spawn_local(async move {
            if let Err(err) = remove_device(&id.get_value()).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let label = format!("Name of {}", device.name);
    view! {
        <li data-testid="push-device">
            <input
                type="text"
                maxlength="80"
                aria-label=label
                data-testid="push-device-rename"
                prop:value=move || name.get()
                on:input=move |event| name.set(event_target_value(&event))
            />
            " "
            <button type="button" on:click=rename>
                "Rename"
            </button>
            " "
            <button type="button" on:click=remove>
                "Remove"
            </button>
            " "
            <span class="push-devices__service">{format!("through {}", device.service)}</span>
            {mine.then(|| view! { <strong>" (this device)"</strong> })}
        </li>
    }
}
