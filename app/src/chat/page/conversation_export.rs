//! The open conversation's export links, in the bar above the transcript.

use leptos::prelude::*;

/// Links that download the conversation as Markdown or JSON; nothing for a new one.
#[component]
pub(super) fn ConversationExport(conversation_id: Memo<Option<String>>) -> impl IntoView {
    move || {
        conversation_id.get().map(|id| {
            view! {
                <nav class="transcript__tools" aria-label="This conversation">
                    "Export: "
                    <a href=format!("/gpt/histories/{id}/export?format=markdown") download>
                        "Markdown"
                    </a>
                    " · "
                    <a href=format!("/gpt/histories/{id}/export?format=json") download>
                        "JSON"
                    </a>
                </nav>
            }
        })
    }
}
