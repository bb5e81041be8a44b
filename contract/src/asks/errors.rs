//! Ask errors: `{path, code, message, fix}`, their codes, and the order lists are returned in.

#[cfg(test)]
use std::cmp::Ordering;

use serde::Serialize;

pub use crate::path::{Loc, Path, Segment};
pub use crate::text::js_number;

code_enum! {
    /// Every code an ask error can carry (`ASK_ERROR_CODES`).
    AskErrorCode {
        CHANGED_MISMATCH => "A markdown answer's changed flag does not match whether its text differs from the draft.",
        DECLINE_NOT_ALLOWED => "The answer skips an ask that does not allow skipping.",
        DEFAULT_NOT_IN_OPTIONS => "A default names an option id that the ask does not offer.",
        DUPLICATE_ID => "An id appears twice where ids must be unique: options, default, accept, or an answer.",
        DUPLICATE_LABEL => "Two buttons would share a label: options of a compact ask, or a confirm's approve and deny.",
        FIELD_TYPE_MISMATCH => "A form value or default does not fit its field's type: the wrong JSON type, not a whole number, or not a valid email, URL, or phone number.",
        FILE_COUNT => "A files answer has fewer files than minFiles or more than maxFiles.",
        FILE_NOT_OWNED => "A files answer names a fileId that is not an upload of the caller, or the host has no file storage.",
        FILE_TOO_LARGE => "A file is larger than the host's per-file upload cap.",
        FILE_TYPE_NOT_ACCEPTED => "A file's declared type is not one the ask's accept list allows.",
        INVALID_DATE => "A form date, time, or datetime value or default is not a real ISO 8601 value in the field's format.",
        INVALID_ENUM => "A value is not one of the allowed values.",
        INVALID_FORMAT => "A string does not match its required format.",
        INVALID_TYPE => "A value has the wrong type.",
        MIME_MISMATCH => "A file's bytes, or its data URL's media type, do not match the type the answer declares.",
        MISSING_REQUIRED => "A required field is missing.",
        OPTION_NOT_OFFERED => "The answer selects an option id that the ask did not offer.",
        OTHER_NOT_ALLOWED => "An ask or an answer uses Other where the ask does not allow it.",
        OUT_OF_RANGE => "A form number value or default is below the field's min or above its max.",
        RANGE_INVALID => "A count or length bound is out of range: below its minimum, above what the ask offers, or a minimum above its maximum.",
        REQUIRED_FIELD => "A form answer leaves a required field missing or blank.",
        SELECTION_COUNT => "A default or an answer selects the wrong number of options.",
        TOO_FEW => "A list has fewer items than allowed.",
        TOO_LONG => "A string is longer than allowed.",
        TOO_MANY => "A list has more items than allowed.",
        TOO_SHORT => "A string is empty, only whitespace, or shorter than its minimum.",
        UNKNOWN_BUTTON => "The pressed button is not on the pending ask's simple card.",
        UNKNOWN_KEY => "An object has a field that its schema does not define.",
    }
}

/// One problem with an ask or an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AskError {
    pub path: Path,
    pub code: AskErrorCode,
    pub message: String,
    pub fix: String,
}

impl AskError {
    pub fn new(path: Path, code: AskErrorCode, message: impl Into<String>, fix: impl Into<String>) -> Self {
        Self { path, code, message: message.into(), fix: fix.into() }
    }
}

/// Sorts errors by path (segment by segment), then code, and drops repeats of a (path, code).
pub fn finalize(mut errors: Vec<AskError>) -> Vec<AskError> {
    errors.sort_by(|a, b| a.path.ask_order(&b.path).then_with(|| a.code.as_str().cmp(b.code.as_str())));
    errors.dedup_by(|later, earlier| later.path == earlier.path && later.code == earlier.code);
    errors
}

/// A value as error messages quote it: strings over 40 UTF-16 units are cut to 39 plus "…",
/// then JSON-quoted; anything else prints as JavaScript's `String(v)` would.
pub fn quote_value(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => quote_str(text),
        serde_json::Value::Null => "null".to_string(),
        serde_json::Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        serde_json::Value::Object(_) => "[object Object]".to_string(),
        other => other.to_string(),
    }
}

/// A string quoted as in error messages (see [`quote_value`]).
pub fn quote_str(text: &str) -> String {
    let cut = if crate::text::utf16_len(text) > 40 {
        let mut units = 0;
        let kept: String = text
            .chars()
            .take_while(|ch| {
                units += ch.len_utf16();
                units <= 39
            })
            .collect();
        format!("{kept}…")
    } else {
        text.to_string()
    };
    serde_json::Value::String(cut).to_string()
}

/// JavaScript's `String(v)` for a JSON value.
fn js_string(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Null => "null".to_string(),
        serde_json::Value::Array(items) => items.iter().map(js_string).collect::<Vec<_>>().join(","),
        serde_json::Value::Object(_) => "[object Object]".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(path: Path, code: AskErrorCode) -> AskError {
        AskError::new(path, code, "", "")
    }

    #[test]
    fn paths_print_like_the_reference() {
        let root = Path::root();
        assert_eq!(root.to_string(), "");
        assert_eq!(root.key("options").index(2).key("id").to_string(), "options[2].id");
        assert_eq!(root.key("content").key("values").name("due").to_string(), "content.values.due");
        assert_eq!(root.index(0).to_string(), "[0]");
    }

    #[test]
    fn order_is_by_segment_then_code_without_repeats() {
        let root = Path::root();
        let errors = finalize(vec![
            error(root.key("prompt"), AskErrorCode::TOO_SHORT),
            error(root.key("options").index(10), AskErrorCode::INVALID_TYPE),
            error(root.key("default").index(1), AskErrorCode::DUPLICATE_ID),
            error(root.key("options").index(2), AskErrorCode::INVALID_TYPE),
            error(root.key("default"), AskErrorCode::SELECTION_COUNT),
            error(root.key("allowDecline"), AskErrorCode::INVALID_TYPE),
            error(root.key("Zed"), AskErrorCode::UNKNOWN_KEY),
            error(root.key("prompt"), AskErrorCode::TOO_SHORT),
            error(root.key("prompt"), AskErrorCode::MISSING_REQUIRED),
        ]);
        let listed: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.code)).collect();
        assert_eq!(
            listed,
            [
                "Zed UNKNOWN_KEY",
                "allowDecline INVALID_TYPE",
                "default SELECTION_COUNT",
                "default[1] DUPLICATE_ID",
                "options[2] INVALID_TYPE",
                "options[10] INVALID_TYPE",
                "prompt MISSING_REQUIRED",
                "prompt TOO_SHORT",
            ]
        );
    }

    #[test]
    fn numbers_before_strings_at_one_position() {
        let a = Path::root().key("x").index(0);
        let b = Path::root().key("x").key("a");
        assert_eq!(a.ask_order(&b), Ordering::Less);
    }

    #[test]
    fn quotes_cut_long_strings() {
        assert_eq!(quote_value(&serde_json::json!("gold")), "\"gold\"");
        assert_eq!(quote_value(&serde_json::json!(1.5)), "1.5");
        assert_eq!(quote_str(&"x".repeat(41)), format!("\"{}…\"", "x".repeat(39)));
        assert_eq!(js_number(2.0), "2");
    }
}
