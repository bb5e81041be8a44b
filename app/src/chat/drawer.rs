//! On a phone the conversation list is a drawer: the header's Conversations button opens it,
//! choosing a conversation, the backdrop or Escape closes it. On wider screens the list is
//! always beside the transcript and the button is not shown (the CSS decides, by width).

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::components::{Icon, IconView};

/// Whether the drawer is open, shared by the header's button and the chat page.
#[derive(Clone, Copy)]
pub struct ConversationsDrawer(pub RwSignal<bool>);

impl ConversationsDrawer {
    /// Provides the drawer's state to the whole app (the header and the page share it).
    pub fn provide() {
        provide_context(Self(RwSignal::new(false)));
    }

    pub(super) fn expect() -> Self {
        use_context::<Self>().unwrap_or_else(|| Self(RwSignal::new(false)))
    }
}

/// The header's button that opens the conversation list, on the chat page only.
#[component]
pub fn ConversationsButton() -> impl IntoView {
    let ConversationsDrawer(open) = ConversationsDrawer::expect();
    let location = use_location();
    view! {
        <Show when=move || location.pathname.with(|path| path == "/")>
            <button
                type="button"
                class="drawer-toggle"
                aria-controls="conversations"
                aria-expanded=move || open.get().to_string()
                on:click=move |_| open.update(|open| *open = !*open)
            >
                <IconView icon=Icon::Menu />
                <span class="visually-hidden">"Conversations"</span>
            </button>
        </Show>
    }
}

/// The drawer's backdrop: a tap beside the open list closes it.
#[component]
pub(super) fn DrawerBackdrop() -> impl IntoView {
    let ConversationsDrawer(open) = ConversationsDrawer::expect();
    let handle = window_event_listener(leptos::ev::keydown, move |event| {
        if event.key() == "Escape" && open.get_untracked() {
            open.set(false);
        }
    });
    on_cleanup(move || handle.remove());
    view! {
        <Show when=move || open.get()>
            <div class="drawer-backdrop" aria-hidden="true" on:click=move |_| open.set(false)></div>
        </Show>
    }
}
