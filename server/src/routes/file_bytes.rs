//! `GET /files/{id}`: an upload's bytes, to its owner only. Anyone else, signed out included, is
//! told there is no such file, so an id reveals nothing. What a browser could run or render as a
//! page (HTML, SVG, XML, scripts, any type not known to be inert) is served as bytes to save,
//! and the response is sandboxed besides: an upload never runs as this site.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use palaver_contract::asks::{ASK_FILE_ACCEPT, FileAccept, accepted_file_mime_types};
use palaver_core::accounts::auth::{Accounts, resolve_caller};
use palaver_core::uploads::Uploads;

use crate::problem::{Problem, ProblemBody};

/// The policy of a served file: nothing in it may run, load or submit anything.
const SANDBOX: &str = "sandbox; default-src 'none'";

/// Where a browser puts a served file.
#[derive(Debug, PartialEq)]
enum Disposition {
    /// Shown in the page (an image: a thumbnail's `<img>`).
    Inline,
    /// Saved as a download.
    Attachment,
}

/// The type a stored file is served as, and where it goes: an image as itself, in place; a
/// PDF, text, CSV or JSON file as itself, to save; anything else as opaque bytes, to save.
fn served_as(mime_type: &str) -> (&'static str, Disposition) {
    let known = |types: &[&'static str]| types.iter().copied().find(|known| *known == mime_type);
    if let Some(image) = known(FileAccept::Image.mime_types()) {
        (image, Disposition::Inline)
    } else if let Some(inert) = known(&accepted_file_mime_types(&ASK_FILE_ACCEPT)) {
        (inert, Disposition::Attachment)
    } else {
        ("application/octet-stream", Disposition::Attachment)
    }
}

/// `Content-Disposition` with the name RFC 5987-encoded (`filename*=UTF-8''…`): every byte but
/// the few the RFC lets stand is percent-encoded, so quotes, semicolons, line breaks and
/// non-ASCII letters can neither break the header nor change its meaning.
fn content_disposition(disposition: &Disposition, filename: &str) -> HeaderValue {
    let kind = match disposition {
        Disposition::Inline => "inline",
        Disposition::Attachment => "attachment",
    };
    let encoded: String = filename
        .bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (byte as char).to_string(),
            b'!' | b'#' | b'$' | b'&' | b'+' | b'-' | b'.' | b'^' | b'_' | b'`' | b'|' | b'~' => {
                (byte as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect();
    // Only ASCII is left, so the value is always a valid header; were it not, the file would
    // still be saved, under a name the browser picks.
    HeaderValue::from_str(&format!("{kind}; filename*=UTF-8''{encoded}"))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

fn not_found() -> Problem {
    Problem::new(StatusCode::NOT_FOUND, "File not found")
        .with_detail("There is no file of yours with this id. Upload it again with POST /files/upload.")
}

#[utoipa::path(get, path = "/files/{id}", tag = "files", operation_id = "files_read",
    summary = "Download a file",
    description = "An upload's bytes, for its owner only: anyone else, signed out included, gets 404. \
        Images are served as themselves to show in place; PDF, text, CSV and JSON as themselves to save; \
        anything else as application/octet-stream to save.",
    params(("id" = String, Path, description = "The upload's id, as POST /files/upload returned it")),
    responses((status = 200, description = "The file's bytes", content(
            (String = "image/jpeg"), (String = "image/png"), (String = "image/gif"), (String = "image/webp"),
            (String = "application/pdf"), (String = "text/plain"), (String = "text/csv"),
            (Value = "application/json"), (String = "application/octet-stream"))),
        (status = 404, description = "No such file of the caller's", body = ProblemBody)))]
pub async fn read_file(
    State(uploads): State<Uploads>,
    State(accounts): State<Accounts>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Response, Problem> {
    let (Some(caller), Some(store)) = (resolve_caller(&accounts, &headers).await?, &uploads.files) else {
        return Err(not_found());
    };
    let Some((file, bytes)) = store.load_owned_file(&uploads.pool, &caller.user.id, &id).await? else {
        return Err(not_found());
    };
    let (content_type, disposition) = served_as(&file.mime_type);
    let response_headers = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (header::CONTENT_DISPOSITION, content_disposition(&disposition, &file.filename)),
        (header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(SANDBOX)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        (header::CACHE_CONTROL, HeaderValue::from_static("private")),
    ];
    Ok((response_headers, bytes).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_inert_types_keep_their_type_and_only_images_show_in_place() {
        assert_eq!(served_as("image/png"), ("image/png", Disposition::Inline));
        assert_eq!(served_as("image/webp"), ("image/webp", Disposition::Inline));
        assert_eq!(served_as("application/pdf"), ("application/pdf", Disposition::Attachment));
        assert_eq!(served_as("text/csv"), ("text/csv", Disposition::Attachment));
        for active in ["text/html", "image/svg+xml", "application/xml", "text/xml", "text/javascript", "x/unknown"] {
            assert_eq!(served_as(active), ("application/octet-stream", Disposition::Attachment), "{active}");
        }
    }

    #[test]
    fn names_are_encoded_so_nothing_in_them_can_break_the_header() {
        assert_eq!(content_disposition(&Disposition::Inline, "photo.png"), "inline; filename*=UTF-8''photo.png");
        assert_eq!(
            content_disposition(&Disposition::Attachment, "a \"b\";\r\nc=é.txt"),
            "attachment; filename*=UTF-8''a%20%22b%22%3B%0D%0Ac%3D%C3%A9.txt"
        );
    }
}
