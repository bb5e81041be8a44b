//! What another tab or device did shows here within a second, from the user's live events:
//! the list follows every change (one entry in place when it can: `chat::list_entry`), the open
//! conversation reads what changed (or is left, once deleted), and a turn started elsewhere
//! streams here too. This tab's own turn reads its rows when it ends: nothing reloads the
//! transcript under a running turn, and an event telling what the page shows reads nothing.

use leptos::prelude::*;

use super::use_open_conversation::OpenConversation;
use crate::chat::list_entry::{ListChange, follow_event};
use crate::chat::page_state::{ChatState, follow_running};
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::error::AppError;
use palaver_wire::live::{HistoryChange, LiveEvent};

pub(super) fn use_live_events(
    state: ChatState,
    open: OpenConversation,
    list: Resource<Result<Vec<HistorySummary>, AppError>>,
) {
    let ChatState { conversation_id, list_version, busy, .. } = state;
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        let leave_deleted = navigate.clone();
        crate::browser::listen_live(move |event| {
            let shown = conversation_id.get_untracked();
            let about_shown = event.history_id().is_some() && event.history_id() == shown.as_deref();
            follow_in_list(list, list_version, event);
            match event {
                LiveEvent::HistoryChanged(changed) if about_shown && changed.change == HistoryChange::Deleted => {
                    leave_deleted("/", Default::default());
                }
                LiveEvent::HistoryChanged(_) => {}
                // Another tab or device started a turn here: show it as it streams.
                LiveEvent::TurnStarted(started) if about_shown && !busy.get_untracked() => {
                    let conversation_id = started.history_id.clone();
                    leptos::task::spawn_local(async move {
                        follow_running(state, conversation_id).await;
                    });
                }
                LiveEvent::TurnDone(_) if about_shown && busy.get_untracked() => state.heard_own_turn_done(),
                _ if busy.get_untracked() => {}
                // Rows may have changed further back than the newest exchange: read anew.
                LiveEvent::Resync(_) => state.reload(),
                _ if !about_shown => {}
                LiveEvent::BranchShown(_) => state.reload(),
                // What the page shows already (the turn it followed, the ask it waits on, an
                // ask it does not wait on) reads nothing; anything else reads the newest rows.
                LiveEvent::TurnDone(_) if state.takes_own_turn_done() => {}
                LiveEvent::AskCreated(created) if open.shows_pending(&created.tool_call_id) => {}
                LiveEvent::AskResolved(resolved) if !open.shows_pending(&resolved.tool_call_id) => {}
                _ => state.read_tail(),
            }
        });
    });
}

/// The list's first page follows the event in place, or is read again when it must be.
fn follow_in_list(
    list: Resource<Result<Vec<HistorySummary>, AppError>>,
    list_version: RwSignal<u32>,
    event: &LiveEvent,
) {
    let now = crate::browser::now_ms();
    let mut change = ListChange::ReadAgain;
    list.maybe_update(|read| {
        if let Some(Ok(entries)) = read {
            change = follow_event(entries, event, now);
        }
        change == ListChange::Entry
    });
    if change == ListChange::ReadAgain {
        list_version.update(|version| *version += 1);
    }
}
