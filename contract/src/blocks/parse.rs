//! Reading a reply's text as a document (`parseBlocks`); the streaming read is in partial.rs.

use serde_json::Value;

use super::errors::{BlockError, BlockErrorCode};
use super::yaml::{YamlProblem, parse_yaml};
use crate::path::Path;
use crate::text::js_trim;

/// A parsed, not yet validated document.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedBlocks {
    pub value: Value,
    /// The top-level keys in the order the text wrote them; `None` when that order is
    /// unknown (a value that did not come from text), which skips the key-order check.
    pub top_level_keys: Option<Vec<String>>,
}

impl ParsedBlocks {
    pub fn from_value(value: Value) -> Self {
        ParsedBlocks { value, top_level_keys: None }
    }
}

/// The body of a reply that is exactly one markdown fence (```` ```yaml ````, ```` ```json ````,
/// any info string), or `None`.
pub fn strip_blocks_fence(text: &str) -> Option<&str> {
    let text = js_trim(text);
    let rest = text.strip_prefix("```")?;
    let body_start = rest.find('\n')? + 1;
    let body = rest.get(body_start..)?.strip_suffix("```")?;
    Some(body.strip_suffix('\n').unwrap_or(body))
}

/// Whether a reply is meant as a block document, as a person reading it would say: one fenced
/// yaml or json block, or text that starts the way a document does (`v:`, `{"v"`, or the
/// `datasets:`/`blocks:` keys, after any comment lines and a `---`). Anything else is prose, shown as
/// markdown whatever a YAML reader would make of it (`**bold**` reads as an alias). Works on a
/// reply still streaming, from its first characters.
pub fn reads_as_document(text: &str) -> bool {
    let start = text.trim_start();
    if let Some(rest) = start.strip_prefix("```") {
        let info = rest.split(['\n', '\r']).next().unwrap_or_default().trim().to_ascii_lowercase();
        return matches!(info.as_str(), "" | "yaml" | "yml" | "json");
    }
    if let Some(object) = start.strip_prefix('{') {
        return object.trim_start().starts_with("\"v\"") || object.trim_start().is_empty();
    }
    // YAML comments and a `---` may come first; a markdown heading is followed by prose.
    let first =
        start.lines().map(str::trim_end).find(|line| !line.is_empty() && !line.starts_with('#') && *line != "---");
    first.is_some_and(|line| ["v:", "datasets:", "blocks:"].iter().any(|key| line.starts_with(key)))
}

pub(super) fn unfenced(text: &str) -> &str {
    strip_blocks_fence(text).unwrap_or_else(|| js_trim(text))
}

pub fn parse_blocks(text: &str) -> Result<ParsedBlocks, BlockError> {
    let body = unfenced(text);
    let not_a_document = || {
        let fix = "Reply with one document: v, then optional datasets, then blocks.";
        BlockError::described(Path::root(), BlockErrorCode::NOT_A_DOCUMENT, fix)
    };
    if js_trim(body).is_empty() {
        return Err(not_a_document());
    }
    let document = parse_yaml(body).map_err(|problem| match problem {
        YamlProblem::FeatureDisallowed => BlockError::described(
            Path::root(),
            BlockErrorCode::YAML_FEATURE_DISALLOWED,
            "Remove YAML anchors, aliases, and custom tags. Use plain mappings and sequences.",
        ),
        YamlProblem::NotADocument => not_a_document(),
    })?;
    if !document.value.get("v").is_some_and(|_| document.value.is_object()) {
        return Err(not_a_document());
    }
    Ok(ParsedBlocks { value: document.value, top_level_keys: Some(document.top_level_keys) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_stripped_only_when_they_wrap_everything() {
        for fence in ["```yaml", "```yml", "```json", "```YAML", "```"] {
            let text = format!("{fence}\nv: 1\nblocks:\n  - type: divider\n```");
            assert_eq!(strip_blocks_fence(&text), Some("v: 1\nblocks:\n  - type: divider"), "{fence}");
        }
        assert_eq!(strip_blocks_fence("Here:\n```yaml\nv: 1\n```"), None);
        assert_eq!(strip_blocks_fence("```yaml v: 1```"), None);
    }

    #[test]
    fn not_documents() {
        for text in ["", "   ", "v: 1\n---\nv: 1\n", "blocks: []\n", "Just a sentence, not a document.", "[1, 2]"] {
            let error = parse_blocks(text).unwrap_err();
            assert_eq!((error.path.as_str(), error.code), ("", BlockErrorCode::NOT_A_DOCUMENT), "{text:?}");
        }
        let error = parse_blocks("v: 1\nblocks: !foo []\n").unwrap_err();
        assert_eq!(error.code, BlockErrorCode::YAML_FEATURE_DISALLOWED);
    }

    #[test]
    fn documents_are_told_from_prose_by_how_they_start() {
        for text in [
            "v: 1\nblocks: []",
            "  \nv: 1",
            "---\nv: 1",
            "blocks:\n  - type: divider",
            "```yaml\nv: 1",
            "```\nv: 1\n```",
            "```JSON\n{\"v\": 1}",
            "{\"v\": 1, \"blocks\": []}",
            "{ \"v\"",
            "{",
            "# Palaver's own: a comment first\nv: 1",
        ] {
            assert!(reads_as_document(text), "{text:?}");
        }
        // The demo's help text: a YAML reader rejects `**` as an alias, but it is markdown.
        for text in [
            "I'm the **Palaver demo agent**: no API key.\n\n- **set up a plan**: I ask",
            "Here is the plan:\n\nv: 1 is a version",
            "```rust\nfn main() {}\n```",
            "- item: one\n- item: two",
            "# A heading\n\nThen prose.",
            "",
        ] {
            assert!(!reads_as_document(text), "{text:?}");
        }
    }
}
