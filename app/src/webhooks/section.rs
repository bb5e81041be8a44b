//! Settings' "Webhooks": the form that registers one (its secret then shown once, with a copy
//! button) and the list of the person's webhooks.

use leptos::prelude::*;

use super::EVENT_CHOICES;
use super::events::EventChoices;
use super::item::WebhookItem;
use super::secret::SecretOnce;
use crate::components::ErrorLine;
use crate::http;
use palaver_wire::webhooks::{MAX_WEBHOOKS, NewWebhook, Webhook, WebhookWithSecret, Webhooks};

#[component]
pub fn WebhooksSection() -> impl IntoView {
    let webhooks = RwSignal::new(Vec::<Webhook>::new());
    let error = RwSignal::new(None::<String>);
    let url = RwSignal::new(String::new());
    let description = RwSignal::new(String::new());
    let events = RwSignal::new(EVENT_CHOICES.map(|(event, _)| event.to_string()).to_vec());
    // The secret just made (a new webhook's, or one rotated), shown here so that reloading the
    // list, which rebuilds its items, does not take it away before it is copied.
    let secret_shown = RwSignal::new(None::<WebhookWithSecret>);
    let reload = move || {
        leptos::task::spawn_local(async move {
            match http::get::<Webhooks>("/webhooks").await {
                Ok(list) => webhooks.set(list.webhooks),
                Err(err) => error.set(Some(err)),
            }
        });
    };
    Effect::new(move |_| reload());
    let add = move |event: leptos::ev::SubmitEvent| {
        event.prevent_default();
        error.set(None);
        let new = NewWebhook {
            url: url.get_untracked(),
            description: Some(description.get_untracked()).filter(|text| !text.trim().is_empty()),
            events: Some(events.get_untracked()),
        };
        leptos::task::spawn_local(async move {
            match http::send::<_, WebhookWithSecret>("POST", "/webhooks", &new).await {
                Ok(made) => {
                    secret_shown.set(Some(made));
                    url.set(String::new());
                    description.set(String::new());
                }
                Err(err) => error.set(Some(err)),
            }
            reload();
        });
    };
    view! {
        <section aria-labelledby="webhooks-heading" data-testid="webhooks">
            <h2 id="webhooks-heading">"Webhooks"</h2>
            <p>
                "Palaver posts your questions, their answers and finished replies to these URLs, signed with each one's secret, so a Slack, Teams or Telegram bridge can answer through the API. "
                {format!("At most {MAX_WEBHOOKS}.")}
            </p>
            <ErrorLine message=error />
            <form class="webhook-form" aria-label="Add a webhook" on:submit=add>
                <label>
                    "URL"
                    <input
                        type="url"
                        required
                        maxlength="2048"
                        placeholder="https://bridge.example.com/palaver"
                        data-testid="webhook-url"
                        prop:value=move || url.get()
                        on:input=move |event| url.set(event_target_value(&event))
                    />
                </label>
                <label>
                    "Description"
                    <input
                        type="text"
                        maxlength="200"
                        placeholder="Team chat bridge"
                        prop:value=move || description.get()
                        on:input=move |event| description.set(event_target_value(&event))
                    />
                </label>
                <EventChoices events />
                <button type="submit">"Add webhook"</button>
            </form>
            {move || secret_shown.get().map(|made| view! { <SecretOnce made /> })}
            {move || {
                let list = webhooks.get();
                if list.is_empty() {
                    return view! { <p>"No webhooks yet."</p> }.into_any();
                }
                view! {
                    <ul class="webhooks" data-testid="webhook-list">
                        {list
                            .into_iter()
                            .map(|webhook| view! { <WebhookItem webhook error secret_shown reload /> })
                            .collect_view()}
                    </ul>
                }
                    .into_any()
            }}
        </section>
    }
}
