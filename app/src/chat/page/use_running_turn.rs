//! The running turn the transcript shows, as the open conversation changes: a notice of the
//! last one goes, a turn still streaming is attached to, and once the conversation has
//! reloaded its saved rows take the live turn's place.

use leptos::prelude::*;

use super::use_open_conversation::OpenConversation;
use crate::chat::page_state::{ChatState, follow_running};

pub(super) fn use_running_turn(state: ChatState, open: OpenConversation) {
    let ChatState { conversation_id, version, live, busy, notice, .. } = state;
    // A notice speaks of the conversation it came from.
    Effect::new(move |_| {
        conversation_id.track();
        notice.set(None);
    });

    // Once the conversation has reloaded after a finished turn, the saved rows replace the live turn.
    Effect::new(move |_| {
        if let Some((loaded, _)) = open.loaded.get()
            && loaded == version.get_untracked()
            && !busy.get_untracked()
        {
            live.set(None);
        }
    });

    // A conversation opened (or reloaded) while a reply streams shows it streaming on. One read
    // while a turn ran, whose turn ended before it could be attached to, loads what it saved.
    Effect::new(move |_| {
        if let Some(id) = conversation_id.get()
            && !busy.get_untracked()
        {
            leptos::task::spawn_local(async move {
                if !follow_running(state, id).await && open.read_running.get_untracked() {
                    state.reload();
                }
            });
        }
    });
}
