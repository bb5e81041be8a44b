//! Where an ask card's answer goes: a turn that answers it, or, when the ask ran out of time,
//! one reload to show how it ended.

use leptos::prelude::*;

use crate::chat::ask_card::{AnswerChannel, CardAnswer};
use crate::chat::page_state::ChatState;
use palaver_wire::body::{AskAnswer, PromptBody};

pub(super) fn use_answer_channel(state: ChatState) -> AnswerChannel {
    let ChatState { conversation_id, busy, server_errors, .. } = state;
    let answer = Callback::new(move |CardAnswer { tool_call_id, response, from_app }: CardAnswer| {
        let body = PromptBody {
            history_id: conversation_id.get_untracked(),
            ask_response: Some(AskAnswer { tool_call_id, response }),
            from_app,
            ..Default::default()
        };
        state.start_turn(body, None, Vec::new());
    });
    // Once per ask: a browser clock ahead of the server's must not reload again and again.
    let ran_out_of_time = StoredValue::new(Vec::<String>::new());
    let ran_out = Callback::new(move |tool_call_id: String| {
        if !ran_out_of_time.with_value(|asks| asks.contains(&tool_call_id)) {
            ran_out_of_time.update_value(|asks| asks.push(tool_call_id));
            state.reload();
        }
    });
    AnswerChannel { send: answer, server_errors, busy, ran_out }
}
