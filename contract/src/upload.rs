//! The upload form's rules (`POST /files/upload`, multipart field `file`): the name a file is
//! kept under and its MIME type.

use crate::asks::ASK_LIMITS;

/// The multipart field that carries the file; other fields are skipped.
pub const FILE_FIELD: &str = "file";

/// The name an uploaded file is kept under: the part's file name, trimmed (`upload` when it has
/// none); an error naming the rule when it is empty or too long.
pub fn upload_file_name(declared: Option<&str>) -> Result<String, String> {
    let name = declared.unwrap_or("upload").trim();
    let max = ASK_LIMITS.files.filename_max_length;
    if name.is_empty() || name.chars().count() > max {
        return Err(format!("A file name has 1 to {max} characters."));
    }
    Ok(name.to_string())
}

/// A MIME type without parameters, lower-cased; a generic one is guessed from the extension.
pub fn upload_mime_type(declared: Option<&str>, filename: &str) -> String {
    let declared = declared.unwrap_or_default().split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    if !declared.is_empty() && declared != "application/octet-stream" {
        return declared;
    }
    let extension = filename.rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
    match extension.as_str() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "txt" | "md" => "text/plain",
        "csv" => "text/csv",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_types() {
        assert_eq!(upload_file_name(None).as_deref(), Ok("upload"));
        assert_eq!(upload_file_name(Some("  notes.md ")).as_deref(), Ok("notes.md"));
        assert!(upload_file_name(Some("   ")).unwrap_err().contains("1 to"));
        assert!(upload_file_name(Some(&"é".repeat(ASK_LIMITS.files.filename_max_length + 1))).is_err());
        assert_eq!(upload_mime_type(Some("Text/Plain; charset=utf-8"), "x.bin"), "text/plain");
        assert_eq!(upload_mime_type(Some("application/octet-stream"), "photo.JPG"), "image/jpeg");
        assert_eq!(upload_mime_type(None, "archive"), "application/octet-stream");
    }
}
