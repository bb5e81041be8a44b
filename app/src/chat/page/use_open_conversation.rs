//! The open conversation as read from the server (again after each turn), and what the page
//! takes from each read: the model the picker shows, and whether a turn was running.

use leptos::prelude::*;

use crate::chat::api::get_history;
use crate::chat::model_picker::ModelChoice;
use crate::chat::page_state::ChatState;
use palaver_wire::conversation::model::HistoryView;
use palaver_wire::error::AppError;

/// The open conversation, shared by the page's parts.
#[derive(Clone, Copy)]
pub(super) struct OpenConversation {
    /// The conversation as last read (`None`: a new conversation), with the version it was read at.
    pub(super) loaded: Resource<(u32, Result<Option<HistoryView>, AppError>)>,
    /// The picker's choice: the open conversation's model; a new conversation starts on the default.
    pub(super) model: ModelChoice,
    /// Whether a turn ran on the conversation when it was read.
    pub(super) read_running: RwSignal<bool>,
}

impl OpenConversation {
    /// The conversation as read, once it was (tracked).
    pub(super) fn read(self) -> Option<HistoryView> {
        self.loaded.get().and_then(|(_, view)| view.ok().flatten())
    }
}

pub(super) fn use_open_conversation(state: ChatState) -> OpenConversation {
    let ChatState { conversation_id, version, .. } = state;
    let loaded = Resource::new(
        move || (conversation_id.get(), version.get()),
        |(id, version)| async move {
            let view = match id {
                Some(id) => get_history(id).await.map(Some),
                None => Ok(None),
            };
            (version, view)
        },
    );
    let open = OpenConversation { loaded, model: ModelChoice(RwSignal::new(None)), read_running: RwSignal::new(false) };
    Effect::new(move |_| {
        let shown = open.read();
        open.read_running.set(shown.as_ref().is_some_and(|view| view.running));
        open.model.0.set(shown.and_then(|view| view.model));
    });
    open
}
