//! The conversation list: a link to each of the caller's conversations, the pinned ones first,
//! then the most recent, each renamed, deleted, pinned, archived or shared from the list
//! (`super::conversation_item`); a search over titles and messages (`/` and Ctrl+K reach it:
//! `super::shortcuts`); and the archived conversations behind a toggle at the bottom. The first
//! page is server-rendered, more load as the list is scrolled (`super::conversation_pages`).

use leptos::prelude::*;

use super::conversation_groups::{ReaderClock, list_groups};
use super::conversation_item::group_view;
use super::conversation_pages::{ArchivedSection, MorePages, OlderPages, Shelf, ShowMore, follow_first_page};
use super::share_dialog::{ShareDialog, ShareTarget};
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::error::AppError;

#[component]
pub(super) fn ConversationList(
    conversations: Resource<Result<Vec<HistorySummary>, AppError>>,
    current: Memo<Option<String>>,
    /// Called after a rename or a delete, with the id of a deleted conversation.
    changed: Callback<Option<String>>,
    /// What the list is narrowed to (titles and messages that hold it).
    search: RwSignal<String>,
) -> impl IntoView {
    // The reader's day is known in the browser only: the list gets its date groups once live.
    let clock = RwSignal::new(None::<ReaderClock>);
    let sharing = RwSignal::new(None::<ShareTarget>);
    let share = Callback::new(move |target: ShareTarget| sharing.set(Some(target)));
    Effect::new(move |_| {
        clock.set(Some(ReaderClock {
            now_ms: crate::browser::now_ms(),
            offset_minutes: crate::browser::utc_offset_minutes(),
        }))
    });
    // The first page is the resource (server-rendered); the pages after it load as the list is
    // scrolled to its end, and are read again whenever the first page is.
    let older = MorePages::new(Shelf::Listed);
    let first_tail = follow_first_page(conversations, search, older);
    let archived = MorePages::new(Shelf::Archived);
    let archived_open = RwSignal::new(false);
    let nav = NodeRef::<leptos::html::Nav>::new();
    let on_scroll = move |_| {
        if nav.get().is_some_and(|nav| crate::browser::shows_end(&nav)) {
            if archived_open.get_untracked() && !older.more.get_untracked() {
                archived.show_more()
            } else {
                older.show_more()
            }
        }
    };
    view! {
        <nav class="conversations" id="conversations" aria-label="Conversations" node_ref=nav on:scroll=on_scroll>
            <a class="conversations__new" href="/" data-testid="new-chat">
                "New chat"
            </a>
            <input
                class="conversations__search"
                type="search"
                placeholder="Search (/)"
                aria-label="Search conversations"
                data-testid="conversation-search"
                prop:value=move || search.get()
                on:input=move |event| search.set(event_target_value(&event))
                on:keydown=move |event| {
                    if event.key() == "Escape" {
                        event.prevent_default();
                        search.set(String::new());
                        crate::browser::focus_first(super::COMPOSER);
                    }
                }
            />
            <Transition fallback=|| ()>
                {move || {
                    let clock = clock.get();
                    Suspend::new(async move {
                        match conversations.await {
                            Ok(list) if list.is_empty() && !search.with_untracked(|q| q.trim().is_empty()) => {
                                let searched = search.get_untracked().trim().to_string();
                                view! {
                                    <p class="conversations__none" role="status" data-testid="no-match">
                                        {format!("No conversations match “{searched}”.")}
                                    </p>
                                }
                                    .into_any()
                            }
                            Ok(list) => {
                                list_groups(list, clock)
                                    .into_iter()
                                    .map(|(group, entries)| group_view(group, entries, current, changed, share))
                                    .collect_view()
                                    .into_any()
                            }
                            Err(err) => view! { <p class="error">{err.to_string()}</p> }.into_any(),
                        }
                    })
                }}
            </Transition>
            <OlderPages older first_tail clock current changed share />
            <ShowMore pages=older />
            <ArchivedSection conversations current changed share archived open=archived_open />
            <ShareDialog target=sharing changed />
        </nav>
    }
}
