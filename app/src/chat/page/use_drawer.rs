//! The conversations drawer as the page sees it: choosing a conversation (or a new one)
//! closes it.

use leptos::prelude::*;

use crate::chat::drawer::ConversationsDrawer;

/// Whether the drawer is open.
pub(super) fn use_drawer(conversation_id: Memo<Option<String>>) -> RwSignal<bool> {
    let ConversationsDrawer(drawer) = ConversationsDrawer::expect();
    Effect::new(move |_| {
        conversation_id.track();
        drawer.set(false);
    });
    drawer
}
