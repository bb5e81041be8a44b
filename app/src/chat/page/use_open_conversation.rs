//! The open conversation as read from the server: its newest window (read again when the page
//! reloads it), the earlier rows joined in front as the person scrolls up, and after each turn
//! only what the turn added; and what the page takes from it: the model the picker shows, and
//! whether a turn was running.

use leptos::prelude::*;

use crate::chat::api::get_history;
use crate::chat::model_picker::ModelChoice;
use crate::chat::page_state::ChatState;
use palaver_wire::conversation::model::HistoryView;
use palaver_wire::error::AppError;

/// The open conversation, shared by the page's parts.
#[derive(Clone, Copy)]
pub(super) struct OpenConversation {
    /// The conversation's newest window as last loaded (`None`: a new conversation), with the
    /// version it was loaded at.
    pub(super) loaded: Resource<(u32, Result<Option<HistoryView>, AppError>)>,
    /// The load as an effect last saw it (what event handlers read: a resource is read only in
    /// effects and under a transition).
    last_load: RwSignal<Option<(u32, Option<HistoryView>)>>,
    /// The window as it grew since it was loaded at that version: earlier rows in front, a
    /// turn's rows at its end.
    pub(super) joined: RwSignal<Option<(u32, HistoryView)>>,
    /// Bumped when a turn's rows joined the end (the transcript follows them).
    pub(super) grew: RwSignal<u32>,
    /// Earlier rows are being read.
    pub(super) reading_earlier: RwSignal<bool>,
    /// The picker's choice: the open conversation's model; a new conversation starts on the default.
    pub(super) model: ModelChoice,
    /// Whether a turn ran on the conversation when it was read.
    pub(super) read_running: RwSignal<bool>,
}

impl OpenConversation {
    /// The conversation as the page has it, once it was read (tracked).
    pub(super) fn read(self) -> Option<HistoryView> {
        let (version, loaded) = self.last_load.get()?;
        let loaded_id = loaded.as_ref().map(|view| view.id.clone());
        let grown = self.joined.get().filter(|(at, view)| *at == version && Some(&view.id) == loaded_id.as_ref());
        grown.map(|(_, view)| view).or(loaded)
    }

    /// Reads the rows before the window, when there are some and none are being read, and
    /// joins them in front (`keep_place`, called just before, keeps the reader's place).
    pub(super) fn read_earlier(self, keep_place: impl FnOnce() + 'static) {
        let Some((version, view)) = self.read_versioned() else { return };
        let Some(before) = view.window.and_then(|window| window.earlier) else { return };
        if self.reading_earlier.get_untracked() {
            return;
        }
        self.reading_earlier.set(true);
        leptos::task::spawn_local(async move {
            let earlier = get_history(view.id, Some(before), None).await;
            _ = self.reading_earlier.try_set(false);
            if let Ok(earlier) = earlier {
                self.grow(version, |shown| shown.join_earlier(earlier), keep_place);
            }
        });
    }

    /// The conversation as read, and the version of the load it grew from.
    fn read_versioned(self) -> Option<(u32, HistoryView)> {
        let version = self.last_load.try_with_untracked(|loaded| loaded.as_ref().map(|(version, _)| *version))??;
        Some((version, self.read_untracked()?))
    }

    /// Changes the conversation as the page has it now, if it still grew from the load at
    /// `version` (`before` runs just before it shows). False when it did not, or `change` could
    /// not make it.
    fn grow(self, version: u32, change: impl FnOnce(&mut HistoryView) -> bool, before: impl FnOnce()) -> bool {
        let Some((now, mut shown)) = self.read_versioned() else { return false };
        if now != version || !change(&mut shown) {
            return false;
        }
        before();
        _ = self.joined.try_set(Some((version, shown)));
        true
    }

    fn read_untracked(self) -> Option<HistoryView> {
        untrack(move || self.read())
    }

    /// Whether the conversation as read waits on the ask `tool_call_id`.
    pub(super) fn shows_pending(self, tool_call_id: &str) -> bool {
        self.read_untracked()
            .and_then(|view| view.pending_ask)
            .is_some_and(|pending| pending.ask.tool_call_id == tool_call_id)
    }

    /// How many rows of the conversation the page has read: those before its window, and the
    /// window's (what a redo tells the server it saw).
    pub(super) fn seen_rows(self) -> usize {
        self.read_untracked().map_or(0, |view| view.window.unwrap_or_default().first_row + view.rows.len())
    }
}

pub(super) fn use_open_conversation(state: ChatState) -> OpenConversation {
    let ChatState { conversation_id, version, tail, live, busy, .. } = state;
    let loaded = Resource::new(
        move || (conversation_id.get(), version.get()),
        |(id, version)| async move {
            let view = match id {
                Some(id) => get_history(id, None, None).await.map(Some),
                None => Ok(None),
            };
            (version, view)
        },
    );
    let open = OpenConversation {
        loaded,
        last_load: RwSignal::new(None),
        joined: RwSignal::new(None),
        grew: RwSignal::new(0),
        reading_earlier: RwSignal::new(false),
        model: ModelChoice(RwSignal::new(None)),
        read_running: RwSignal::new(false),
    };
    Effect::new(move |_| {
        if let Some((version, view)) = loaded.get() {
            // A new load (another conversation, or this one read anew) starts the window over.
            open.joined.set(None);
            open.last_load.set(Some((version, view.ok().flatten())));
        }
    });
    Effect::new(move |_| {
        let shown = open.read();
        open.read_running.set(shown.as_ref().is_some_and(|view| view.running));
        open.model.0.set(shown.and_then(|view| view.model));
    });
    // After a turn: only its last exchange on is read, and joins the end of the window; a
    // window that no longer lines up with it (rows changed further back) is loaded anew.
    Effect::new(move |previous: Option<u32>| {
        let asked = tail.get();
        if previous.is_none() {
            return asked;
        }
        let Some((at, view)) = open.read_versioned() else {
            state.reload();
            return asked;
        };
        let Some(from) = view.window.map(|window| window.latest) else {
            state.reload();
            return asked;
        };
        leptos::task::spawn_local(async move {
            let read = get_history(view.id, None, Some(from)).await;
            // A read asked for since brings all this one would, and more: this one is dropped.
            if tail.try_get_untracked() != Some(asked) {
                return;
            }
            let Ok(later) = read else { return state.reload() };
            if open.grow(at, |shown| shown.join_later(later), || ()) {
                open.grew.update(|grew| *grew += 1);
                // The saved rows replace the live turn.
                if !busy.get_untracked() {
                    live.set(None);
                }
            } else if version.try_get_untracked() == Some(at) {
                state.reload();
            }
        });
        asked
    });
    open
}
