//! Where a redo goes (a regenerated reply, or an edited message): a turn that replaces the
//! message and what followed it, while no other runs; and where showing another version of a
//! message goes.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::use_open_conversation::OpenConversation;
use crate::chat::messages::{Exchange, RedoChannel};
use crate::chat::page_state::ChatState;
use palaver_wire::body::{Data, PromptBody};

pub(super) fn use_redo_channel(state: ChatState, open: OpenConversation) -> RedoChannel {
    let ChatState { conversation_id, busy, notice, .. } = state;
    RedoChannel {
        busy,
        send: Callback::new(move |(exchange, edited): (Exchange, Option<String>)| {
            let Some(id) = conversation_id.get_untracked() else { return };
            if busy.get_untracked() {
                return;
            }
            let body = PromptBody {
                history_id: Some(id),
                prompt: edited.clone(),
                replace_from: Some(exchange.starts_at),
                seen_rows: Some(open.seen_rows()),
                ..Default::default()
            };
            state.start_redo(body, edited.unwrap_or(exchange.text), exchange.starts_at);
        }),
        show: Callback::new(move |(exchange, position): (Exchange, usize)| {
            let Some(id) = conversation_id.get_untracked() else { return };
            if busy.get_untracked() {
                return;
            }
            leptos::task::spawn_local(async move {
                let url = format!("/gpt/histories/{id}/branches");
                let body = json!({"row": exchange.starts_at, "position": position, "seenRows": open.seen_rows()});
                match crate::http::send::<_, Data<Value>>("PUT", &url, &body).await {
                    Ok(_) => notice.set(None),
                    Err(message) => notice.set(Some(message)),
                }
                state.reload();
            });
        }),
    }
}
