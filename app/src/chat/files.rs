//! Picked files as `files` answer refs (browser only): base64 data URLs, the contract's
//! fallback when the bytes travel with the answer.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use js_sys::Uint8Array;
use serde_json::{Value, json};
use wasm_bindgen_futures::JsFuture;

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
pub async fn data_url_ref(file: &web_sys::File) -> Option<Value> {
    let buffer = JsFuture::from(file.array_buffer()).await.ok()?;
    let bytes = Uint8Array::new(&buffer).to_vec();
    let mime_type = mime_type(file);
    let url = format!("data:{mime_type};base64,{}", BASE64.encode(&bytes));
    Some(json!({"url": url, "filename": file.name(), "mimeType": mime_type, "size": bytes.len()}))
}
