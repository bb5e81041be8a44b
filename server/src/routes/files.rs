//! `POST /files/upload`: stores one file (multipart field `file`) for the caller, streaming it
//! to disk and refusing it with 413 as soon as it passes the cap.

use axum::Json;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use palaver_contract::asks::format_bytes;
use palaver_contract::upload::{FILE_FIELD, upload_file_name, upload_mime_type};
use palaver_core::uploads::{UploadError, UploadedFile, Uploads};

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// Room for the multipart framing around the file itself.
const MULTIPART_OVERHEAD: u64 = 64 * 1024;

fn too_large(size: u64, cap: u64) -> Problem {
    Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "File too large").with_detail(format!(
        "The file is over {}, but the limit is {}.",
        format_bytes(size.min(cap + 1)),
        format_bytes(cap)
    ))
}

fn bad_upload(err: impl std::fmt::Display) -> Problem {
    Problem::bad_request("Invalid upload").with_detail(err.to_string())
}

#[utoipa::path(post, path = "/files/upload", tag = "files", operation_id = "files_upload",
    summary = "Upload a file",
    description = "Upload a file (multipart field \"file\") to attach or to answer a files ask",
    request_body(content_type = "multipart/form-data", content = String),
    responses((status = 201, description = "Stored", body = UploadedFile),
        (status = 413, description = "Over the upload cap", body = ProblemBody)))]
pub async fn upload(
    State(uploads): State<Uploads>,
    Authenticated(caller): Authenticated,
    headers: HeaderMap,
    mut multipart: Multipart,
) -> Result<Response, Problem> {
    let Some(store) = &uploads.files else {
        return Err(
            Problem::new(StatusCode::NOT_FOUND, "File storage is off").with_detail("Send files as data: URLs instead.")
        );
    };
    let cap = uploads.max_file_size_bytes;
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if let Some(length) = declared.filter(|length| *length > cap + MULTIPART_OVERHEAD) {
        return Err(too_large(length, cap));
    }
    while let Some(mut field) = multipart.next_field().await.map_err(bad_upload)? {
        if field.name() != Some(FILE_FIELD) {
            continue;
        }
        let filename = upload_file_name(field.file_name())
            .map_err(|rule| Problem::bad_request("Invalid upload").with_detail(rule))?;
        let mime_type = upload_mime_type(field.content_type(), &filename);
        let mut writer = store.begin(cap).await?;
        loop {
            let chunk = match field.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(err) => {
                    writer.abandon().await;
                    return Err(bad_upload(err));
                }
            };
            match writer.write(&chunk).await {
                Ok(()) => {}
                Err(UploadError::TooLarge { size, cap }) => {
                    writer.abandon().await;
                    return Err(too_large(size, cap));
                }
                Err(UploadError::Storage(err)) => {
                    writer.abandon().await;
                    return Err(err.into());
                }
            }
        }
        let uploaded = writer.finish(store, &uploads.pool, &caller.user.id, &filename, &mime_type).await?;
        return Ok((StatusCode::CREATED, Json(uploaded)).into_response());
    }
    Err(Problem::bad_request("Invalid upload").with_detail("Send the file in a multipart field named \"file\"."))
}
