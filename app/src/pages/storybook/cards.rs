//! `/storybook/cards/<name>`: an ask fixture's simple card in the watch frame, with the card as
//! JSON — in light and dark side by side.

use leptos::prelude::*;

use super::api::{StoryFixture, storybook_fixture};
use super::frame::{StoryFrame, in_both_themes};
use crate::components::SimpleCardView;
use palaver_contract::asks::{parse_stored_ask, to_simple_card};

fn card_story(fixture: StoryFixture) -> impl IntoView {
    in_both_themes(move || match parse_stored_ask(fixture.kind, &fixture.input) {
        Ok(ask) => {
            let card = to_simple_card(&ask, "call_fixture");
            let json = serde_json::to_string_pretty(&card).unwrap_or_default();
            let locale = ask.locale().map(str::to_string);
            view! {
                <div class="watch">
                    <SimpleCardView card on_press=Callback::new(|_| {}) disabled=Signal::stored(false) locale />
                </div>
                <pre>{json}</pre>
            }
            .into_any()
        }
        Err(_) => view! { <p class="error">"This fixture does not validate."</p> }.into_any(),
    })
}

#[component]
pub fn StorybookCardPage() -> impl IntoView {
    view! { <StoryFrame load=storybook_fixture content=card_story /> }
}
