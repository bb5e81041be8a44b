//! The subset reader against the full one: wherever the subset answers, its answer must be
//! the full reader's. Inputs: every fixture and demo document, mutations of them, documents
//! rendered from random trees in random styles, and random line soup.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::{YamlDocument, events, subset};

/// Checks one text; returns whether the subset answered.
fn agrees(text: &str) -> bool {
    match subset::read(text) {
        Some(document) => {
            assert_eq!(events::read(text), Ok(document), "the readers disagree on {text:?}");
            true
        }
        None => false,
    }
}

fn files_under(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_under(&path, found);
        } else {
            found.push(path);
        }
    }
}

/// Every block fixture (shared, the storybook's copies and the demo agent's documents) and the
/// benchmark document.
fn corpus() -> Vec<(String, String)> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files_under(&manifest.join("../../shared/fixtures/blocks"), &mut paths);
    files_under(&manifest.join("fixtures/blocks"), &mut paths);
    paths.push(manifest.join("../../shared/bench/blocks_50.yaml"));
    paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).expect("a readable fixture");
            let body = crate::blocks::strip_blocks_fence(&text).unwrap_or(&text).to_string();
            (path.display().to_string(), body)
        })
        .collect()
}

#[test]
fn the_subset_reads_every_well_formed_document_as_the_full_reader_does() {
    for (name, text) in corpus() {
        let answered = agrees(&text);
        // Every mapping here is written in the plain style, so the fast path must take it.
        if events::read(&text).is_ok_and(|document| document.value.is_object()) {
            assert!(answered, "the subset gave up on {name}");
        }
    }
}

#[test]
fn a_dash_after_a_space_in_a_flow_scalar_is_left_to_the_full_reader() {
    // Found by the blocks_yaml fuzz target: the subset read `d  -` as a scalar the full reader refuses.
    let found = "v: 2\nblockv: 1\ndatasets:\n  signups:\n    source: ref\n    id: ds_1\nblocks:\n  - type: table\n    data: signups\n    columns: [a, b, c, d  -, m] \ntype: to\n";
    agrees(found);
    agrees("v: 1\nblocks:\n  - type: table\n    data: signups\n    columns: [a, d  -, m]\n");
}

#[test]
fn mutated_documents_agree_wherever_the_subset_answers() {
    let corpus = corpus();
    let inserts = [
        " ", "  ", "\n", "-", "- ", ":", ": ", "#", " #", "'", "\"", "[", "]", "{", "}", ",", "|", ">", "&a ", "*a",
        "!t ", "?", "\\", "\\u00e9", "---\n", "--- ", "... ", "\t", "\r", "x",
    ];
    let mut answered = 0;
    let mut checked = 0;
    for (_, text) in &corpus {
        let boundaries: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).collect();
        // A fixed spread of about 200 positions a document keeps the run short and repeatable.
        for (step, at) in boundaries.iter().step_by(boundaries.len() / 200 + 1).enumerate() {
            let insert = inserts[step % inserts.len()];
            let inserted = format!("{}{insert}{}", &text[..*at], &text[*at..]);
            let next = boundaries.iter().find(|next| *next > at).copied().unwrap_or(text.len());
            let deleted = format!("{}{}", &text[..*at], &text[next..]);
            for variant in [inserted, deleted] {
                checked += 1;
                answered += usize::from(agrees(&variant));
            }
        }
    }
    assert!(answered * 4 > checked, "the subset answered only {answered} of {checked} variants");
}

/// A value tree with keys in written order.
#[derive(Clone, Debug)]
enum Tree {
    Scalar(String),
    List(Vec<Tree>),
    Map(Vec<(String, Tree)>),
}

/// How to write a tree: each choice is drawn in turn from `choices`, wrapping around.
struct Writer<'c> {
    choices: &'c [u8],
    next: usize,
    out: String,
}

impl Writer<'_> {
    fn choose(&mut self, options: u8) -> u8 {
        let choice = self.choices.get(self.next % self.choices.len().max(1)).copied().unwrap_or(0);
        self.next += 1;
        choice % options
    }

    fn scalar(&mut self, text: &str) -> String {
        match self.choose(4) {
            0 => serde_json::to_string(text).expect("a string serializes"),
            1 => format!("'{}'", text.replace('\'', "''")),
            _ => text.to_string(),
        }
    }

    fn flow(&mut self, tree: &Tree) -> String {
        match tree {
            Tree::Scalar(text) => self.scalar(text),
            Tree::List(items) => {
                let items: Vec<String> = items.iter().map(|item| self.flow(item)).collect();
                format!("[{}]", items.join(", "))
            }
            Tree::Map(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|(key, value)| {
                        let key = self.scalar(key);
                        format!("{key}: {}", self.flow(value))
                    })
                    .collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }

    /// `tree` as the value after `key:` (or, `after_dash`, after a sequence dash) at `indent`.
    fn value(&mut self, tree: &Tree, indent: usize, after_dash: bool) {
        let step = 1 + usize::from(self.choose(3));
        match tree {
            Tree::Scalar(text) if text.contains('\n') || self.choose(5) == 0 => {
                let (header, body) = match text.strip_suffix('\n') {
                    Some(body) => ("|", body),
                    None => ("|-", text.as_str()),
                };
                self.out.push_str(&format!(" {header}\n"));
                for line in body.split('\n') {
                    let pad = if line.is_empty() { 0 } else { indent + step };
                    self.out.push_str(&format!("{}{line}\n", " ".repeat(pad)));
                }
            }
            Tree::List(items) if !items.is_empty() && self.choose(3) != 0 => {
                self.out.push('\n');
                // A mapping's sequence may sit at its key's indentation.
                let at = if !after_dash && self.choose(3) == 0 { indent } else { indent + step };
                self.block(tree, at);
            }
            Tree::Map(entries) if !entries.is_empty() && self.choose(3) != 0 => {
                self.out.push('\n');
                self.block(tree, indent + step);
            }
            _ => {
                let text = self.flow(tree);
                let comment = if self.choose(6) == 0 { " # note" } else { "" };
                self.out.push_str(&format!(" {text}{comment}\n"));
            }
        }
    }

    fn block(&mut self, tree: &Tree, indent: usize) {
        let pad = " ".repeat(indent);
        match tree {
            Tree::List(items) => {
                for item in items {
                    match item {
                        Tree::Map(entries) if !entries.is_empty() && self.choose(2) == 0 => {
                            self.out.push_str(&format!("{pad}- "));
                            self.entries(entries, indent + 2, true);
                        }
                        _ => {
                            self.out.push_str(&format!("{pad}-"));
                            self.value(item, indent, true);
                        }
                    }
                }
            }
            Tree::Map(entries) => self.entries(entries, indent, false),
            Tree::Scalar(text) => self.out.push_str(&format!("{pad}{text}\n")),
        }
    }

    /// Mapping entries at `indent`; with `compact`, the first follows a dash already written.
    fn entries(&mut self, entries: &[(String, Tree)], indent: usize, compact: bool) {
        for (position, (key, value)) in entries.iter().enumerate() {
            if !(compact && position == 0) {
                self.out.push_str(&" ".repeat(indent));
            }
            let key = self.scalar(key);
            self.out.push_str(&format!("{key}:"));
            self.value(value, indent, false);
        }
    }
}

