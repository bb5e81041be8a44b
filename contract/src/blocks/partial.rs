//! The partial parse: what a reply being streamed already shows (its complete top-level
//! blocks), before the finished document is checked.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::lint::BlockOptions;
use super::model::BlocksDocument;
use super::parse::{parse_blocks, unfenced};
use super::validate::validate_blocks;

/// What a reply being streamed shows so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PartialBlocks {
    /// Complete top-level blocks, not validated.
    pub blocks: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datasets: Option<Value>,
    /// More text may still change the document.
    pub pending: bool,
}

impl PartialBlocks {
    /// What can be shown of it: every block and dataset that reads as the catalog's types.
    /// Nothing here is validated; the checked document replaces it when the reply ends.
    pub fn into_document(self) -> BlocksDocument {
        let datasets = match self.datasets {
            Some(Value::Object(datasets)) => datasets
                .into_iter()
                .filter_map(|(name, dataset)| Some((name, serde_json::from_value(dataset).ok()?)))
                .collect(),
            _ => BTreeMap::new(),
        };
        let blocks = self.blocks.into_iter().filter_map(|block| serde_json::from_value(block).ok()).collect();
        BlocksDocument { v: 1, datasets, blocks }
    }
}

/// The blocks a reply being streamed already holds. A finished, valid document is returned
/// whole; otherwise every complete top-level item is, leaving out the last one (it may still
/// be streaming). Never fails.
pub fn parse_blocks_partial(text: &str) -> PartialBlocks {
    let pending = PartialBlocks { pending: true, ..PartialBlocks::default() };
    let body = unfenced(text);
    if body.is_empty() {
        return pending;
    }
    if let Ok(mut parsed) = parse_blocks(body)
        && validate_blocks(&parsed, &BlockOptions::default()).ok
    {
        return PartialBlocks {
            blocks: parsed.value.get_mut("blocks").map(Value::take).and_then(into_array).unwrap_or_default(),
            datasets: parsed.value.get_mut("datasets").map(Value::take),
            pending: false,
        };
    }
    let lines: Vec<&str> = body.lines().collect();
    let Some(blocks_line) = lines.iter().position(|line| *line == "blocks:" || line.starts_with("blocks: ")) else {
        return pending;
    };
    let prefix = lines[..blocks_line].join("\n");
    let datasets = if prefix.contains("datasets:") {
        parse_blocks(&format!("{prefix}\nblocks:\n  - type: divider\n"))
            .ok()
            .and_then(|mut parsed| parsed.value.get_mut("datasets").map(Value::take))
    } else {
        None
    };
    let mut items: Vec<Vec<&str>> = Vec::new();
    for line in &lines[blocks_line + 1..] {
        if line.starts_with("  - ") {
            items.push(vec![line]);
        } else if let Some(item) = items.last_mut() {
            item.push(line);
        }
    }
    items.pop();
    let blocks = items
        .iter()
        .filter_map(|item| {
            let mut parsed = parse_blocks(&format!("v: 1\nblocks:\n{}\n", item.join("\n"))).ok()?;
            parsed.value.get_mut("blocks")?.as_array_mut()?.first_mut().map(Value::take)
        })
        .collect();
    PartialBlocks { blocks, datasets, pending: true }
}

fn into_array(value: Value) -> Option<Vec<Value>> {
    match value {
        Value::Array(items) => Some(items),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn partial_documents() {
        let done = parse_blocks_partial("v: 1\nblocks:\n  - type: divider\n  - type: heading\n    text: Done\n");
        assert_eq!(done.blocks, [json!({"type": "divider"}), json!({"type": "heading", "text": "Done"})]);
        assert_eq!((done.datasets, done.pending), (None, false));

        let inside_datasets = parse_blocks_partial("v: 1\ndatasets:\n  signups:\n    source: ref\n");
        assert_eq!(inside_datasets, PartialBlocks { blocks: vec![], datasets: None, pending: true });

        let cut = parse_blocks_partial(
            "v: 1\ndatasets:\n  signups:\n    source: ref\n    id: ds_1\nblocks:\n  - type: divider\n  - type: text\n    markdown: \"Half",
        );
        assert_eq!(cut.blocks, [json!({"type": "divider"})]);
        assert_eq!(cut.datasets, Some(json!({"signups": {"id": "ds_1", "source": "ref"}})));
        assert!(cut.pending);

        for text in ["::: not yaml", ""] {
            assert_eq!(parse_blocks_partial(text), PartialBlocks { blocks: vec![], datasets: None, pending: true });
        }
    }
}
