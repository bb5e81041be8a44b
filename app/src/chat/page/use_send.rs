//! Sending a message from the composer (or a block's reply, or an MCP App's `ui/message`, shown
//! as the app's): into the open conversation, or for a new one, into the conversation created
//! first, so a running turn always has one.

use leptos::prelude::*;

use crate::chat::api::create_conversation;
use crate::chat::model_picker::ModelChoice;
use crate::chat::page_state::{ChatState, LiveTurn};
use palaver_wire::body::{FileRef, PromptBody};
use palaver_wire::conversation::model::Attachment;

pub(super) fn use_send(
    state: ChatState,
    model: ModelChoice,
) -> impl Fn(String, Vec<Attachment>, Option<String>) + Clone + Send + Sync + 'static {
    let ChatState { conversation_id, live, busy, .. } = state;
    let navigate = leptos_router::hooks::use_navigate();
    move |prompt: String, files: Vec<Attachment>, from_app: Option<String>| {
        let Some(id) = conversation_id.get_untracked() else {
            // A new conversation: create it first, so a running turn always has one.
            busy.set(true);
            let shown = LiveTurn { prompt: Some(prompt.clone()), attachments: files.clone(), ..Default::default() };
            live.set(Some(shown));
            let navigate = navigate.clone();
            leptos::task::spawn_local(async move {
                match create_conversation(model.0.get_untracked()).await {
                    Ok(id) => {
                        navigate(&format!("/?c={id}"), Default::default());
                        let body = prompt_body(&id, &prompt, &files, from_app);
                        state.start_turn(body, Some(prompt.clone()), files);
                    }
                    Err(err) => {
                        live.set(Some(LiveTurn {
                            prompt: Some(prompt),
                            attachments: files,
                            error: Some(err.to_string()),
                            ..Default::default()
                        }));
                        busy.set(false);
                    }
                }
            });
            return;
        };
        state.start_turn(prompt_body(&id, &prompt, &files, from_app), Some(prompt), files);
    }
}

/// A message for the conversation (its model is stored already: with the new conversation, or
/// by the picker).
fn prompt_body(conversation_id: &str, prompt: &str, files: &[Attachment], from_app: Option<String>) -> PromptBody {
    PromptBody {
        history_id: Some(conversation_id.into()),
        prompt: Some(prompt.into()),
        attachments: files.iter().map(|file| FileRef { file_id: file.file_id.clone() }).collect(),
        from_app,
        ..Default::default()
    }
}
