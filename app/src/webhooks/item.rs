//! One webhook in Settings: its URL and state (disabled, and why), its events to change, and
//! its actions: enable or disable, send a test, rotate the secret, remove, show deliveries.

use leptos::prelude::*;

use super::deliveries::DeliveryList;
use super::events::EventChoices;
use crate::http;
use palaver_wire::webhooks::{Webhook, WebhookChange, WebhookPingQueued, WebhookWithSecret};

#[component]
pub(super) fn WebhookItem(
    webhook: Webhook,
    error: RwSignal<Option<String>>,
    /// Where a rotated secret is shown (the section's, so a reload keeps it).
    secret_shown: RwSignal<Option<WebhookWithSecret>>,
    reload: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let id = StoredValue::new(webhook.id.clone());
    let url = move |tail: &str| format!("/webhooks/{}{tail}", id.get_value());
    let events = RwSignal::new(webhook.events.clone());
    let shown = RwSignal::new(false);
    let refreshed = RwSignal::new(0_u32);
    let change = move |change: WebhookChange| {
        leptos::task::spawn_local(async move {
            if let Err(err) = http::send::<_, Webhook>("PATCH", &url(""), &change).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let enabled = webhook.enabled;
    let toggle = move |_| change(WebhookChange { enabled: Some(!enabled), ..WebhookChange::default() });
    let save_events =
        move |_| change(WebhookChange { events: Some(events.get_untracked()), ..WebhookChange::default() });
    let test = move |_| {
        leptos::task::spawn_local(async move {
            match http::send::<_, WebhookPingQueued>("POST", &url("/test"), &()).await {
                Ok(_) => {
                    shown.set(true);
                    refreshed.update(|count| *count += 1);
                }
                Err(err) => error.set(Some(err)),
            }
        });
    };
    let rotate = move |_| {
        leptos::task::spawn_local(async move {
            match http::send::<_, WebhookWithSecret>("POST", &url("/secret"), &()).await {
                Ok(made) => secret_shown.set(Some(made)),
                Err(err) => error.set(Some(err)),
            }
        });
    };
    let remove = move |_| {
        leptos::task::spawn_local(async move {
            if let Err(err) = crate::browser::request::<()>("DELETE", &url(""), None).await {
                error.set(Some(err));
            }
            reload();
        });
    };
    let (state, state_class) =
        if enabled { ("Enabled", "webhook__state") } else { ("Disabled", "webhook__state webhook__state--off") };
    view! {
        <li class="webhook" data-testid="webhook">
            <p>
                <code class="webhook__url">{webhook.url.clone()}</code>
                " "
                <span class="webhook__description">{webhook.description.clone()}</span>
                " "
                <strong class=state_class>{state}</strong>
            </p>
            {webhook
                .disabled_reason
                .clone()
                .map(|reason| {
                    view! {
                        <p class="webhook__reason" role="note">
                            {reason}
                        </p>
                    }
                })}
            <EventChoices events />
            <div class="webhook__actions">
                <button type="button" on:click=save_events>
                    "Save events"
                </button>
                <button type="button" on:click=toggle>
                    {if enabled { "Disable" } else { "Enable" }}
                </button>
                <button type="button" on:click=test>
                    "Send test"
                </button>
                <button type="button" on:click=rotate>
                    "Rotate secret"
                </button>
                <button type="button" on:click=remove>
                    "Remove"
                </button>
                <button
                    type="button"
                    aria-expanded=move || shown.get().to_string()
                    on:click=move |_| shown.update(|open| *open = !*open)
                >
                    {move || if shown.get() { "Hide deliveries" } else { "Show deliveries" }}
                </button>
            </div>
            <Show when=move || shown.get()>
                <DeliveryList webhook_id=id.get_value() refreshed />
            </Show>
        </li>
    }
}
