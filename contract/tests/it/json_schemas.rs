//! The published JSON Schemas: the committed files are what the contract generates, and they
//! accept and reject the same documents as the reference's (with `files` and Palaver's
//! `questions` added to the kinds), Palaver's question-set schema accepts its stored sets,
//! and the reply document's schema the same documents as the block contract's own structure check.

use std::path::PathBuf;

use palaver_contract::asks::{AskKind, AskSurface, ask_json_schemas, parse_ask_input, to_simple_card};
use palaver_contract::blocks::{ParsedBlocks, blocks_json_schema, check_structure, parse_blocks};
use serde_json::{Value, json};

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Set PALAVER_UPDATE_SCHEMAS=1 to rewrite the committed files after changing the contract.
#[test]
fn committed_schemas_are_up_to_date() {
    let update = std::env::var("PALAVER_UPDATE_SCHEMAS").is_ok_and(|value| value == "1");
    let published = ask_json_schemas().into_iter().chain([("blocksDocument.schema.json", blocks_json_schema())]);
    for (file, schema) in published {
        let path = manifest_dir().join("schemas").join(file);
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{file} is stale: run PALAVER_UPDATE_SCHEMAS=1 cargo test -p app --test json_schemas"
        );
    }
}

/// The reference copy, with `files` (the copies predate it) and Palaver's `questions` added to
/// every kind enum.
fn reference(file: &str) -> Value {
    let path = manifest_dir().join("../../shared/schemas").join(file);
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    add_kinds(&mut schema);
    schema
}

fn add_kinds(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Array(kinds)) = map.get_mut("enum")
                && kinds.contains(&json!("choice"))
            {
                for kind in ["files", "questions"] {
                    if !kinds.contains(&json!(kind)) {
                        kinds.push(json!(kind));
                    }
                }
            }
            map.values_mut().for_each(add_kinds);
        }
        Value::Array(items) => items.iter_mut().for_each(add_kinds),
        _ => {}
    }
}

fn cards() -> Vec<Value> {
    let dir = manifest_dir().join("fixtures/asks/valid");
    let mut cards: Vec<Value> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let fixture: Value =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
            let kind = AskKind::parse(fixture["kind"].as_str().unwrap()).unwrap();
            let surface = fixture["surface"].as_str().and_then(AskSurface::parse).unwrap_or_default();
            let ask = parse_ask_input(kind, &fixture["input"], surface).unwrap();
            serde_json::to_value(to_simple_card(&ask, "call_1")).unwrap()
        })
        .collect();
    cards.sort_by_key(Value::to_string);
    cards
}

/// Variants of a document that break (or keep) it in one way each.
fn mutations(doc: &Value) -> Vec<Value> {
    let mut out = vec![doc.clone()];
    let mut walk = vec![(Vec::<String>::new(), doc.clone())];
    while let Some((path, node)) = walk.pop() {
        if let Value::Object(map) = &node {
            let mut extra = doc.clone();
            pointer_mut(&mut extra, &path)["unexpected"] = json!(1);
            out.push(extra);
            for (key, child) in map {
                let mut child_path = path.clone();
                child_path.push(key.clone());
                let mut removed = doc.clone();
                if let Value::Object(parent) = pointer_mut(&mut removed, &path) {
                    parent.remove(key);
                }
                out.push(removed);
                for replacement in [
                    json!(null),
                    json!(""),
                    json!("x".repeat(141)),
                    json!(7),
                    json!([]),
                    json!("watch"),
                    json!("files"),
                    json!("questions"),
                ] {
                    let mut replaced = doc.clone();
                    *pointer_mut(&mut replaced, &child_path) = replacement;
                    out.push(replaced);
                }
                walk.push((child_path, child.clone()));
            }
        } else if let Value::Array(items) = &node {
            for (index, child) in items.iter().enumerate() {
                let mut child_path = path.clone();
                child_path.push(index.to_string());
                walk.push((child_path, child.clone()));
            }
            let mut grown = doc.clone();
            if let (Value::Array(items), Some(first)) = (pointer_mut(&mut grown, &path), items.first()) {
                items.extend(std::iter::repeat_n(first.clone(), 4));
            }
            out.push(grown);
        }
    }
    out
}

fn pointer_mut<'v>(value: &'v mut Value, path: &[String]) -> &'v mut Value {
    path.iter().fold(value, |node, key| match node {
        Value::Array(items) => &mut items[key.parse::<usize>().unwrap()],
        other => &mut other[key.as_str()],
    })
}

fn assert_same_verdicts(file: &str, documents: &[Value]) {
    let ours = ask_json_schemas().into_iter().find(|(name, _)| *name == file).unwrap().1;
    let ours = jsonschema::draft7::new(&ours).unwrap();
    let theirs = jsonschema::draft7::new(&reference(file)).unwrap();
    let (mut accepted, mut rejected) = (0, 0);
    for document in documents {
        let verdict = ours.is_valid(document);
        assert_eq!(verdict, theirs.is_valid(document), "{file} disagrees on {document}");
        if verdict { accepted += 1 } else { rejected += 1 }
    }
    assert!(accepted > 0 && rejected > 0, "{file}: the corpus must hold both valid and invalid documents");
}

#[test]
fn simple_card_schema_matches_the_reference() {
    let corpus: Vec<Value> = cards().iter().flat_map(mutations).collect();
    assert_same_verdicts("simpleCard.schema.json", &corpus);
}

