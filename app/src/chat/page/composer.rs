//! The composer: the message box with its attachments (picked, dropped onto the chat or pasted),
//! Send (or Enter), and Stop (or Escape) while a reply runs. While a question waits, it says
//! that a message skips it, and ↑ (at the start of the box) or "Answer it" goes to the
//! question's card.

use leptos::prelude::*;

use crate::chat::attachments::{AttachButton, DropZone, PendingFiles, PendingList};
use crate::components::textarea_text;
use palaver_wire::conversation::model::Attachment;

#[component]
pub(super) fn Composer(
    busy: RwSignal<bool>,
    /// A question waits on the person (a message sent now skips it).
    #[prop(into)]
    waiting: Signal<bool>,
    on_send: impl Fn(String, Vec<Attachment>) + Clone + Send + Sync + 'static,
    on_stop: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let files = PendingFiles::new();
    let submit = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() || files.uploading() {
            return;
        }
        draft.set(String::new());
        on_send(prompt, files.take());
    };
    let submit_on_enter = submit.clone();
    let to_card = move || crate::browser::focus_first(super::super::PENDING_CARD);
    view! {
        <form
            class="composer"
            on:submit=move |event| {
                event.prevent_default();
                submit();
            }
        >
            <DropZone pending=files busy />
            <PendingList pending=files />
            <AttachButton pending=files busy />
            <label class="visually-hidden" for="composer-input">
                "Message"
            </label>
            <textarea
                id="composer-input"
                class="composer__input"
                rows="2"
                placeholder=move || {
                    if waiting.get() { "Sending a message skips the question above" } else { "Message Palaver…" }
                }
                aria-describedby=move || waiting.get().then_some("composer-hint")
                prop:value=move || draft.get()
                on:input=move |event| {
                    draft.set(event_target_value(&event));
                    crate::browser::fit_to_content(&event_target::<leptos::web_sys::HtmlElement>(&event));
                }
                on:keydown=move |event| {
                    let at_start = crate::browser::caret_at_start(&event);
                    let plain = !event.alt_key() && !event.ctrl_key() && !event.meta_key();
                    if event.key() == "ArrowUp" && plain && at_start && waiting.get_untracked() && to_card() {
                        event.prevent_default();
                    } else if event.key() == "Enter" && !event.shift_key() {
                        event.prevent_default();
                        submit_on_enter();
                    } else if event.key() == "Escape" && busy.get_untracked() {
                        event.prevent_default();
                        on_stop();
                    }
                }
            >
                {textarea_text(&draft.get_untracked())}
            </textarea>
            <button
                type="submit"
                class="composer__send"
                disabled=move || busy.get() || files.uploading() || draft.with(|text| text.trim().is_empty())
            >
                {move || if busy.get() { "Replying…" } else { "Send" }}
            </button>
            <Show when=move || busy.get()>
                <button type="button" class="composer__stop" data-testid="stop" on:click=move |_| on_stop()>
                    "Stop"
                </button>
            </Show>
            <Show when=move || waiting.get()>
                <p class="composer__hint" id="composer-hint" data-testid="composer-hint">
                    "A question above is waiting for you. Sending a message skips it. "
                    <button
                        type="button"
                        class="composer__to-card"
                        on:click=move |_| {
                            to_card();
                        }
                    >
                        "Answer it (↑)"
                    </button>
                </p>
            </Show>
        </form>
    }
}

/// The first stop of the keyboard on the chat page: straight to the message box, past the header
/// and the conversation list. Hidden until it has the focus.
#[component]
pub fn SkipToComposer() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    view! {
        <Show when=move || location.pathname.with(|path| path == "/")>
            <a
                class="skip-link"
                href="#composer-input"
                on:click=move |event| {
                    event.prevent_default();
                    crate::browser::focus_first(crate::chat::COMPOSER);
                }
            >
                "Skip to the message box"
            </a>
        </Show>
    }
}
