//! Files attached to a message: the composer's Attach button uploads them (`POST /files/upload`)
//! and lists them until the message goes; a sent message lists the files it carried.

use leptos::prelude::*;

use crate::browser::WithoutStorage;
use palaver_wire::conversation::model::Attachment;

/// A size as people read it.
fn size_words(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{} KB", bytes.div_ceil(1_000)),
        _ => format!("{:.1} MB", bytes as f64 / 1_000_000.0),
    }
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
                on:change=move |event| upload_chosen(&event, pending)
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

/// Uploads the chosen files, each with its progress, into the files waiting to go. A server
/// that keeps no files refuses them.
fn upload_chosen(event: &leptos::ev::Event, pending: PendingFiles) {
    let PendingFiles { ready, uploading, errors } = pending;
    let refused = WithoutStorage::Refused("this server keeps no files, so messages cannot carry them.");
    crate::browser::upload_chosen(event, uploading, errors, refused, move |stored| {
        let Ok(file) = serde_json::from_value::<Attachment>(stored) else {
            return Err("the server's answer could not be read.".to_string());
        };
        ready.update(|files| files.push(file));
        Ok(())
    });
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
