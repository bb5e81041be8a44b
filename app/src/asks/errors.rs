//! Ask errors: `{path, code, message, fix}`, their codes, and the order lists are returned in.

use std::cmp::Ordering;
use std::fmt::{self, Write};

use serde::{Deserialize, Serialize};

macro_rules! error_codes {
    ($($code:ident => $meaning:literal,)*) => {
        /// Every code an ask error can carry (`ASK_ERROR_CODES`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        pub enum AskErrorCode {
            $($code,)*
        }

        impl AskErrorCode {
            pub const ALL: &'static [AskErrorCode] = &[$(AskErrorCode::$code,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(AskErrorCode::$code => stringify!($code),)*
                }
            }

            /// What the code means, as the reference's error-code table says it.
            pub fn meaning(self) -> &'static str {
                match self {
                    $(AskErrorCode::$code => $meaning,)*
                }
            }
        }
    };
}

error_codes! {
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

impl fmt::Display for AskErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One step of a path: an object key or a list index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Key(&'static str),
    /// A key chosen at run time (a form value's field id, an unknown key).
    Name(String),
    Index(usize),
}

impl Segment {
    fn text(&self) -> Option<&str> {
        match self {
            Segment::Key(key) => Some(key),
            Segment::Name(name) => Some(name),
            Segment::Index(_) => None,
        }
    }
}

/// Where an error is: `options[2].id`, `content.selected[0]`, or the root `""`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Path(Vec<Segment>);

impl Path {
    pub fn root() -> Self {
        Path(Vec::new())
    }

    pub fn key(&self, key: &'static str) -> Path {
        self.with(Segment::Key(key))
    }

    pub fn name(&self, name: &str) -> Path {
        self.with(Segment::Name(name.to_string()))
    }

    pub fn index(&self, index: usize) -> Path {
        self.with(Segment::Index(index))
    }

    fn with(&self, segment: Segment) -> Path {
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend_from_slice(&self.0);
        segments.push(segment);
        Path(segments)
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn parent(&self) -> Path {
        Path(self.0[..self.0.len().saturating_sub(1)].to_vec())
    }

    pub fn last(&self) -> Option<&Segment> {
        self.0.last()
    }

    /// The sentence subject: the path, or "The value" at the root.
    pub fn subject(&self) -> String {
        if self.is_root() { "The value".to_string() } else { self.to_string() }
    }

    /// The subject inside a sentence: the path, or "the value" at the root.
    pub fn inline(&self) -> String {
        if self.is_root() { "the value".to_string() } else { self.to_string() }
    }

    fn compare(&self, other: &Path) -> Ordering {
        for (a, b) in self.0.iter().zip(&other.0) {
            let order = match (a, b) {
                (Segment::Index(x), Segment::Index(y)) => x.cmp(y),
                (Segment::Index(_), _) => Ordering::Less,
                (_, Segment::Index(_)) => Ordering::Greater,
                // Plain code-unit order, as JavaScript's `<` on strings.
                _ => a.text().unwrap_or_default().encode_utf16().cmp(b.text().unwrap_or_default().encode_utf16()),
            };
            if order != Ordering::Equal {
                return order;
            }
        }
        self.0.len().cmp(&other.0.len())
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Index(index) => write!(f, "[{index}]")?,
                Segment::Key(_) | Segment::Name(_) => {
                    if position > 0 {
                        f.write_char('.')?;
                    }
                    f.write_str(segment.text().unwrap_or_default())?;
                }
            }
        }
        Ok(())
    }
}

impl Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A path under construction while a value is walked: a chain of stack frames, so walking
/// a valid value allocates nothing. It becomes a [`Path`] only when an error is reported.
#[derive(Clone, Copy, Debug)]
pub enum Loc<'a> {
    Root,
    Key(&'a Loc<'a>, &'static str),
    Name(&'a Loc<'a>, &'a str),
    Index(&'a Loc<'a>, usize),
}

impl<'a> Loc<'a> {
    pub fn key(&'a self, key: &'static str) -> Loc<'a> {
        Loc::Key(self, key)
    }

    pub fn name(&'a self, name: &'a str) -> Loc<'a> {
        Loc::Name(self, name)
    }

    pub fn index(&'a self, index: usize) -> Loc<'a> {
        Loc::Index(self, index)
    }

    pub fn path(&self) -> Path {
        let mut segments = Vec::new();
        let mut node = self;
        loop {
            match node {
                Loc::Root => break,
                Loc::Key(parent, key) => {
                    segments.push(Segment::Key(key));
                    node = parent;
                }
                Loc::Name(parent, name) => {
                    segments.push(Segment::Name(name.to_string()));
                    node = parent;
                }
                Loc::Index(parent, index) => {
                    segments.push(Segment::Index(*index));
                    node = parent;
                }
            }
        }
        segments.reverse();
        Path(segments)
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
    errors.sort_by(|a, b| a.path.compare(&b.path).then_with(|| a.code.as_str().cmp(b.code.as_str())));
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

/// JavaScript's `String(n)` for a number: whole numbers print without ".0".
pub fn js_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e21 { format!("{}", value as i64) } else { format!("{value}") }
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
        assert_eq!(a.compare(&b), Ordering::Less);
    }

    #[test]
    fn quotes_cut_long_strings() {
        assert_eq!(quote_value(&serde_json::json!("gold")), "\"gold\"");
        assert_eq!(quote_value(&serde_json::json!(1.5)), "1.5");
        assert_eq!(quote_str(&"x".repeat(41)), format!("\"{}…\"", "x".repeat(39)));
        assert_eq!(js_number(2.0), "2");
    }
}