fn scalar_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}",
        "[a-zA-Z0-9 ]{0,10}",
        "[-a-zA-Z0-9 :#'\"\\[\\]{},&*!|>%@`?~./\\\\éü🍷]{0,10}",
        Just("null".to_string()),
        Just("true".to_string()),
        Just("1e3".to_string()),
        Just("-2.5".to_string()),
        Just("0x1F".to_string()),
        Just(".inf".to_string()),
        Just("line one\nline two\n\nafter a gap".to_string()),
        Just("  indented\nlines\n".to_string()),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    scalar_text().prop_map(Tree::Scalar).prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Tree::List),
            prop::collection::vec(("[a-z][a-z_ ]{0,6}", inner), 0..4).prop_map(Tree::Map),
        ]
    })
}

/// Trees of plain lowercase words, which every style writes without changing their meaning.
fn plain_tree() -> impl Strategy<Value = Tree> {
    // A leading v keeps scalars clear of null, true and false.
    "v[a-z]{0,7}".prop_map(Tree::Scalar).prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4).prop_map(Tree::List),
            prop::collection::vec(("[a-z]{1,6}", inner), 1..4).prop_map(|entries| {
                // Written keys must be unique to mean a mapping.
                let mut seen = std::collections::HashSet::new();
                Tree::Map(entries.into_iter().filter(|(key, _)| seen.insert(key.clone())).collect())
            }),
        ]
    })
}

fn write(entries: &[(String, Tree)], choices: &[u8]) -> String {
    let mut writer = Writer { choices, next: 0, out: String::new() };
    writer.entries(entries, 0, false);
    writer.out
}

/// The JSON a tree means when every scalar is written as a string.
fn expected(tree: &Tree) -> Value {
    match tree {
        Tree::Scalar(text) => Value::String(text.clone()),
        Tree::List(items) => Value::Array(items.iter().map(expected).collect()),
        Tree::Map(entries) => {
            Value::Object(entries.iter().map(|(key, value)| (key.clone(), expected(value))).collect::<Map<_, _>>())
        }
    }
}

const SOUP: &[&str] = &[
    "- ",
    "-",
    "key: ",
    "k2:",
    "\"q\": ",
    "'s': ",
    "[1, a]",
    "{a: b}",
    "{\"a\":1}",
    "|",
    "|-",
    "|+",
    ">",
    "text",
    "# c",
    " #c",
    "&a x",
    "*a",
    "!t x",
    "? k",
    ": v",
    "\"a\\u00e9\"",
    "\"a\\/b\\\\c\\\"\"",
    "'it''s'",
    "x: y: z",
    "[",
    "}",
    "\"open",
    "1",
    "-1",
    "null",
    "--- ",
    "...",
    "%YAML 1.2",
    "",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn written_trees_agree(entries in prop::collection::vec(("[a-z][a-z_]{0,6}", tree()), 1..5), choices in prop::collection::vec(any::<u8>(), 1..64)) {
        agrees(&write(&entries, &choices));
    }

    #[test]
    fn line_soup_agrees(lines in prop::collection::vec((0usize..7, prop::collection::vec(0usize..SOUP.len(), 1..4)), 1..10)) {
        let text: String = lines
            .iter()
            .map(|(indent, parts)| format!("{}{}\n", " ".repeat(*indent), parts.iter().map(|part| SOUP[*part]).collect::<String>()))
            .collect();
        agrees(&text);
    }

    /// The subset must take plain documents (so the agreement above is not vacuous) and read
    /// them as they were meant.
    #[test]
    fn plain_trees_written_plainly_are_read_by_the_subset((key, tree) in ("[a-z]{1,6}", plain_tree()), choices in prop::collection::vec(any::<u8>(), 1..32)) {
        let text = write(&[(key.clone(), tree.clone())], &choices);
        let wanted = YamlDocument { value: json!({ key.clone(): expected(&tree) }), top_level_keys: vec![key] };
        prop_assert_eq!(subset::read(&text), Some(wanted.clone()), "{}", text);
        prop_assert_eq!(events::read(&text), Ok(wanted));
    }
}
