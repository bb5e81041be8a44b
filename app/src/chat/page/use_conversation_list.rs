//! The conversation list's data: the first page of the caller's conversations (the list loads
//! the others as it is scrolled: `chat::conversation_pages`), narrowed by the search and read
//! again whenever a turn or another tab changed them, and what follows a rename or a delete.

use leptos::prelude::*;

use crate::chat::api::list_histories;
use crate::chat::page_state::ChatState;
use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::error::AppError;

/// What the conversation list shows and reports back.
#[derive(Clone, Copy)]
pub(super) struct ConversationListData {
    pub(super) conversations: Resource<Result<Vec<HistorySummary>, AppError>>,
    /// What the list is narrowed to.
    pub(super) search: RwSignal<String>,
    /// After a rename or a delete (with the deleted conversation's id): leaves a deleted open
    /// conversation and reloads.
    pub(super) changed: Callback<Option<String>>,
}

pub(super) fn use_conversation_list(state: ChatState) -> ConversationListData {
    let ChatState { conversation_id, version, list_version, .. } = state;
    let search = RwSignal::new(String::new());
    let conversations = Resource::new(
        move || (version.get(), list_version.get(), search.get()),
        |(_, _, search)| list_histories(Some(search), None, None),
    );
    let leave = leptos_router::hooks::use_navigate();
    let changed = Callback::new(move |deleted: Option<String>| {
        if deleted.is_some() && deleted == conversation_id.get_untracked() {
            leave("/", Default::default());
        }
        state.reload();
    });
    ConversationListData { conversations, search, changed }
}
