//! The markdown card: a draft to edit, with its preview.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AnswerChannel;
use super::SubmitRow;
use super::drafts::{MarkdownDraft, use_ask_draft};
use crate::components::textarea_text;
use crate::markdown;
use palaver_contract::asks::{Ask, MarkdownInput};
use palaver_contract::text::utf16_len;

#[component]
pub(super) fn MarkdownBody(
    ask: Ask,
    input: MarkdownInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: palaver_wire::words::Words,
) -> impl IntoView {
    let initial = input.initial.clone().unwrap_or_default();
    let MarkdownDraft { text, touched } = use_ask_draft(&tool_call_id, || MarkdownDraft {
        text: RwSignal::new(initial.clone()),
        touched: RwSignal::new(false),
    });
    let draft = Memo::new(move |_| {
        let markdown = text.get();
        let changed = markdown != initial;
        json!({"action": "accept", "content": {"markdown": markdown, "changed": changed}})
    });
    let max = input.length_bounds().max;
    let placeholder = input.placeholder.clone().unwrap_or_default();
    view! {
        <div class="ask-markdown">
            <label class="ask-field">
                {words.get("draft")}
                <textarea
                    rows="8"
                    placeholder=placeholder
                    prop:value=move || text.get()
                    on:input=move |event| {
                        text.set(event_target_value(&event));
                        touched.set(true);
                    }
                >
                    {textarea_text(&text.get_untracked())}
                </textarea>
            </label>
            <p class="ask-markdown__count" aria-live="polite">
                {move || format!("{} / {max} characters", text.with(|t| utf16_len(t)))}
            </p>
            <div class="ask-markdown__preview" role="group" aria-label="Preview">
                <div class="markdown" inner_html=move || markdown::to_html(&text.get())></div>
            </div>
        </div>
        <SubmitRow ask draft touched answer channel words />
    }
}
