//! One conversation in the list, and a group of them under a heading: its link (marked when it
//! is shared), renamed in place, deleted after a confirmation, and its menu that pins, archives
//! or shares it. On its link, F2 renames it, Delete deletes it, Shift+F10 (or the menu key)
//! opens its menu, and the arrow keys move along the list; the buttons beside it are for the
//! pointer.

use leptos::prelude::*;

use super::api::{delete_conversation, rename_conversation};
use super::share_dialog::ShareTarget;
use super::shelf_api::keep_conversation;
use crate::components::{ErrorLine, Icon, IconView};
use palaver_wire::conversation::model::{HistorySummary, TITLE_MAX_LENGTH};

/// A group of the list: its heading (none before the reader's clock is known, or where it
/// continues one above), and its conversations.
pub(super) fn group_view(
    group: Option<&'static str>,
    entries: Vec<HistorySummary>,
    current: Memo<Option<String>>,
    changed: Callback<Option<String>>,
    share: Callback<ShareTarget>,
) -> impl IntoView {
    view! {
        {group.map(|group| view! { <h2 class="conversations__group">{group}</h2> })}
        <ul class="conversations__list">
            {entries
                .into_iter()
                .map(|conversation| view! { <ConversationItem conversation current changed share /> })
                .collect_view()}
        </ul>
    }
}

/// What a conversation's entry in the list shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryMode {
    Link,
    Renaming,
    ConfirmingDelete,
    /// Its menu: pin, archive, share.
    Menu,
}

