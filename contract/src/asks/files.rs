//! Files helpers: accepted MIME types, data URLs, byte sniffing and the server byte check.

use super::errors::{AskError, AskErrorCode, Loc};
use super::input::FileAccept;

/// The MIME types an accept list allows, each once, in accept order (`acceptedFileMimeTypes`).
pub fn accepted_file_mime_types(accept: &[FileAccept]) -> Vec<&'static str> {
    let mut types: Vec<&'static str> = Vec::new();
    for mime in accept.iter().flat_map(|accept| accept.mime_types()) {
        if !types.contains(mime) {
            types.push(mime);
        }
    }
    types
}

/// Whether a file of this type reaches the model as text (`isTextFileMimeType`).
pub fn is_text_file_mime_type(mime_type: &str) -> bool {
    matches!(mime_type, "text/plain" | "text/csv" | "application/json")
}

/// A base64 `data:` URL, split (`parseAskDataUrl`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataUrl<'a> {
    pub media_type: String,
    pub base64: &'a str,
}

impl DataUrl<'_> {
    /// How many bytes the payload decodes to.
    pub fn byte_length(&self) -> usize {
        let padding = if self.base64.ends_with("==") { 2 } else { usize::from(self.base64.ends_with('=')) };
        (self.base64.len() / 4 * 3).saturating_sub(padding)
    }
}

pub fn parse_ask_data_url(url: &str) -> Option<DataUrl<'_>> {
    let rest = url.strip_prefix("data:")?;
    let (params, payload) = rest.split_once(',')?;
    let params: Vec<&str> = params.split(';').collect();
    if params.len() < 2 || !params.last()?.eq_ignore_ascii_case("base64") {
        return None;
    }
    let media_type = params[0].trim().to_ascii_lowercase();
    let padding = payload.len() - payload.trim_end_matches('=').len();
    let body_ok =
        payload.trim_end_matches('=').bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/');
    if media_type.is_empty() || payload.len() % 4 != 0 || padding > 2 || !body_ok {
        return None;
    }
    Some(DataUrl { media_type, base64: payload })
}

/// What a file's first bytes show (`SniffedFileType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SniffedFileType {
    /// A binary type with a signature, by MIME type.
    Binary(&'static str),
    /// Valid UTF-8 without NUL characters.
    Text,
    Unknown,
}

