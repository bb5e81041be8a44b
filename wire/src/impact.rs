//! What an approver is told of a call beyond its arguments: what a host tool's check found it
//! will do (a summary, how to undo it or that it cannot be undone, what it may cost), and how an
//! MCP server describes its tool (its annotations: read-only, destructive, idempotent, open
//! world). The first is Palaver's own finding; the second is the server's word, and the card
//! says so.

use serde::{Deserialize, Serialize};

use crate::words::Words;

/// What a host tool's check before the approval found the call will do.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Impact {
    /// What the call will do, in one sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo: Option<Undo>,
    /// What it is expected to cost, in words ("about $0.40").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<String>,
}

/// Whether, and how, what a call does can be undone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Undo {
    /// How to undo it, in words.
    Path {
        how: String,
    },
    Impossible,
}

/// An MCP tool's annotations, as its server states them (absent: not stated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ToolHints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl ToolHints {
    /// The hints in words, in `words`' language ("read-only", "reaching outside systems"), as
    /// MCP reads them: whether a tool is destructive or idempotent says something only of a
    /// tool that is not read-only.
    pub fn words(&self, words: &Words) -> Vec<String> {
        let mut said = Vec::new();
        if self.read_only == Some(true) {
            said.push(words.get("hint-read-only"));
        } else {
            match self.destructive {
                Some(true) => said.push(words.get("hint-destructive")),
                Some(false) => said.push(words.get("hint-additive")),
                None => {}
            }
            if self.idempotent == Some(true) {
                said.push(words.get("hint-idempotent"));
            }
        }
        match self.open_world {
            Some(true) => said.push(words.get("hint-open-world")),
            Some(false) => said.push(words.get("hint-closed-world")),
            None => {}
        }
        said
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_read_as_mcp_means_them() {
        let words = Words::default();
        let read_only = ToolHints { read_only: Some(true), destructive: Some(true), ..ToolHints::default() };
        assert_eq!(read_only.words(&words), ["read-only"]);
        let writer = ToolHints {
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
            ..ToolHints::default()
        };
        assert_eq!(
            writer.words(&words),
            ["adds without deleting", "the same when run twice", "works only within its own system"]
        );
        assert!(ToolHints::default().words(&words).is_empty());
    }
}
