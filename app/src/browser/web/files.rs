//! Files a person gives the page, uploaded (`POST /files/upload`) with their progress, or read
//! as base64 data URLs, the contract's fallback when the bytes travel with an ask's answer.
//! They come from a file input, a drop or a paste: each source only finds the files, and one
//! upload path takes them all.

use std::cell::Cell;
use std::rc::Rc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use js_sys::Uint8Array;
use leptos::prelude::{RwSignal, Set, StoredValue, Update};
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;

use crate::browser::WithoutStorage;

/// Uploads `files` one after the other: each is listed in `uploading` (name and progress)
/// while it goes, then its answer ref is handed to `keep`; what fails, or what `keep`
/// refuses, is said in `errors` after the file's name. (On the server, nothing: handlers
/// never run.)
pub fn upload_files(
    files: Vec<web_sys::File>,
    uploading: RwSignal<Vec<(String, f64)>>,
    errors: RwSignal<Vec<String>>,
    without_storage: WithoutStorage,
    keep: impl Fn(Value) -> Result<(), String> + 'static,
) {
    leptos::task::spawn_local(async move {
        for file in files {
            let kept = match upload_listed(&file, uploading).await {
                Uploaded::Stored(reference) => keep(reference),
                Uploaded::StorageOff => match without_storage {
                    WithoutStorage::DataUrl => match data_url_ref(&file).await {
                        Some(reference) => keep(reference),
                        // A file the browser cannot read is left out.
                        None => Ok(()),
                    },
                    WithoutStorage::Refused(reason) => Err(reason.to_string()),
                },
                Uploaded::Failed(error) => Err(error),
            };
            if let Err(error) = kept {
                errors.update(|e| e.push(format!("{}: {error}", file.name())));
            }
        }
    });
}

/// The files chosen in the file input `event` came from; the input is emptied, so choosing
/// the same file again is seen.
pub fn chosen_files(event: &leptos::ev::Event) -> Vec<web_sys::File> {
    let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
        return Vec::new();
    };
    let files = element.files().map(|list| listed(&list));
    element.set_value("");
    files.unwrap_or_default()
}

/// Files dropped onto `area`, or pasted while the focus is inside it, go to `on_files`;
/// `dragging` says whether files are being dragged over it (to show where they would go).
/// The area takes them: they go no further up the page (a files card takes its own before the
/// chat around it), and the browser neither opens a dropped file nor pastes its name. A drag
/// or paste without files is left alone. Listening ends with the reactive owner this is called
/// under (call it from an effect).
pub fn receive_files(
    area: &web_sys::Element,
    dragging: RwSignal<bool>,
    on_files: impl Fn(Vec<web_sys::File>) + 'static,
) {
    // Every element crossed inside the area brings a dragenter and a dragleave: the drag has
    // left the area when they balance.
    let depth = Rc::new(Cell::new(0_u32));
    let enter_depth = depth.clone();
    let leave_depth = depth.clone();
    let on_files = Rc::new(on_files);
    let on_paste = on_files.clone();
    let listeners: Vec<(&'static str, Listener)> = vec![
        (
            "dragenter",
            taking_drags(move |_| {
                enter_depth.set(enter_depth.get() + 1);
                dragging.set(true);
            }),
        ),
        // Taken, so the browser lets the files drop here.
        ("dragover", taking_drags(|_| {})),
        (
            "dragleave",
            taking_drags(move |_| {
                leave_depth.set(leave_depth.get().saturating_sub(1));
                if leave_depth.get() == 0 {
                    dragging.set(false);
                }
            }),
        ),
        (
            "drop",
            taking_drags(move |transfer| {
                depth.set(0);
                dragging.set(false);
                on_files(transfer.files().map(|list| listed(&list)).unwrap_or_default());
            }),
        ),
        (
            "paste",
            Closure::new(move |event: web_sys::Event| {
                let pasted = event.dyn_ref::<web_sys::ClipboardEvent>().and_then(|paste| paste.clipboard_data());
                let files = pasted.and_then(|transfer| transfer.files()).map(|list| listed(&list)).unwrap_or_default();
                if !files.is_empty() {
                    event.prevent_default();
                    event.stop_propagation();
                    on_paste(files);
                }
            }),
        ),
    ];
    for (name, listener) in &listeners {
        let _ = area.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
    }
    StoredValue::new_local(Listening { area: area.clone(), listeners });
}

