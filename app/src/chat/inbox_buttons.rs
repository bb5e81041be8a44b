//! The buttons of an inbox item, the inbox's own asks' and the approvals routed to the reader
//! alike: each in its card's style, pressing its id.

use leptos::prelude::*;

use palaver_contract::asks::{ButtonStyle, SimpleCardButton};

fn button_class(style: ButtonStyle) -> &'static str {
    match style {
        ButtonStyle::Primary => "ask-button ask-button--primary",
        ButtonStyle::Destructive => "ask-button ask-button--destructive",
        ButtonStyle::Default | ButtonStyle::Cancel => "ask-button",
    }
}

/// An inbox item's buttons, each pressing its id; `testid` and the id name each for the tests.
#[component]
pub(super) fn InboxButtons(
    buttons: Vec<SimpleCardButton>,
    testid: &'static str,
    busy: RwSignal<bool>,
    on_press: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="inbox__buttons">
            {buttons
                .into_iter()
                .map(|button| {
                    let id = button.id.clone();
                    view! {
                        <button
                            type="button"
                            class=button_class(button.style)
                            data-testid=format!("{testid}-{}", button.id)
                            disabled=move || busy.get()
                            on:click=move |_| on_press.run(id.clone())
                        >
                            {button.label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
