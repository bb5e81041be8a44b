//! The files card: pick files, drop them onto the card or paste them while it has the focus,
//! each uploaded with its progress before Submit.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AnswerChannel;
use super::drafts::{FilesDraft, use_ask_draft};
use super::{ErrorList, SubmitRow};
use crate::browser::WithoutStorage;
use crate::chat::attachments::Thumbnail;
use palaver_contract::asks::{Ask, FilesInput, accepted_file_mime_types};

#[component]
pub(super) fn FilesBody(
    ask: Ask,
    input: FilesInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: palaver_wire::words::Words,
) -> impl IntoView {
    // Uploads in flight are part of the draft: (file name, progress from 0 to 1).
    let kept = use_ask_draft(&tool_call_id, || FilesDraft {
        picked: RwSignal::new(Vec::new()),
        touched: RwSignal::new(false),
        uploading: RwSignal::new(Vec::new()),
        upload_errors: RwSignal::new(Vec::new()),
    });
    let FilesDraft { picked, touched, uploading, upload_errors } = kept;
    let draft = Memo::new(move |_| json!({"action": "accept", "content": {"files": picked.get()}}));
    let accept = accepted_file_mime_types(&input.accept).join(",");
    let bounds = input.count_bounds();
    let many = bounds.max > 1;
    let count = |bound: i64| usize::try_from(bound).unwrap_or_default();
    let hint = if bounds.min == bounds.max {
        words.with_count("pick-files", "count", count(bounds.max))
    } else {
        words.with("pick-files-range", &[("min", count(bounds.min).into()), ("max", count(bounds.max).into())])
    };
    let (uploading_words, remove) = (StoredValue::new(words.clone()), words.get("remove"));
    let add = move |files: Vec<crate::browser::File>| {
        touched.set(true);
        upload(files, kept);
    };
    let on_change = move |event: leptos::ev::Event| add(crate::browser::chosen_files(&event));
    // The whole card takes files dropped onto it or pasted into it, before the chat around it.
    let files_box = NodeRef::<leptos::html::Div>::new();
    let dragging = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(card) = files_box.get().and_then(|files_box| files_box.closest(".ask-card").ok().flatten()) {
            crate::browser::receive_files(&card, dragging, add);
        }
    });
    view! {
        <div class="ask-files" class:ask-files--dragging=move || dragging.get() node_ref=files_box>
            <label class="ask-field">
                {hint}
                <input type="file" multiple=many accept=accept data-testid="ask-file-input" on:change=on_change />
            </label>
            {move || {
                uploading
                    .get()
                    .into_iter()
                    .map(|(name, done)| {
                        view! {
                            <label class="ask-files__progress">
                                {uploading_words.with_value(|words| words.with_text("uploading", "name", name))}
                                <progress max="1" value=done.to_string()></progress>
                            </label>
                        }
                    })
                    .collect_view()
            }}
            <ErrorList errors=Signal::derive(move || upload_errors.get()) />
            <ul class="ask-files__list" data-testid="ask-files-picked">
                {move || {
                    picked
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(index, file)| {
                            let thumbnail = file["fileId"]
                                .as_str()
                                .map(|file_id| {
                                    view! {
                                        <Thumbnail
                                            file_id=file_id.to_string()
                                            filename=file["filename"].as_str().unwrap_or("file").to_string()
                                            mime_type=file["mimeType"].as_str().unwrap_or_default().to_string()
                                        />
                                    }
                                });
                            view! {
                                <li>
                                    {thumbnail}
                                    {format!(
                                        "{} ({}, {} bytes)",
                                        file["filename"].as_str().unwrap_or("file"),
                                        file["mimeType"].as_str().unwrap_or("?"),
                                        file["size"],
                                    )} " "
                                    <button
                                        type="button"
                                        class="ask-button ask-button--cancel"
                                        on:click=move |_| {
                                            picked
                                                .update(|p| {
                                                    p.remove(index);
                                                })
                                        }
                                    >
                                        {remove.clone()}
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
        <SubmitRow ask draft touched answer channel words />
    }
}

/// Uploads the files a person gave the card into the draft, each with its progress; without
/// file storage on the server, they travel as data URLs.
fn upload(files: Vec<crate::browser::File>, draft: FilesDraft) {
    let FilesDraft { picked, uploading, upload_errors, .. } = draft;
    crate::browser::upload_files(files, uploading, upload_errors, WithoutStorage::DataUrl, move |reference| {
        picked.update(|p| p.push(reference));
        Ok(())
    });
}