/// One conversation in the list: its link (marked when it is shared), and buttons to rename it
/// (in place), delete it (after a confirmation) and open its menu. Escape leaves any of them.
#[component]
pub(super) fn ConversationItem(
    conversation: HistorySummary,
    current: Memo<Option<String>>,
    changed: Callback<Option<String>>,
    /// Opens the share dialog for a conversation.
    share: Callback<ShareTarget>,
) -> impl IntoView {
    let id = StoredValue::new(conversation.id.clone());
    let title = conversation.label();
    let shelf = conversation.shelf;
    let snippet_id = format!("snippet-{}", conversation.id);
    let snippet = conversation.snippet.clone().map(|snippet| {
        view! {
            <p class="conversations__snippet" id=snippet_id.clone() data-testid="conversation-snippet">
                {snippet.before}
                <mark>{snippet.matched}</mark>
                {snippet.after}
            </p>
        }
    });
    let described_by = snippet.is_some().then_some(snippet_id);
    let mode = RwSignal::new(EntryMode::Link);
    let saved_title = StoredValue::new(conversation.title.unwrap_or_default());
    let draft = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let pending = RwSignal::new(false);
    // A navigation can rebuild the list and dispose this entry a moment before its
    // aria-current runs once more: a disposed entry is not the current one.
    let is_current = move || id.try_with_value(|id| current.get().as_deref() == Some(id.as_str())).unwrap_or(false);
    let link = NodeRef::<leptos::html::A>::new();
    // Leaving a rename or a confirmation puts the focus back on the link.
    let refocus_link = StoredValue::new(false);
    // Each rename starts from the saved title: a cancelled edit is dropped.
    let show = move |next: EntryMode| {
        error.set(None);
        draft.set(saved_title.get_value());
        refocus_link.set_value(next == EntryMode::Link && mode.get_untracked() != EntryMode::Link);
        mode.set(next);
    };
    let on_link_key = move |event: leptos::ev::KeyboardEvent| {
        let next = match event.key().as_str() {
            "F2" => Some(EntryMode::Renaming),
            "Delete" => Some(EntryMode::ConfirmingDelete),
            "F10" if event.shift_key() => Some(EntryMode::Menu),
            "ContextMenu" => Some(EntryMode::Menu),
            "ArrowDown" | "ArrowUp" => {
                event.prevent_default();
                crate::browser::focus_along(".conversations__item", &event, event.key() == "ArrowDown");
                None
            }
            _ => None,
        };
        if let Some(next) = next {
            event.prevent_default();
            show(next);
        }
    };
    let on_escape = move |event: leptos::ev::KeyboardEvent| {
        if event.key() == "Escape" {
            event.prevent_default();
            show(EntryMode::Link);
        }
    };
    // The list may be rebuilt (and this entry disposed) while a call is out: take what the call
    // needs first.
    let rename = move || {
        pending.set(true);
        let (id, title) = (id.get_value(), draft.get_untracked());
        leptos::task::spawn_local(async move {
            match rename_conversation(id, title).await {
                Ok(_) => changed.run(None),
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
            _ = pending.try_set(false);
        });
    };
    let delete = move || {
        pending.set(true);
        let id = id.get_value();
        leptos::task::spawn_local(async move {
            match delete_conversation(id.clone()).await {
                Ok(()) => changed.run(Some(id)),
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
            _ = pending.try_set(false);
        });
    };
    let keep = move |pinned: Option<bool>, archived: Option<bool>| {
        pending.set(true);
        let id = id.get_value();
        leptos::task::spawn_local(async move {
            match keep_conversation(id, pinned, archived).await {
                Ok(()) => changed.run(None),
                Err(err) => _ = error.try_set(Some(err.to_string())),
            }
            _ = pending.try_set(false);
        });
    };
    let title_input = NodeRef::<leptos::html::Input>::new();
    let cancel_delete = NodeRef::<leptos::html::Button>::new();
    let first_in_menu = NodeRef::<leptos::html::Button>::new();
    // The control that appears takes the focus, so the keyboard stays where the person works.
    Effect::new(move |_| match mode.get() {
        EntryMode::Renaming => {
            if let Some(input) = title_input.get() {
                input.set_value(&draft.get_untracked());
                let _ = input.focus();
                input.select();
            }
        }
        EntryMode::ConfirmingDelete => {
            if let Some(button) = cancel_delete.get() {
                let _ = button.focus();
            }
        }
        EntryMode::Menu => {
            if let Some(button) = first_in_menu.get() {
                let _ = button.focus();
            }
        }
        EntryMode::Link => {
            if refocus_link.get_value()
                && let Some(link) = link.get()
            {
                refocus_link.set_value(false);
                let _ = link.focus();
            }
        }
    });
    let link_title = title.clone();
    view! {
        <li class="conversations__entry" data-testid="conversation">
            {move || match mode.get() {
                EntryMode::Link => {
                    let title = link_title.clone();
                    view! {
                        <a
                            node_ref=link
                            href=format!("/?c={}", id.read_value())
                            class="conversations__item"
                            aria-current=move || is_current().then_some("page")
                            aria-keyshortcuts="F2 Delete Shift+F10"
                            aria-describedby=described_by.clone()
                            title=title.clone()
                            on:keydown=on_link_key
                        >
                            {title.clone()}
                            {shelf
                                .shared
                                .then(|| {
                                    view! {
                                        <span class="conversations__marker" data-testid="shared-marker">
                                            "shared"
                                        </span>
                                    }
                                })}
                        </a>
                        <span class="conversations__actions">
                            {entry_action("Rename", Icon::Pencil, &title, move || show(EntryMode::Renaming))}
                            {entry_action("Delete", Icon::Trash, &title, move || show(EntryMode::ConfirmingDelete))}
                            <button
                                type="button"
                                class="conversations__action"
                                aria-label=format!("More for {title}")
                                aria-haspopup="true"
                                title="More"
                                tabindex="-1"
                                data-testid="conversation-menu"
                                on:click=move |_| show(EntryMode::Menu)
                            >
                                "⋯"
                            </button>
                        </span>
                    }
                        .into_any()
                }
                EntryMode::Menu => {
                    let shared_title = title.clone();
                    view! {
                        <div
                            class="conversations__menu"
                            role="group"
                            aria-label=format!("More for {title}")
                            on:keydown=on_escape
                        >
                            <button
                                type="button"
                                node_ref=first_in_menu
                                data-testid="pin-conversation"
                                disabled=move || pending.get()
                                on:click=move |_| keep(Some(!shelf.pinned), None)
                            >
                                {if shelf.pinned { "Unpin" } else { "Pin" }}
                            </button>
                            <button
                                type="button"
                                data-testid="archive-conversation"
                                disabled=move || pending.get()
                                on:click=move |_| keep(None, Some(!shelf.archived))
                            >
                                {if shelf.archived { "Unarchive" } else { "Archive" }}
                            </button>
                            <button
                                type="button"
                                aria-haspopup="dialog"
                                data-testid="share-conversation"
                                on:click=move |_| {
                                    share
                                        .run(ShareTarget {
                                            id: id.get_value(),
                                            title: shared_title.clone(),
                                        });
                                    show(EntryMode::Link);
                                }
                            >
                                "Share…"
                            </button>
                            <button type="button" on:click=move |_| show(EntryMode::Link)>
                                "Cancel"
                            </button>
                        </div>
                    }
                        .into_any()
                }
                EntryMode::Renaming => {
                    view! {
                        <form
                            class="conversations__rename"
                            on:submit=move |event| {
                                event.prevent_default();
                                rename();
                            }
                            on:keydown=on_escape
                        >
                            <input
                                node_ref=title_input
                                class="conversations__title-input"
                                aria-label="Conversation title"
                                maxlength=TITLE_MAX_LENGTH.to_string()
                                required
                                prop:value=move || draft.get()
                                on:input=move |event| draft.set(event_target_value(&event))
                            />
                            <button type="submit" disabled=move || pending.get()>
                                "Save"
                            </button>
                            <button type="button" on:click=move |_| show(EntryMode::Link)>
                                "Cancel"
                            </button>
                        </form>
                    }
                        .into_any()
                }
                EntryMode::ConfirmingDelete => {
                    view! {
                        <div
                            class="conversations__confirm"
                            role="alertdialog"
                            aria-label="Delete conversation"
                            on:keydown=on_escape
                        >
                            <p>{format!("Delete “{title}”? It leaves your list for good.")}</p>
                            <button
                                type="button"
                                class="ask-button ask-button--destructive"
                                disabled=move || pending.get()
                                on:click=move |_| delete()
                            >
                                "Delete"
                            </button>
                            <button
                                type="button"
                                class="ask-button"
                                node_ref=cancel_delete
                                on:click=move |_| show(EntryMode::Link)
                            >
                                "Cancel"
                            </button>
                        </div>
                    }
                        .into_any()
                }
            }}
            {snippet}
            <ErrorLine message=error />
        </li>
    }
}

/// A small button beside a conversation's link, named for screen readers with the conversation;
/// no tab stop of its own (the link's keys do the same).
fn entry_action(
    verb: &'static str,
    icon: Icon,
    title: &str,
    on_press: impl Fn() + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <button
            type="button"
            class="conversations__action"
            aria-label=format!("{verb} {title}")
            title=verb
            tabindex="-1"
            on:click=move |_| on_press()
        >
            <IconView icon />
        </button>
    }
}
