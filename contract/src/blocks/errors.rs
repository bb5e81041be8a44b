//! Block errors and warnings: `{path, code, message, fix}`, their codes, and their order.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::path::{Path, Segment};

code_enum! {
    /// Every code a block error can carry (`BLOCK_ERROR_CODES`).
    BlockErrorCode {
        COLUMN_NOT_FOUND => "A chart or table names a column the dataset does not have.",
        COLUMN_TYPE_MISMATCH => "A column value does not match the column type.",
        COPY_TARGET_INVALID => "A copy action names a block that is not a stepper, checklist, list, table, or text block.",
        DATASET_NOT_FOUND => "A chart or table names a dataset the document does not define.",
        DATASET_TOO_LARGE => "A dataset has more rows or columns than allowed.",
        DEPTH_EXCEEDED => "A columns or card block is nested inside another columns or card block.",
        DUPLICATE_ID => "An id or a column name is used more than once.",
        HTML_DISABLED => "An html block is present and this host has not turned HTML on.",
        HTML_TOO_LARGE => "An html block is larger than 100,000 bytes.",
        IMAGE_HOST_NOT_ALLOWED => "An image URL is not a data:image URL, a file: ref, or an https URL on an allowed host.",
        INVALID_ENUM => "A value is not one of the allowed values.",
        INVALID_FORMAT => "A string does not match its required format.",
        INVALID_TYPE => "A value has the wrong type.",
        KEY_ORDER => "Top-level keys are not in the order v, datasets, blocks.",
        MISSING_REQUIRED => "A required field is missing.",
        NOT_A_DOCUMENT => "The reply is not one YAML or JSON mapping with a v field.",
        OUT_OF_RANGE => "A number is outside its allowed range, such as a stepper value outside min and max.",
        ROW_ARITY_MISMATCH => "A dataset row does not have one value per column.",
        SELECT_TARGET_INVALID => "A select action names a block that is not a chart or table.",
        TABLE_TOO_WIDE => "A table lists more columns than allowed.",
        TOO_FEW => "A list has fewer items than allowed.",
        TOO_LONG => "A string is longer than allowed.",
        TOO_MANY => "A list has more items than allowed.",
        TOO_MANY_BLOCKS => "The document has more than the maximum number of blocks.",
        TOO_MANY_POINTS => "A ref dataset asks for more rendered rows than allowed.",
        TOO_SHORT => "A string is empty or only whitespace.",
        UNKNOWN_HOST_ACTION => "A callback names a host action that is not registered.",
        UNKNOWN_KEY => "An object has a field that its schema does not define.",
        UNSUPPORTED_VERSION => "The document version is not 1.",
        YAML_FEATURE_DISALLOWED => "The document uses a YAML anchor, alias, or custom tag.",
    }
}

code_enum! {
    /// Every code a block warning can carry (`BLOCK_WARNING_CODES`).
    BlockWarningCode {
        BAR_TOO_MANY_CATEGORIES => "A bar chart has more categories than fit comfortably.",
        DONUT_TOO_MANY_SLICES => "A donut chart has more slices than fit comfortably.",
        LINE_SINGLE_POINT => "A line chart has only one point.",
    }
}

/// One problem with a reply document (`C` is an error or a warning code).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Issue<C> {
    pub path: String,
    pub code: C,
    pub message: String,
    pub fix: String,
}

pub type BlockError = Issue<BlockErrorCode>;
pub type BlockWarning = Issue<BlockWarningCode>;

impl BlockError {
    pub fn new(
        path: impl fmt::Display,
        code: BlockErrorCode,
        message: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        Issue { path: path.to_string(), code, message: message.into(), fix: fix.into() }
    }

    /// An error whose message is the code's description, as most lint errors are.
    pub fn described(path: impl fmt::Display, code: BlockErrorCode, fix: impl Into<String>) -> Self {
        Self::new(path, code, code.meaning(), fix)
    }
}

