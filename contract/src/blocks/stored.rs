//! How a checked reply is stored: its text, plus its errors when it did not validate, so a
//! later turn's model sees what went wrong; and how the document is read back out.

use super::validate::BlocksCheck;

const ERRORS_HEADING: &str = "\n\nBlock validation errors:\n";

pub fn error_lines(check: &BlocksCheck) -> String {
    check
        .errors
        .iter()
        .map(|error| format!("- {} {} {}", error.path, error.code, error.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a reply is stored as: its text, plus its errors when it did not validate (so a later
/// turn's model sees what went wrong). Prose stays as it was: it is shown as text.
pub fn stored_text(text: &str, check: &BlocksCheck) -> String {
    if check.ok || check.is_prose() {
        text.to_string()
    } else {
        format!("{text}{ERRORS_HEADING}{}", error_lines(check))
    }
}

/// The document part of a stored reply.
pub fn document_of(stored: &str) -> &str {
    stored.split_once(ERRORS_HEADING).map_or(stored, |(document, _)| document)
}