pub fn sniff_file_bytes(bytes: &[u8]) -> SniffedFileType {
    let signatures: [(&[u8], &'static str); 6] = [
        (&[0xFF, 0xD8, 0xFF], "image/jpeg"),
        (&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
        (b"GIF87a", "image/gif"),
        (b"GIF89a", "image/gif"),
        (b"%PDF-", "application/pdf"),
        (b"RIFF", "image/webp"),
    ];
    for (signature, mime) in signatures {
        let webp_ok = mime != "image/webp" || bytes.get(8..12) == Some(b"WEBP");
        if bytes.starts_with(signature) && webp_ok {
            return SniffedFileType::Binary(mime);
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(text) if !text.contains('\0') => SniffedFileType::Text,
        _ => SniffedFileType::Unknown,
    }
}

/// Bytes as file sizes are written in messages: `N bytes`, `x KB` or `x MB` (one decimal).
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let round = |value: f64| {
        let rounded = (value * 10.0).round() / 10.0;
        super::errors::js_number(rounded)
    };
    match bytes {
        1 => "1 byte".to_string(),
        0..1024 => format!("{bytes} bytes"),
        1024..1_048_576 => format!("{} KB", round(bytes as f64 / KIB)),
        _ => format!("{} MB", round(bytes as f64 / KIB / KIB)),
    }
}

pub(crate) fn too_large(at: Loc<'_>, size: u64, cap: u64) -> AskError {
    AskError::new(
        at.path(),
        AskErrorCode::FILE_TOO_LARGE,
        format!("The file is {}, but the limit is {}.", format_bytes(size), format_bytes(cap)),
        format!("Send a file of {} or less.", format_bytes(cap)),
    )
}

/// The server's check of one file's bytes against its declared type and the cap
/// (`checkAskFileBytes`); errors are at `content.files[index]`.
pub fn check_ask_file_bytes(bytes: &[u8], index: usize, mime_type: &str, max_file_size_bytes: u64) -> Vec<AskError> {
    let root = Loc::Root;
    let content = root.key("content");
    let files = content.key("files");
    let file = files.index(index);
    let size = bytes.len() as u64;
    if size > max_file_size_bytes {
        return vec![too_large(file.key("size"), size, max_file_size_bytes)];
    }
    let sniffed = sniff_file_bytes(bytes);
    let matches = if is_text_file_mime_type(mime_type) {
        sniffed == SniffedFileType::Text
            && (mime_type != "application/json" || serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok())
    } else {
        matches!(sniffed, SniffedFileType::Binary(sniffed) if sniffed == mime_type)
    };
    if matches {
        return Vec::new();
    }
    let shown = match sniffed {
        SniffedFileType::Binary(mime) => mime,
        SniffedFileType::Text => "text",
        SniffedFileType::Unknown => "no accepted type",
    };
    vec![AskError::new(
        file.key("mimeType").path(),
        AskErrorCode::MIME_MISMATCH,
        format!("The file is declared as {mime_type}, but its bytes are {shown}."),
        format!("Send the file with its real type, or a file that is {mime_type}."),
    )]
}

/// The error for a `fileId` that is not one of the caller's uploads (`fileNotOwnedError`).
pub fn file_not_owned_error(index: usize) -> AskError {
    let root = Loc::Root;
    let content = root.key("content");
    let files = content.key("files");
    let file = files.index(index);
    AskError::new(
        file.key("fileId").path(),
        AskErrorCode::FILE_NOT_OWNED,
        "The file id does not name one of your uploads.",
        "Upload the file with POST /files/upload and send the id it returns, or send a data: URL.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_urls() {
        let url = parse_ask_data_url("data:image/png;base64,iVBORw0KGgo=").unwrap();
        assert_eq!(url.media_type, "image/png");
        assert_eq!(url.byte_length(), 8);
        assert!(parse_ask_data_url("data:text/plain,hello").is_none(), "URL-encoded is refused");
        assert!(parse_ask_data_url("data:;base64,aGk=").is_none());
        assert!(parse_ask_data_url("data:text/plain;base64,aGk").is_none(), "length must be a multiple of 4");
        assert!(parse_ask_data_url("https://example.com/x.png").is_none());
        assert_eq!(parse_ask_data_url("data: Text/Plain ;charset=utf-8;BASE64,aGk=").unwrap().media_type, "text/plain");
    }

    #[test]
    fn sniffing() {
        assert_eq!(sniff_file_bytes(b"\x89PNG\r\n\x1a\nrest"), SniffedFileType::Binary("image/png"));
        assert_eq!(sniff_file_bytes(b"RIFF\0\0\0\0WEBPVP8"), SniffedFileType::Binary("image/webp"));
        assert_eq!(sniff_file_bytes(b"RIFF\0\0\0\0WAVE"), SniffedFileType::Unknown);
        assert_eq!(sniff_file_bytes(b"%PDF-1.7"), SniffedFileType::Binary("application/pdf"));
        assert_eq!(sniff_file_bytes("a,b\n1,2 ✓".as_bytes()), SniffedFileType::Text);
        assert_eq!(sniff_file_bytes(b"a\0b"), SniffedFileType::Unknown);
    }

    #[test]
    fn byte_checks() {
        assert!(check_ask_file_bytes(b"\x89PNG\r\n\x1a\n", 0, "image/png", 100).is_empty());
        let spoofed = check_ask_file_bytes(b"just text", 1, "image/png", 100);
        assert_eq!(spoofed[0].code, AskErrorCode::MIME_MISMATCH);
        assert_eq!(spoofed[0].path.to_string(), "content.files[1].mimeType");
        assert_eq!(spoofed[0].message, "The file is declared as image/png, but its bytes are text.");
        assert_eq!(check_ask_file_bytes(b"{not json", 0, "application/json", 100)[0].code, AskErrorCode::MIME_MISMATCH);
        assert!(check_ask_file_bytes(b"{\"ok\": true}", 0, "application/json", 100).is_empty());
        let big = check_ask_file_bytes(&[b'a'; 2048], 0, "text/plain", 1024);
        assert_eq!(big[0].code, AskErrorCode::FILE_TOO_LARGE);
        assert_eq!(big[0].message, "The file is 2 KB, but the limit is 1 KB.");
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(format_bytes(1), "1 byte");
        assert_eq!(format_bytes(1023), "1023 bytes");
        assert_eq!(format_bytes(1536), "1.5 KB");
        assert_eq!(format_bytes(10 * 1024 * 1024), "10 MB");
        assert_eq!(accepted_file_mime_types(&[FileAccept::Csv, FileAccept::Image, FileAccept::Csv]).len(), 5);
    }
}