impl BlockWarning {
    pub fn new(path: impl fmt::Display, code: BlockWarningCode, fix: &str) -> Self {
        Issue { path: path.to_string(), code, message: code.meaning().to_string(), fix: fix.to_string() }
    }
}

/// Sorts errors as the reference's `sortBlockErrors`: by path part (numbers numerically, a
/// number against a key as strings, a missing part first), then by code. Stable, no
/// de-duplication.
pub fn sort_block_errors(errors: &mut [BlockError]) {
    errors.sort_by(|a, b| compare_paths(&a.path, &b.path).then_with(|| a.code.as_str().cmp(b.code.as_str())));
}

enum Part<'a> {
    Key(&'a str),
    Index(u64, &'a str),
}

/// Splits a printed path by `([^[\].]+)|\[(\d+)\]`.
fn parts(path: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let bytes = path.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'.' | b']' => at += 1,
            b'[' => {
                let digits_end =
                    path[at + 1..].find(|ch: char| !ch.is_ascii_digit()).map_or(path.len(), |n| at + 1 + n);
                if digits_end > at + 1 && bytes.get(digits_end) == Some(&b']') {
                    let digits = &path[at + 1..digits_end];
                    parts.push(Part::Index(digits.parse().unwrap_or(u64::MAX), digits));
                    at = digits_end + 1;
                } else {
                    at += 1;
                }
            }
            _ => {
                let end = path[at..].find(['[', ']', '.']).map_or(path.len(), |n| at + n);
                parts.push(Part::Key(&path[at..end]));
                at = end;
            }
        }
    }
    parts
}

fn compare_paths(a: &str, b: &str) -> Ordering {
    let (a, b) = (parts(a), parts(b));
    for (x, y) in a.iter().zip(&b) {
        let order = match (x, y) {
            (Part::Index(x, _), Part::Index(y, _)) => x.cmp(y),
            (Part::Index(_, x) | Part::Key(x), Part::Index(_, y) | Part::Key(y)) => {
                x.encode_utf16().cmp(y.encode_utf16())
            }
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len())
}

/// Whether `path` is `datasets.<name>.id` (whose format fix differs).
pub fn is_dataset_id_path(path: &Path) -> bool {
    matches!(path.segments(), [Segment::Key("datasets"), Segment::Name(_), Segment::Key("id")])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(path: &str, code: BlockErrorCode) -> BlockError {
        Issue { path: path.into(), code, message: String::new(), fix: String::new() }
    }

    #[test]
    fn order_follows_sort_block_errors() {
        use BlockErrorCode::*;
        let mut errors = vec![
            error("blocks[10].id", DUPLICATE_ID),
            error("blocks[2].text", TOO_SHORT),
            error("blocks[2]", TOO_MANY),
            error("blocks", TOO_MANY_BLOCKS),
            error("datasets.a.rows[0][1]", COLUMN_TYPE_MISMATCH),
            error("blocks[2].text", TOO_LONG),
            error("", NOT_A_DOCUMENT),
            error("blocks[2].text", TOO_SHORT),
        ];
        sort_block_errors(&mut errors);
        let listed: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.code)).collect();
        assert_eq!(
            listed,
            [
                " NOT_A_DOCUMENT",
                "blocks TOO_MANY_BLOCKS",
                "blocks[2] TOO_MANY",
                "blocks[2].text TOO_LONG",
                "blocks[2].text TOO_SHORT",
                "blocks[2].text TOO_SHORT",
                "blocks[10].id DUPLICATE_ID",
                "datasets.a.rows[0][1] COLUMN_TYPE_MISMATCH",
            ]
        );
    }

    #[test]
    fn a_number_against_a_key_compares_as_strings() {
        // "0" < "a" as strings, so the index sorts first here.
        assert_eq!(compare_paths("x[0]", "x.a"), Ordering::Less);
        assert_eq!(compare_paths("x.A", "x[0]"), Ordering::Greater);
    }
}
