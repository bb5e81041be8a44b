//! The composer's Stop: it ends the turn this tab shows; another tab's turn on the
//! conversation goes on.

use leptos::prelude::*;

use crate::chat::api::stop_turn;
use crate::chat::page_state::ChatState;

pub(super) fn use_stop(state: ChatState) -> impl Fn() + Copy + Send + Sync + 'static {
    let ChatState { conversation_id, live, .. } = state;
    move || {
        if let Some(id) = conversation_id.get_untracked() {
            let stream = live.with_untracked(|turn| turn.as_ref().and_then(|turn| turn.stream.clone()));
            leptos::task::spawn_local(async move {
                let _ = stop_turn(id, stream).await;
            });
        }
    }
}
