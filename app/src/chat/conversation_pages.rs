//! The conversation list past its first page: more conversations load as the person scrolls to
//! the list's end (or presses "Show more"), a page at a time, and those loaded are read again
//! whenever the list is; the archived conversations load the same way behind their toggle.

use leptos::prelude::*;

use crate::components::ErrorLine;

use super::api::list_histories;
use super::conversation_groups::{ReaderClock, list_groups};
use super::conversation_item::{ConversationItem, group_view};
use super::share_dialog::ShareTarget;
use super::shelf_api::list_archived;
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::conversation::page::{DEFAULT_PAGE, MAX_PAGE, PageCursor};
use palaver_wire::error::AppError;

/// Which of the caller's lists: the main one, or the archived conversations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shelf {
    Listed,
    Archived,
}

impl Shelf {
    /// At least `count` conversations after `start` (from the list's start without one), and
    /// on through the one at `through` when given; read in pages of at most `MAX_PAGE`, with
    /// whether more follow.
    async fn read_after(
        self,
        search: String,
        start: Option<PageCursor>,
        count: usize,
        through: Option<PageCursor>,
    ) -> Result<(Vec<HistorySummary>, bool), AppError> {
        let mut read: Vec<HistorySummary> = Vec::new();
        let mut before = start;
        loop {
            let wanted = count.saturating_sub(read.len()).clamp(1, MAX_PAGE as usize);
            let wanted = if read.len() < count { wanted } else { MAX_PAGE as usize };
            let limit = Some(u32::try_from(wanted).unwrap_or(MAX_PAGE));
            let cursor = before.as_ref().map(PageCursor::encode);
            let page = match self {
                Shelf::Listed => list_histories(Some(search.clone()), cursor, limit).await?,
                Shelf::Archived => list_archived(Some(search.clone()), cursor, limit).await?,
            };
            let full = page.len() == wanted;
            before = page.last().map(PageCursor::after);
            read.extend(page);
            // The list runs newest first: an entry at or before `through` is at or past it.
            let passed = match (&through, &before) {
                (Some(through), Some(last)) => (&last.updated, &last.id) <= (&through.updated, &through.id),
                _ => true,
            };
            if !full || (read.len() >= count && passed) {
                return Ok((read, full));
            }
        }
    }
}

/// The conversations a list holds past its start: `entries`, whether `more` follow, and where
/// they start (after the first page, for the main list, whose first page is server-rendered).
#[derive(Clone, Copy)]
pub(super) struct MorePages {
    shelf: Shelf,
    pub(super) entries: RwSignal<Vec<HistorySummary>>,
    pub(super) more: RwSignal<bool>,
    loading: RwSignal<bool>,
    error: RwSignal<Option<String>>,
    start: StoredValue<Option<PageCursor>>,
    search: StoredValue<String>,
    /// Bumped by each read from `start`: a page asked for before it is dropped.
    generation: StoredValue<u64>,
}

impl MorePages {
    pub(super) fn new(shelf: Shelf) -> Self {
        MorePages {
            shelf,
            entries: RwSignal::new(Vec::new()),
            more: RwSignal::new(false),
            loading: RwSignal::new(false),
            error: RwSignal::new(None),
            start: StoredValue::new(None),
            search: StoredValue::new(String::new()),
            generation: StoredValue::new(0),
        }
    }

    /// The list was read again from `start`: reads at least `at_least` entries and on through
    /// the last one shown, so the person keeps their place; with another search, only those.
    pub(super) fn reread(self, start: Option<PageCursor>, search: String, at_least: usize) {
        let through = if self.search.get_value() == search {
            self.entries.with_untracked(|entries| entries.last().map(PageCursor::after))
        } else {
            None
        };
        if at_least == 0 && through.is_none() {
            return self.may_follow(start, search);
        }
        let generation = self.restart(start.clone(), search.clone());
        self.loading.set(true);
        leptos::task::spawn_local(async move {
            let read = self.shelf.read_after(search, start, at_least, through).await;
            if self.generation.try_get_value() == Some(generation) {
                self.settle(read, false);
            }
        });
    }

    /// The list ends where it is read: no entries past it.
    pub(super) fn end(self) {
        self.restart(None, self.search.get_value());
        self.entries.set(Vec::new());
        self.more.set(false);
    }

    /// There may be more after `start`, not read yet.
    pub(super) fn may_follow(self, start: Option<PageCursor>, search: String) {
        self.restart(start, search);
        self.entries.set(Vec::new());
        self.more.set(true);
    }

    /// Starts the entries again after `start`: a page still being read is dropped when it
    /// comes. Returns the new generation.
    fn restart(self, start: Option<PageCursor>, search: String) -> u64 {
        self.generation.update_value(|generation| *generation += 1);
        self.start.set_value(start);
        self.search.set_value(search);
        self.loading.set(false);
        self.generation.get_value()
    }

    /// Reads the next page, unless one is being read or none follows.
    pub(super) fn show_more(self) {
        if self.loading.get_untracked() || !self.more.get_untracked() {
            return;
        }
        let generation = self.generation.get_value();
        let after = self.entries.with_untracked(|entries| entries.last().map(PageCursor::after));
        let start = after.or_else(|| self.start.get_value());
        self.loading.set(true);
        let search = self.search.get_value();
        leptos::task::spawn_local(async move {
            let read = self.shelf.read_after(search, start, DEFAULT_PAGE as usize, None).await;
            if self.generation.try_get_value() == Some(generation) {
                self.settle(read, true);
            }
        });
    }

