//! Files as the model sees them, from a `files` answer or attached to a message. A message's
//! attachments are uploads of its sender (`POST /files/upload`), loaded and checked before
//! anything is written; the row keeps their names and types, the model gets their bytes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;

use super::TurnRunner;
use crate::error::{AppError, AppResult};
use crate::llm::ContentPart;
use palaver_contract::asks::{ASK_LIMITS, check_ask_file_bytes, is_text_file_mime_type};
use palaver_wire::conversation::model::Attachment;

/// The most files one message may carry (as many as a `files` ask may take).
pub const MAX_ATTACHMENTS: usize = ASK_LIMITS.files.max_files;

/// A file as the model sees it: images and PDFs as they are, text cut to its first 100 KB.
fn file_part(filename: &str, mime_type: &str, bytes: &[u8]) -> ContentPart {
    if is_text_file_mime_type(mime_type) {
        let limit = ASK_LIMITS.files.text_max_bytes;
        let text = String::from_utf8_lossy(bytes);
        if bytes.len() <= limit {
            return ContentPart::Text { text: text.into_owned() };
        }
        let mut end = limit;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let note = format!("[The file is cut to its first {end} of {} bytes.]", bytes.len());
        return ContentPart::Text { text: format!("{}\n{note}", &text[..end]) };
    }
    let data = BASE64.encode(bytes);
    if mime_type.starts_with("image/") {
        ContentPart::ImageData { mime_type: mime_type.to_string(), data }
    } else {
        ContentPart::FileData { mime_type: mime_type.to_string(), filename: filename.to_string(), data }
    }
}

/// File `index` of `count`: a line naming it, then the file.
pub(super) fn described_file_parts(
    index: usize,
    count: usize,
    filename: &str,
    mime_type: &str,
    bytes: &[u8],
) -> [ContentPart; 2] {
    let line = format!("File {} of {count}: {filename} ({mime_type}, {} bytes)", index + 1, bytes.len());
    [ContentPart::Text { text: line }, file_part(filename, mime_type, bytes)]
}

/// A message's attachments: as its row keeps them, and as the model gets them.
#[derive(Default)]
pub(super) struct Attached {
    pub(super) rows: Vec<Attachment>,
    pub(super) parts: Vec<ContentPart>,
}

impl TurnRunner {
    /// Loads and checks the files `file_ids` names: each an upload of `owner_id`, within the
    /// size cap, its bytes what its type says. Any problem refuses the whole message.
    pub(super) async fn load_attachments(&self, owner_id: &str, file_ids: &[String]) -> AppResult<Attached> {
        if file_ids.is_empty() {
            return Ok(Attached::default());
        }
        let refuse = |message: String| Err(AppError::BadRequest(message).into());
        if file_ids.len() > MAX_ATTACHMENTS {
            return refuse(format!("A message can carry at most {MAX_ATTACHMENTS} attachments."));
        }
        if let Some(twice) = file_ids.iter().enumerate().find(|(index, id)| file_ids[..*index].contains(id)) {
            return refuse(format!("attachments[{}]: {} is attached twice.", twice.0, twice.1));
        }
        let Some(store) = &self.dependencies.files else {
            return refuse("This server keeps no files, so a message cannot carry attachments.".into());
        };
        let mut attached = Attached::default();
        for (index, id) in file_ids.iter().enumerate() {
            let Some((file, bytes)) = store.load_owned_file(&self.pool, owner_id, id).await? else {
                return refuse(format!(
                    "attachments[{index}]: there is no upload {id} of yours. Upload the file with POST /files/upload and attach the id it returns."
                ));
            };
            if let Some(problem) =
                check_ask_file_bytes(&bytes, index, &file.mime_type, self.settings.max_file_size_bytes).first()
            {
                return refuse(format!(
                    "attachments[{index}] ({}): {} {}",
                    file.filename, problem.message, problem.fix
                ));
            }
            attached.parts.extend(described_file_parts(index, file_ids.len(), &file.filename, &file.mime_type, &bytes));
            attached.rows.push(Attachment {
                file_id: file.id,
                filename: file.filename,
                mime_type: file.mime_type,
                size: file.size,
            });
        }
        Ok(attached)
    }
}
