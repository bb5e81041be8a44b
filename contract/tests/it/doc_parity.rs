//! The reference's Limits and Error codes tables agree with the Rust tables, and Palaver's
//! additions with the table in docs/contract-additions.md.

use std::collections::BTreeMap;
use std::path::PathBuf;

use palaver_contract::asks::{ASK_LIMITS, AskErrorCode};

fn reference() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/spec/agent-ui-asks-reference.md");
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()))
}

/// The rows of the markdown table under `heading`, as their cells.
fn table(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let start = doc.find(heading).unwrap_or_else(|| panic!("no section {heading}"));
    doc[start..]
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2)
        .map(|line| line.trim_matches('|').split(" | ").map(|cell| cell.trim().trim_matches('`').to_string()).collect())
        .collect()
}

fn limits_of(doc: &str) -> BTreeMap<String, String> {
    table(doc, "\n## Limits").into_iter().map(|row| (row[0].clone(), row[1].clone())).collect()
}

#[test]
fn limits_table_matches_ask_limits() {
    let additions: BTreeMap<String, String> =
        ASK_LIMITS.additions().into_iter().map(|(key, value)| (key.to_string(), value)).collect();
    let mut ours: BTreeMap<String, String> =
        ASK_LIMITS.entries().into_iter().map(|(key, value)| (key.to_string(), value)).collect();
    ours.retain(|key, _| !additions.contains_key(key));
    assert_eq!(ours, limits_of(&reference()));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/contract-additions.md");
    assert_eq!(additions, limits_of(&std::fs::read_to_string(path).unwrap()));
}

#[test]
fn error_code_table_matches_ask_error_codes() {
    let doc: BTreeMap<String, String> =
        table(&reference(), "\n## Error codes").into_iter().map(|row| (row[0].clone(), row[1].clone())).collect();
    let ours: BTreeMap<String, String> =
        AskErrorCode::ALL.iter().map(|code| (code.as_str().to_string(), code.meaning().to_string())).collect();
    assert_eq!(ours, doc);
    // The reference table lists 28 codes, UNKNOWN_BUTTON among them.
    assert_eq!(AskErrorCode::ALL.len(), 28);
}