    fn settle(self, read: Result<(Vec<HistorySummary>, bool), AppError>, append: bool) {
        match read {
            Ok((read, more)) => {
                _ = self.entries.try_update(|entries| {
                    if !append {
                        entries.clear();
                    }
                    entries.extend(read);
                });
                _ = self.more.try_set(more);
                _ = self.error.try_set(None);
            }
            Err(err) => _ = self.error.try_set(Some(err.to_string())),
        }
        _ = self.loading.try_set(false);
    }
}

/// Follows the list's first page (the resource): the pages after it end when it is not full,
/// may follow when it is, and are read again when it is read again. Returns the first page's
/// last conversation, where the pages after it continue.
pub(super) fn follow_first_page(
    conversations: Resource<Result<Vec<HistorySummary>, AppError>>,
    search: RwSignal<String>,
    older: MorePages,
) -> RwSignal<Option<HistorySummary>> {
    let first_tail = RwSignal::new(None::<HistorySummary>);
    Effect::new(move |_| {
        let Some(Ok(first)) = conversations.get() else { return };
        let search = search.get_untracked().trim().to_string();
        let tail = first.last().cloned();
        let start = tail.as_ref().map(PageCursor::after);
        if first_tail.with_untracked(|shown| shown != &tail) {
            first_tail.set(tail);
        }
        match (first.len() < DEFAULT_PAGE as usize, older.entries.with_untracked(Vec::is_empty)) {
            (true, true) => {
                if older.more.get_untracked() {
                    older.more.set(false);
                }
            }
            (true, false) => older.end(),
            (false, true) => older.may_follow(start, search),
            (false, false) => older.reread(start, search, 0),
        }
    });
    first_tail
}

/// The conversations past the first page, in their groups: a group the first page ends with
/// goes on without its heading again.
#[component]
pub(super) fn OlderPages(
    older: MorePages,
    first_tail: RwSignal<Option<HistorySummary>>,
    clock: RwSignal<Option<ReaderClock>>,
    current: Memo<Option<String>>,
    changed: Callback<Option<String>>,
    share: Callback<ShareTarget>,
) -> impl IntoView {
    move || {
        let entries = older.entries.get();
        let tail = first_tail.get();
        let tail_id = tail.as_ref().map(|tail| tail.id.clone());
        let is_tail = move |entry: &HistorySummary| Some(&entry.id) == tail_id.as_ref();
        list_groups(tail.into_iter().chain(entries).collect(), clock.get())
            .into_iter()
            .filter_map(|(group, entries)| {
                let continued = entries.first().is_some_and(&is_tail);
                let entries: Vec<HistorySummary> = entries.into_iter().filter(|entry| !is_tail(entry)).collect();
                let group = if continued { None } else { group };
                (!entries.is_empty()).then(|| group_view(group, entries, current, changed, share))
            })
            .collect_view()
    }
}

/// "Show more" at a list's end while more follow (scrolling to it presses it too), and why the
/// last page could not be read.
#[component]
pub(super) fn ShowMore(pages: MorePages) -> impl IntoView {
    view! {
        {move || {
            pages
                .more
                .get()
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="ask-button conversations__more"
                            data-testid="show-more"
                            disabled=move || pages.loading.get()
                            on:click=move |_| pages.show_more()
                        >
                            {move || if pages.loading.get() { "Loading…" } else { "Show more" }}
                        </button>
                    }
                })
        }}
        <ErrorLine message=pages.error />
    }
}

/// The archived conversations, behind a toggle at the bottom of the list; open, they can be
/// read, and unarchived from their menus. They are read again whenever the list is.
#[component]
pub(super) fn ArchivedSection(
    conversations: Resource<Result<Vec<HistorySummary>, AppError>>,
    current: Memo<Option<String>>,
    changed: Callback<Option<String>>,
    share: Callback<ShareTarget>,
    /// Its pages: the list's scrolling loads them while it is open.
    archived: MorePages,
    open: RwSignal<bool>,
) -> impl IntoView {
    let read = RwSignal::new(false);
    Effect::new(move |_| {
        conversations.track();
        if open.get() {
            archived.reread(None, String::new(), DEFAULT_PAGE as usize);
            read.set(true);
        }
    });
    view! {
        <section class="conversations__archived" aria-label="Archived conversations">
            <button
                type="button"
                class="conversations__archived-toggle"
                aria-expanded=move || open.get().to_string()
                aria-controls="archived-conversations"
                data-testid="archived-toggle"
                on:click=move |_| open.update(|open| *open = !*open)
            >
                "Archived"
            </button>
            <div id="archived-conversations" hidden=move || !open.get()>
                {move || {
                    let list = archived.entries.get();
                    if list.is_empty() {
                        (read.get() && !archived.loading.get())
                            .then(|| view! { <p class="conversations__none">"No archived conversations."</p> })
                            .into_any()
                    } else {
                        view! {
                            <ul class="conversations__list" data-testid="archived-list">
                                {list
                                    .into_iter()
                                    .map(|conversation| {
                                        view! { <ConversationItem conversation current changed share /> }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                }}
                <ShowMore pages=archived />
            </div>
        </section>
    }
}
