//! Files attached to a message: the composer's Attach button, a drop onto the chat or a paste
//! uploads them (`POST /files/upload`), and they are listed until the message goes; a sent
//! message lists the files it carried. An image shows a thumbnail (`GET /files/{id}`).

use leptos::prelude::*;

use crate::browser::WithoutStorage;
use palaver_contract::asks::FileAccept;
use palaver_wire::conversation::model::Attachment;

/// A size as people read it.
fn size_words(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{} KB", bytes.div_ceil(1_000)),
        _ => format!("{:.1} MB", bytes as f64 / 1_000_000.0),
    }
}

/// A small picture of an uploaded image, as the file's route serves it to its owner; a file
/// of another type has none. Its box is sized by the style sheet, so nothing moves as it loads.
#[component]
pub(super) fn Thumbnail(file_id: String, filename: String, mime_type: String) -> impl IntoView {
    // The types the route serves as images; any other would not load as one.
    FileAccept::Image.mime_types().contains(&mime_type.as_str()).then(|| {
        let src = format!("/files/{file_id}");
        view! { <img class="thumbnail" src=src alt=filename loading="lazy" data-testid="thumbnail" /> }
    })
}

/// The files a message carried.
#[component]
pub(super) fn AttachmentList(files: Vec<Attachment>) -> impl IntoView {
    (!files.is_empty()).then(|| {
        view! {
            <ul class="attachments" aria-label="Attached files">
                {files
                    .into_iter()
                    .map(|file| {
                        view! {
                            <li class="attachment" data-testid="attachment">
                                <Thumbnail
                                    file_id=file.file_id
                                    filename=file.filename.clone()
                                    mime_type=file.mime_type
                                />
                                <span class="attachment__name">{file.filename}</span>
                                <span class="attachment__size">{size_words(file.size)}</span>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    })
}

/// The composer's files: uploaded and waiting to go with the next message, being uploaded
/// (name and progress), and what went wrong.
#[derive(Clone, Copy)]
pub(super) struct PendingFiles {
    pub(super) ready: RwSignal<Vec<Attachment>>,
    uploading: RwSignal<Vec<(String, f64)>>,
    errors: RwSignal<Vec<String>>,
}

impl PendingFiles {
    pub(super) fn new() -> Self {
        Self {
            ready: RwSignal::new(Vec::new()),
            uploading: RwSignal::new(Vec::new()),
            errors: RwSignal::new(Vec::new()),
        }
    }

    /// Whether an upload is still running (the message waits for it).
    pub(super) fn uploading(self) -> bool {
        self.uploading.with(|uploading| !uploading.is_empty())
    }

    /// The files for the message being sent; the composer starts empty again.
    pub(super) fn take(self) -> Vec<Attachment> {
        self.errors.set(Vec::new());
        self.ready.try_update(std::mem::take).unwrap_or_default()
    }

    /// Uploads `files`, each with its progress, into the files waiting to go. A server that
    /// keeps no files refuses them.
    fn add(self, files: Vec<crate::browser::File>) {
        let PendingFiles { ready, uploading, errors } = self;
        let refused = WithoutStorage::Refused("this server keeps no files, so messages cannot carry them.");
        crate::browser::upload_files(files, uploading, errors, refused, move |stored| {
            let Ok(file) = serde_json::from_value::<Attachment>(stored) else {
                return Err("the server's answer could not be read.".to_string());
            };
            ready.update(|files| files.push(file));
            Ok(())
        });
    }
}

/// The Attach button: a file picker (several files at once) that uploads what is chosen.
#[component]
pub(super) fn AttachButton(pending: PendingFiles, busy: RwSignal<bool>) -> impl IntoView {
    view! {
        <label class="composer__attach" title="Attach files">
            <input
                type="file"
                multiple
                class="visually-hidden"
                data-testid="attach-files"
                disabled=move || busy.get()
                on:change=move |event| pending.add(crate::browser::chosen_files(&event))
            />
            <span aria-hidden="true">"+"</span>
            <span class="visually-hidden">"Attach files"</span>
        </label>
    }
}

/// The files waiting to go, each with a Remove button, and the uploads still running.
#[component]
pub(super) fn PendingList(pending: PendingFiles) -> impl IntoView {
    let PendingFiles { ready, uploading, errors } = pending;
    view! {
        <Show when=move || {
            !ready.with(Vec::is_empty) || !uploading.with(Vec::is_empty) || !errors.with(Vec::is_empty)
        }>
            <div class="composer__files" data-testid="pending-files">
                <ul class="attachments" aria-label="Files to send">
                    {move || {
                        ready
                            .get()
                            .into_iter()
                            .map(|file| {
                                let id = file.file_id.clone();
                                view! {
                                    <li class="attachment" data-testid="attachment">
                                        <Thumbnail
                                            file_id=file.file_id.clone()
                                            filename=file.filename.clone()
                                            mime_type=file.mime_type.clone()
                                        />
                                        <span class="attachment__name">{file.filename.clone()}</span>
                                        <span class="attachment__size">{size_words(file.size)}</span>
                                        <button
                                            type="button"
                                            class="attachment__remove"
                                            aria-label=format!("Remove {}", file.filename)
                                            on:click=move |_| ready.update(|files| files.retain(|f| f.file_id != id))
                                        >
                                            "×"
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                    {move || {
                        uploading
                            .get()
                            .into_iter()
                            .map(|(name, done)| {
                                view! {
                                    <li class="attachment attachment--uploading">
                                        <span class="attachment__name">{name}</span>
                                        <span class="attachment__size">{format!("{:.0} %", done * 100.0)}</span>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
                {move || {
                    errors
                        .get()
                        .into_iter()
                        .map(|error| {
                            view! {
                                <p class="error" role="alert">
                                    {error}
                                </p>
                            }
                        })
                        .collect_view()
                }}
            </div>
        </Show>
    }
}

/// Files dropped onto the chat's main area, or pasted while the focus is in it, join the files
/// to send, as the Attach button's do (and, like it, not while a reply runs). While files are
/// dragged over the area, this zone covers it and says where they go.
#[component]
pub(super) fn DropZone(pending: PendingFiles, busy: RwSignal<bool>) -> impl IntoView {
    let zone = NodeRef::<leptos::html::Div>::new();
    let dragging = RwSignal::new(false);
    Effect::new(move |_| {
        let main_area = zone.get().and_then(|zone| zone.closest(".chat__main").ok().flatten());
        if let Some(main_area) = main_area {
            crate::browser::receive_files(&main_area, dragging, move |files| {
                if !busy.get_untracked() {
                    pending.add(files);
                }
            });
        }
    });
    view! {
        <div
            node_ref=zone
            class="drop-zone"
            class:drop-zone--shown=move || dragging.get() && !busy.get()
            data-testid="drop-zone"
            aria-hidden="true"
        >
            <p class="drop-zone__label">"Drop files here to attach them to your message"</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::size_words;

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size_words(512), "512 B");
        assert_eq!(size_words(12_345), "13 KB");
        assert_eq!(size_words(2_500_000), "2.5 MB");
    }
}
