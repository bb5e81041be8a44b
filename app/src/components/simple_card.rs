//! A simple card as a small screen shows it: title, text, an approval's call (its tool and
//! every argument), up to three buttons, and the handoff line when the full app is needed, in
//! the ask's language and direction.

use leptos::prelude::*;

use super::call_arguments::GuardedCallView;
use super::visible_text::VisibleText;
use crate::words::reader_words;
use palaver_contract::asks::{AskKind, ButtonStyle, SimpleCard, SimpleCardButton};
use palaver_contract::visible::Layout;
use palaver_wire::body::GuardedCall;
use palaver_wire::words::{CardLanguage, Words};

/// The line a card that hands off shows, by kind.
pub fn handoff_line(kind: AskKind, words: &Words) -> String {
    words.get(match kind {
        AskKind::Markdown => "handoff-edit",
        AskKind::Form => "handoff-form",
        AskKind::Files => "handoff-files",
        AskKind::Choice | AskKind::Confirm | AskKind::Questions => "handoff-continue",
    })
}

/// A button's label as shown: the card's own words for the buttons Palaver labels (Skip,
/// Cancel, the defaults); the ask's labels as they are. The wire keeps the contract's labels.
pub fn button_label(button: &SimpleCardButton, kind: AskKind, words: &Words) -> String {
    let own = match (button.id.as_str(), kind, button.label.as_str()) {
        ("skip", ..) => Some(words.get("skip")),
        ("cancel", ..) | ("deny", AskKind::Confirm, "Cancel") => Some(words.get("cancel")),
        ("approve", AskKind::Confirm, "Confirm") => Some(words.get("confirm")),
        ("approve", AskKind::Markdown, _) => Some(words.get("approve-draft")),
        ("submit-defaults", ..) => Some(words.get("submit-defaults")),
        ("use-default", _, "Use suggested") => Some(words.get("use-suggested")),
        ("use-default", _, label) => label
            .strip_prefix("Use \"")
            .and_then(|rest| rest.strip_suffix('"'))
            .map(|chosen| words.with_text("use-default", "label", chosen)),
        _ => None,
    };
    own.unwrap_or_else(|| button.label.clone())
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
    /// The language the ask is written in.
    #[prop(default = None)]
    locale: Option<String>,
    /// For an approval, the call it would run.
    #[prop(default = None)]
    call: Option<GuardedCall>,
) -> impl IntoView {
    let words = Words::for_ask(locale.as_deref(), &reader_words());
    let language = CardLanguage::of(locale.as_deref());
    let handoff = card.handoff.then(|| handoff_line(card.kind, &words));
    let kind = card.kind;
    view! {
        <section
            class="watch__card"
            data-testid="watch-card"
            aria-label=words.get("question")
            lang=language.lang
            dir=language.dir
        >
            {card
                .title
                .clone()
                .or(fallback_title)
                .map(|title| {
                    view! {
                        <h2 class="watch__title">
                            <VisibleText text=title layout=Layout::Prose />
                        </h2>
                    }
                })}
            <p class="watch__text">
                <VisibleText text=card.text.clone() layout=Layout::Prose />
            </p>
            {call.map(|call| view! { <GuardedCallView call words=words.clone() /> })}
            <div class="watch__buttons">
                {card
                    .buttons
                    .into_iter()
                    .map(|button| {
                        let pressed = button.clone();
                        let label = button_label(&button, kind, &words);
                        view! {
                            <button
                                type="button"
                                class=button_class(button.style)
                                disabled=move || disabled.get()
                                data-testid=format!("watch-button-{}", button.id)
                                on:click=move |_| on_press.run(pressed.clone())
                            >
                                <bdi>{label}</bdi>
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
