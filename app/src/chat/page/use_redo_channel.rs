//! Where a redo of the last exchange goes (a regenerated reply, or an edited last message): a
//! turn that replaces it, while no other runs.

use leptos::prelude::*;

use crate::chat::messages::{LastExchange, RedoChannel};
use crate::chat::page_state::ChatState;
use palaver_wire::body::PromptBody;

pub(super) fn use_redo_channel(state: ChatState) -> RedoChannel {
    let ChatState { conversation_id, busy, .. } = state;
    RedoChannel {
        busy,
        send: Callback::new(move |(last, edited): (LastExchange, Option<String>)| {
            let Some(id) = conversation_id.get_untracked() else { return };
            if busy.get_untracked() {
                return;
            }
            let body = PromptBody {
                history_id: Some(id),
                prompt: edited.clone(),
                replace_last: true,
                seen_rows: Some(last.seen_rows),
                ..Default::default()
            };
            state.start_redo(body, edited.unwrap_or(last.text), last.starts_at);
        }),
    }
}