/// A listener for a drag event that carries files: it takes the event (no default, no further
/// up the page) and hands `then` the files' transfer. Other drags pass by.
fn taking_drags(then: impl Fn(&web_sys::DataTransfer) + 'static) -> Listener {
    Closure::new(move |event: web_sys::Event| {
        let transfer = event.dyn_ref::<web_sys::DragEvent>().and_then(web_sys::DragEvent::data_transfer);
        let Some(transfer) = transfer.filter(|transfer| transfer.types().includes(&"Files".into(), 0)) else {
            return;
        };
        event.prevent_default();
        event.stop_propagation();
        then(&transfer);
    })
}

type Listener = Closure<dyn Fn(web_sys::Event)>;

/// An area's listeners, removed when the owner that keeps them is cleaned up.
struct Listening {
    area: web_sys::Element,
    listeners: Vec<(&'static str, Listener)>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        for (name, listener) in &self.listeners {
            let _ = self.area.remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
    }
}

fn listed(list: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..list.length()).filter_map(|index| list.get(index)).collect()
}

/// A MIME type for a picked file: what the browser reports, or a guess from the extension.
fn mime_type(file: &web_sys::File) -> String {
    let reported = file.type_();
    if !reported.is_empty() && reported != "application/octet-stream" {
        return reported.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    }
    let name = file.name().to_ascii_lowercase();
    match name.rsplit('.').next().unwrap_or_default() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "csv" => "text/csv",
        "json" => "application/json",
        "txt" | "md" => "text/plain",
        _ => "application/octet-stream",
    }
    .to_string()
}

/// `{url, filename, mimeType, size}` for a picked file.
async fn data_url_ref(file: &web_sys::File) -> Option<Value> {
    let buffer = JsFuture::from(file.array_buffer()).await.ok()?;
    let bytes = Uint8Array::new(&buffer).to_vec();
    let mime_type = mime_type(file);
    let url = format!("data:{mime_type};base64,{}", BASE64.encode(&bytes));
    Some(json!({"url": url, "filename": file.name(), "mimeType": mime_type, "size": bytes.len()}))
}

/// How an upload ended.
enum Uploaded {
    /// Stored: the answer ref with its `fileId`.
    Stored(Value),
    /// The server keeps no files: send the bytes as a data URL instead.
    StorageOff,
    Failed(String),
}

/// Uploads a picked file, listed in `uploading` (name and progress) while it goes.
async fn upload_listed(file: &web_sys::File, uploading: RwSignal<Vec<(String, f64)>>) -> Uploaded {
    let name = file.name();
    uploading.update(|u| u.push((name.clone(), 0.0)));
    let progress_name = name.clone();
    let result = upload(file, move |done| {
        uploading.update(|u| u.iter_mut().filter(|(n, _)| *n == progress_name).for_each(|(_, p)| *p = done))
    })
    .await;
    uploading.update(|u| u.retain(|(n, _)| *n != name));
    result
}

/// Uploads a picked file to `POST /files/upload`, reporting progress from 0 to 1.
async fn upload(file: &web_sys::File, on_progress: impl Fn(f64) + 'static) -> Uploaded {
    let Ok(request) = web_sys::XmlHttpRequest::new() else {
        return Uploaded::Failed("Uploads are not available.".into());
    };
    let Ok(form) = web_sys::FormData::new() else { return Uploaded::Failed("Uploads are not available.".into()) };
    if form.append_with_blob_and_filename("file", file, &file.name()).is_err()
        || request.open_with_async("POST", "/files/upload", true).is_err()
    {
        return Uploaded::Failed("The file could not be prepared.".into());
    }
    let progress = Closure::<dyn FnMut(web_sys::ProgressEvent)>::new(move |event: web_sys::ProgressEvent| {
        if event.length_computable() && event.total() > 0.0 {
            on_progress(event.loaded() / event.total());
        }
    });
    if let Ok(upload) = request.upload() {
        upload.set_onprogress(Some(progress.as_ref().unchecked_ref()));
    }
    let finished = js_sys::Promise::new(&mut |resolve, _reject| {
        let done = Closure::once_into_js(move || {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        });
        request.set_onloadend(Some(done.unchecked_ref()));
    });
    if request.send_with_opt_form_data(Some(&form)).is_err() {
        return Uploaded::Failed("The file could not be sent.".into());
    }
    let _ = JsFuture::from(finished).await;
    drop(progress);
    let body: Value =
        request.response_text().ok().flatten().and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
    match request.status().unwrap_or(0) {
        201 => Uploaded::Stored(json!({
            "fileId": body["id"], "filename": body["filename"], "mimeType": body["mimeType"], "size": body["size"]
        })),
        404 => Uploaded::StorageOff,
        0 => Uploaded::Failed("The server could not be reached.".into()),
        _ => Uploaded::Failed(
            body["detail"].as_str().or(body["title"].as_str()).unwrap_or("The upload failed.").to_string(),
        ),
    }
}
