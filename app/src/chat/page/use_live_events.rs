//! What another tab or device did shows here within a second, from the user's live events:
//! the list follows every change, the open conversation reloads (or is left, once deleted),
//! and a turn started elsewhere streams here too. This tab's own turn reloads when it ends:
//! nothing reloads the transcript under a running turn.

use leptos::prelude::*;

use crate::chat::page_state::{ChatState, follow_running};
use palaver_wire::live::{HistoryChange, LiveEvent};

pub(super) fn use_live_events(state: ChatState) {
    let ChatState { conversation_id, list_version, busy, .. } = state;
    let navigate = leptos_router::hooks::use_navigate();
    Effect::new(move |_| {
        let leave_deleted = navigate.clone();
        crate::browser::listen_live(move |event| {
            let shown = conversation_id.get_untracked();
            let about_shown = event.history_id().is_some() && event.history_id() == shown.as_deref();
            match event {
                LiveEvent::HistoryChanged(changed) => {
                    list_version.update(|version| *version += 1);
                    if about_shown && changed.change == HistoryChange::Deleted {
                        leave_deleted("/", Default::default());
                    }
                }
                // Another tab or device started a turn here: show it as it streams.
                LiveEvent::TurnStarted(started) if about_shown && !busy.get_untracked() => {
                    let conversation_id = started.history_id.clone();
                    leptos::task::spawn_local(async move {
                        follow_running(state, conversation_id).await;
                    });
                }
                _ if (about_shown || matches!(event, LiveEvent::Resync(_))) && !busy.get_untracked() => state.reload(),
                _ => {}
            }
        });
    });
}
