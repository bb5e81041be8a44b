//! Tells a screen reader when the conversation starts waiting on a question and when that
//! question ends, through a polite live region.

use leptos::prelude::*;

/// The pending ask as announced: its id and its question.
pub(super) type Announced = Option<(String, String)>;

/// What the live region says, kept up by an effect (effects may read the conversation's
/// resource while the page hydrates) that compares each pending ask with the one before.
pub(super) fn use_ask_announcements(pending: impl Fn() -> Announced + 'static) -> RwSignal<String> {
    let said = RwSignal::new(String::new());
    Effect::new(move |previous: Option<Announced>| {
        let now = pending();
        let before = previous.flatten();
        match (&before, &now) {
            (_, Some((id, question))) if before.as_ref().map(|(id, _)| id) != Some(id) => {
                said.set(format!("Palaver asks: {question} Press the up arrow in the message box to answer."));
            }
            (Some((_, question)), None) => said.set(format!("The question has ended: {question}")),
            _ => {}
        }
        now
    });
    said
}

#[component]
pub(super) fn AskAnnouncer(said: RwSignal<String>) -> impl IntoView {
    view! {
        <p class="visually-hidden" role="status" aria-live="polite" data-testid="ask-announcer">
            {move || said.get()}
        </p>
    }
}
