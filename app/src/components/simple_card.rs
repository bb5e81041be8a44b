//! A simple card as a small screen shows it: title, text, up to three buttons, and the
//! handoff line when the full app is needed.

use leptos::prelude::*;

use palaver_contract::asks::{AskKind, ButtonStyle, SimpleCard, SimpleCardButton};

/// The line a card that hands off shows, by kind.
pub fn handoff_line(kind: AskKind) -> &'static str {
    match kind {
        AskKind::Markdown => "Edit on your phone",
        AskKind::Form => "Fill it in on your phone",
        AskKind::Files => "Upload on your phone",
        AskKind::Choice | AskKind::Confirm => "Continue on your phone",
    }
}

fn button_class(style: ButtonStyle) -> &'static str {
    match style {
        ButtonStyle::Primary => "watch__button watch__button--primary",
        ButtonStyle::Destructive => "watch__button watch__button--destructive",
        ButtonStyle::Cancel => "watch__button watch__button--cancel",
        ButtonStyle::Default => "watch__button",
    }
}

#[component]
pub fn SimpleCardView(
    card: SimpleCard,
    /// Shown when the card has no title of its own (the conversation's title).
    #[prop(default = None)]
    fallback_title: Option<String>,
    on_press: Callback<SimpleCardButton>,
    #[prop(into)] disabled: Signal<bool>,
) -> impl IntoView {
    let handoff = card.handoff.then(|| handoff_line(card.kind));
    view! {
        <section class="watch__card" data-testid="watch-card" aria-label="Question">
            {card.title.clone().or(fallback_title).map(|title| view! { <h2 class="watch__title">{title}</h2> })}
            <p class="watch__text">{card.text.clone()}</p>
            <div class="watch__buttons">
                {card
                    .buttons
                    .into_iter()
                    .map(|button| {
                        let pressed = button.clone();
                        view! {
                            <button
                                type="button"
                                class=button_class(button.style)
                                disabled=move || disabled.get()
                                data-testid=format!("watch-button-{}", button.id)
                                on:click=move |_| on_press.run(pressed.clone())
                            >
                                {button.label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            {handoff
                .map(|line| {
                    view! {
                        <p class="watch__handoff" data-testid="watch-handoff">
                            {line}
                        </p>
                    }
                })}
        </section>
    }
}
