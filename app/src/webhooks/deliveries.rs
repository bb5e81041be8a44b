//! A webhook's recent deliveries: the event, where it stands, its attempts, the last status
//! or error, and when the next attempt is due.

use leptos::prelude::*;

use crate::components::LocalTime;
use crate::http;
use palaver_wire::webhooks::{DeliveryStatus, WebhookDeliveries, WebhookDelivery};

/// How often, and how many times, the list reads itself again while a delivery is pending.
const PENDING_REREAD_EVERY: std::time::Duration = std::time::Duration::from_secs(3);
const PENDING_REREADS: u32 = 20;

fn status_words(status: DeliveryStatus) -> &'static str {
    match status {
        DeliveryStatus::Pending => "Pending",
        DeliveryStatus::Delivered => "Delivered",
        DeliveryStatus::Failed => "Failed",
    }
}

/// The last outcome of a delivery, in words.
fn outcome(delivery: &WebhookDelivery) -> String {
    match (&delivery.last_error, delivery.last_status) {
        (Some(error), _) => error.clone(),
        (None, Some(status)) => format!("HTTP {status}"),
        (None, None) => String::new(),
    }
}

#[component]
pub(super) fn DeliveryList(webhook_id: String, refreshed: RwSignal<u32>) -> impl IntoView {
    let deliveries = RwSignal::new(Vec::<WebhookDelivery>::new());
    let error = RwSignal::new(None::<String>);
    let url = format!("/webhooks/{webhook_id}/deliveries");
    // Read again while a delivery is pending, so its outcome shows without a press (bounded;
    // it stops once the list is gone from the page).
    let load = move |url: String| {
        leptos::task::spawn_local(async move {
            for _ in 0..=PENDING_REREADS {
                let list = match http::get::<WebhookDeliveries>(&url).await {
                    Ok(list) => list.deliveries,
                    Err(err) => {
                        error.try_set(Some(err));
                        return;
                    }
                };
                let pending = list.iter().any(|delivery| delivery.status == DeliveryStatus::Pending);
                if deliveries.try_set(list).is_some() || !pending {
                    return;
                }
                crate::browser::sleep(PENDING_REREAD_EVERY).await;
            }
        });
    };
    let effect_url = url.clone();
    Effect::new(move |_| {
        refreshed.track();
        load(effect_url.clone());
    });
    view! {
        <div class="webhook-deliveries" data-testid="webhook-deliveries">
            <crate::components::ErrorLine message=error />
            <button type="button" on:click=move |_| load(url.clone())>
                "Refresh"
            </button>
            {move || {
                let list = deliveries.get();
                if list.is_empty() {
                    return view! { <p>"No deliveries yet."</p> }.into_any();
                }
                view! {
                    <table class="webhook-deliveries__table">
                        <thead>
                            <tr>
                                <th scope="col">"Event"</th>
                                <th scope="col">"Status"</th>
                                <th scope="col">"Attempts"</th>
                                <th scope="col">"Last outcome"</th>
                                <th scope="col">"Next attempt"</th>
                                <th scope="col">"Created"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {list
                                .into_iter()
                                .map(|delivery| {
                                    view! {
                                        <tr data-testid="webhook-delivery">
                                            <td data-testid="webhook-delivery-event">
                                                <code>{delivery.event.clone()}</code>
                                            </td>
                                            <td data-testid="webhook-delivery-status">
                                                {status_words(delivery.status)}
                                            </td>
                                            <td>{delivery.attempts}</td>
                                            <td>{outcome(&delivery)}</td>
                                            <td>
                                                {delivery
                                                    .next_attempt_at
                                                    .clone()
                                                    .map(|iso| view! { <LocalTime iso /> })}
                                            </td>
                                            <td>
                                                <LocalTime iso=delivery.created.clone() />
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                }
                    .into_any()
            }}
        </div>
    }
}
