//! The events a webhook is sent, as checkboxes.

use leptos::prelude::*;

use super::EVENT_CHOICES;

/// A checkbox for each event, writing the chosen ones to `events`.
#[component]
pub(super) fn EventChoices(events: RwSignal<Vec<String>>) -> impl IntoView {
    view! {
        <fieldset class="webhook-events">
            <legend>"Send when"</legend>
            {EVENT_CHOICES
                .into_iter()
                .map(|(event, words)| {
                    let toggle = move |_| {
                        events
                            .update(|chosen| {
                                if let Some(at) = chosen.iter().position(|known| known == event) {
                                    chosen.remove(at);
                                } else {
                                    chosen.push(event.to_string());
                                }
                            })
                    };
                    view! {
                        <label>
                            <input
                                type="checkbox"
                                prop:checked=move || events.read().iter().any(|known| known == event)
                                on:change=toggle
                            />
                            {words}
                            " "
                            <code>{event}</code>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