#[test]
fn turn_request_schema_matches_the_reference() {
    let bodies = [
        json!({"prompt": "Set up billing", "surface": "compact"}),
        json!({"toolCallId": "call_1", "buttonId": "option:team"}),
        json!({"askResponse": {"toolCallId": "call_1", "action": "accept", "content": {"selected": ["team"]}}}),
        json!({"askResponse": {"toolCallId": "call_1", "action": "cancel", "reason": "changed my mind"}}),
        json!({"askResponse": {"toolCallId": "call_1", "action": "decline"}}),
    ];
    let corpus: Vec<Value> = bodies.iter().flat_map(mutations).collect();
    assert_same_verdicts("turnRequest.schema.json", &corpus);
}

#[test]
fn turn_response_schema_matches_the_reference() {
    let card = cards().into_iter().next().unwrap();
    let bodies = [
        json!({"data": {"historyId": "h1", "text": "Done.", "title": "Team plan"}, "requestId": "r"}),
        json!({"data": {"historyId": "h1", "text": "", "pendingAsk": {"kind": card["kind"], "simple": card, "toolCallId": "call_1"}}}),
        json!({"data": {"historyId": "h1", "text": "Partial", "error": "the model failed"}}),
    ];
    let corpus: Vec<Value> = bodies.iter().flat_map(mutations).collect();
    assert_same_verdicts("turnResponse.schema.json", &corpus);
}

#[test]
fn pending_asks_schema_matches_the_reference() {
    let card = cards().into_iter().last().unwrap();
    let item = |created: &str| json!({"created": created, "historyId": "h1", "kind": card["kind"], "simple": card, "toolCallId": "call_1", "title": "T"});
    let mut corpus: Vec<Value> = mutations(&json!({"data": [item("2026-11-29T19:34:53.123Z")], "requestId": "r"}));
    for created in [
        "2024-02-29T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-11-29T19:34:53",
        "2026-11-29T25:00:00Z",
        "2026-11-29T19:34Z",
    ] {
        corpus.push(json!({"data": [item(created)]}));
    }
    corpus.push(json!({"data": []}));
    assert_same_verdicts("pendingAsksResponse.schema.json", &corpus);
}

#[test]
fn question_set_schema_takes_the_stored_sets_and_their_valid_answers() {
    let schema = ask_json_schemas().into_iter().find(|(name, _)| *name == "questionSet.schema.json").unwrap().1;
    let sets = jsonschema::draft7::new(&schema).unwrap();
    let mut answers_schema = schema["definitions"]["QuestionsAnswer"].clone();
    answers_schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    let answers = jsonschema::draft7::new(&answers_schema).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(manifest_dir().join("fixtures/asks/valid")).unwrap() {
        let fixture: Value = serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        if fixture["kind"] != "questions" {
            continue;
        }
        let ask = parse_ask_input(AskKind::Questions, &fixture["input"], AskSurface::Full).unwrap();
        let stored = ask.stored_input(&fixture["input"]);
        assert!(sets.is_valid(&stored), "{stored}");
        assert!(!sets.is_valid(&fixture["input"]), "a set without ids passes: {}", fixture["input"]);
        for case in fixture["answers"].as_array().into_iter().flatten() {
            let accepted = case["response"]["action"] == "accept";
            if accepted && case["errors"].as_array().is_some_and(Vec::is_empty) {
                assert!(answers.is_valid(&case["response"]["content"]), "{}", case["response"]);
                checked += 1;
            }
        }
    }
    assert!(checked >= 3);
    assert!(!answers.is_valid(&json!({"answers": {"shade": {"picked": ["a1"]}}})));
    assert!(!answers.is_valid(&json!({"answers": {"q1": {"custom": "x"}}})));
}

/// Every block fixture's document (the not-a-document one aside).
fn block_documents() -> Vec<Value> {
    let root = manifest_dir().join("../../shared/fixtures/blocks");
    let mut documents = Vec::new();
    for folder in ["valid", "invalid", "golden", "partial"] {
        let mut paths: Vec<PathBuf> =
            std::fs::read_dir(root.join(folder)).unwrap().map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            if let Ok(parsed) = parse_blocks(&std::fs::read_to_string(&path).unwrap()) {
                documents.push(parsed.value);
            }
        }
    }
    documents
}

#[test]
fn blocks_schema_matches_the_structure_check() {
    let schema = jsonschema::draft7::new(&blocks_json_schema()).unwrap();
    let mut corpus: Vec<Value> = block_documents().iter().flat_map(mutations).collect();
    corpus.push(json!({"v": 1, "blocks": [{"type": "heading", "text": " \u{3000} "}]}));
    corpus.push(json!({"v": 1.0, "blocks": [{"type": "divider"}]}));
    corpus.push(json!({"v": 2, "blocks": [{"type": "divider"}]}));
    let (mut accepted, mut rejected) = (0, 0);
    for document in &corpus {
        let errors = check_structure(&ParsedBlocks::from_value(document.clone()));
        let verdict = schema.is_valid(document);
        assert_eq!(verdict, errors.is_empty(), "the schema says {verdict} on {document}, the check {errors:?}");
        if verdict { accepted += 1 } else { rejected += 1 }
    }
    assert!(accepted > 100 && rejected > 100, "{accepted} accepted, {rejected} rejected");
}
