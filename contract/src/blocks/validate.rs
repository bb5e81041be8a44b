//! `validate_blocks`: structural pre-checks, then the schema, then the lint, with errors in
//! the reference's order. A document either validates into a [`BlocksDocument`] or gets its
//! full list of errors; warnings never block it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::errors::{BlockError, BlockErrorCode as Code, BlockWarning, sort_block_errors};
use super::limits::{MAX_BLOCKS, MAX_DEPTH};
use super::lint::{BlockOptions, lint_document};
use super::model::BlocksDocument;
use super::parse::{ParsedBlocks, parse_blocks};
use super::schema::{TOO_MANY_BLOCKS_FIX, check_document};
use crate::path::{Loc, Path};

/// The outcome of checking a reply document (the `{blocks}` turn event carries it), its
/// document read into its types (`D`), or kept as JSON ([`ShownCheck`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlocksCheck<D = BlocksDocument> {
    pub ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<D>,
    pub errors: Vec<BlockError>,
    pub warnings: Vec<BlockWarning>,
}

/// A check as clients are sent it: the document stays JSON until it is rendered. In the
/// browser only the block renderer (a wasm chunk of its own) reads it into its types, so the
/// download every page needs carries no block types.
pub type ShownCheck = BlocksCheck<Value>;

impl BlocksCheck {
    fn failed(mut errors: Vec<BlockError>, warnings: Vec<BlockWarning>) -> Self {
        sort_block_errors(&mut errors);
        BlocksCheck { ok: false, doc: None, errors, warnings }
    }

    /// The check with its document as JSON, as clients are sent it.
    pub fn shown(self) -> ShownCheck {
        // A document's types hold only strings, numbers, lists and string-keyed maps: writing
        // them as JSON cannot fail.
        let doc = self.doc.and_then(|document| serde_json::to_value(document).ok());
        BlocksCheck { ok: self.ok, doc, errors: self.errors, warnings: self.warnings }
    }
}

impl<D> BlocksCheck<D> {
    /// The reply is prose, not a document: it is shown as text (the text-block fallback).
    pub fn is_prose(&self) -> bool {
        !self.ok && self.errors.iter().all(|error| error.code == Code::NOT_A_DOCUMENT)
    }

    pub fn error_codes(&self) -> Vec<Code> {
        self.errors.iter().map(|error| error.code).collect()
    }

    /// The errors as `- <path> <code> <message>` lines: how the model is told of them (the
    /// repair prompt, and the replay of a reply that stayed invalid).
    pub fn error_lines(&self) -> String {
        self.errors
            .iter()
            .map(|error| format!("- {} {} {}", error.path, error.code, error.message))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Parses and validates a reply's text.
pub fn check_blocks_text(text: &str, options: &BlockOptions) -> BlocksCheck {
    match parse_blocks(text) {
        // The parsed value is read by value: its strings move into the document.
        Ok(parsed) => {
            failed_structure(&parsed).unwrap_or_else(|| lint_read(BlocksDocument::from_value(parsed.value), options))
        }
        Err(error) => BlocksCheck::failed(vec![error], Vec::new()),
    }
}

pub fn validate_blocks(parsed: &ParsedBlocks, options: &BlockOptions) -> BlocksCheck {
    failed_structure(parsed).unwrap_or_else(|| lint_read(BlocksDocument::deserialize(&parsed.value), options))
}

/// The failed check of a document whose structure or schema is wrong; `None` when it is fit
/// to be read into its types and linted.
fn failed_structure(parsed: &ParsedBlocks) -> Option<BlocksCheck> {
    let errors = check_structure(parsed);
    (!errors.is_empty()).then(|| BlocksCheck::failed(errors, Vec::new()))
}

/// The lint over a document that passed the schema, read into its types.
fn lint_read(read: Result<BlocksDocument, serde_json::Error>, options: &BlockOptions) -> BlocksCheck {
    let document = match read {
        Ok(document) => document,
        Err(error) => {
            // The schema accepts exactly what these types read; this is a safety net.
            let message = format!("The document could not be read: {error}.");
            let fix = "Check the document against the block catalog.";
            return BlocksCheck::failed(vec![BlockError::new(Path::root(), Code::INVALID_TYPE, message, fix)], vec![]);
        }
    };
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    lint_document(&document, options, &mut errors, &mut warnings);
    if errors.is_empty() {
        BlocksCheck { ok: true, doc: Some(document), errors, warnings }
    } else {
        BlocksCheck::failed(errors, warnings)
    }
}

/// The key order (when the text's order is known), version, depth and block-count checks,
/// then the schema: everything before the lint, and with the key order aside, what the
/// published JSON Schema expresses. Unsorted.
pub fn check_structure(parsed: &ParsedBlocks) -> Vec<BlockError> {
    let mut errors = Vec::new();
    let value = &parsed.value;
    let mut blocks_counted = false;
    if let Value::Object(object) = value {
        if let Some(key) = first_out_of_order(parsed.top_level_keys.as_deref()) {
            let fix = "Put the keys in this order: v, datasets, blocks.";
            errors.push(BlockError::described(Path::root().name(key), Code::KEY_ORDER, fix));
        }
        if object.get("v").is_some_and(|v| v.as_f64() != Some(1.0)) {
            errors.push(BlockError::described(Path::root().key("v"), Code::UNSUPPORTED_VERSION, "Set v to 1."));
        }
        if let Some(blocks) = object.get("blocks") {
            let at = Path::root().key("blocks");
            if let Some(path) = too_deep(blocks, Loc::Root.key("blocks"), 1) {
                let fix = "Keep columns and card at the top level. Their children must be leaf blocks.";
                errors.push(BlockError::described(&path, Code::DEPTH_EXCEEDED, fix));
            }
            if count_blocks(blocks) > MAX_BLOCKS {
                blocks_counted = true;
                errors.push(BlockError::described(&at, Code::TOO_MANY_BLOCKS, TOO_MANY_BLOCKS_FIX));
            }
        }
    }
    check_document(value, blocks_counted, &mut errors);
    errors
}

/// The first of v, datasets, blocks that is not where the order v, datasets, blocks puts it.
fn first_out_of_order(keys: Option<&[String]>) -> Option<&str> {
    const ORDER: [&str; 3] = ["v", "datasets", "blocks"];
    let present: Vec<&str> = keys?.iter().map(String::as_str).filter(|key| ORDER.contains(key)).collect();
    let expected = ORDER.iter().filter(|key| present.contains(key));
    present.iter().zip(expected).find(|(actual, expected)| actual != expected).map(|(actual, _)| *actual)
}

/// The first columns or card block nested below the top level, if any.
fn too_deep(blocks: &Value, at: Loc<'_>, depth: usize) -> Option<Path> {
    for (index, block) in blocks.as_array()?.iter().enumerate() {
        let here = at.index(index);
        let is_layout = matches!(block.get("type").and_then(Value::as_str), Some("columns" | "card"));
        if is_layout && depth >= MAX_DEPTH {
            return Some(here.path());
        }
        if let Some(children) = block.get("children") {
            let child_depth = if is_layout { depth + 1 } else { depth };
            if let Some(found) = too_deep(children, here.key("children"), child_depth) {
                return Some(found);
            }
        }
    }
    None
}

/// Every mapping with a string `type`, counted through `children`.
fn count_blocks(blocks: &Value) -> usize {
    let Some(blocks) = blocks.as_array() else { return 0 };
    blocks
        .iter()
        .map(|block| {
            let own = usize::from(block.get("type").is_some_and(Value::is_string));
            own + block.get("children").map_or(0, count_blocks)
        })
        .sum()
}
