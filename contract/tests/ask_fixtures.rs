//! Conformance with the reference fixtures in ../shared/fixtures/asks.

use std::path::PathBuf;

use palaver_contract::asks::{
    AskKind, AskSurface, check_simple_card, parse_ask_input, to_simple_card, validate_ask_input, validate_ask_response,
};
use serde_json::Value;

fn fixtures(kind: &str) -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures/asks").join(kind);
    let mut files: Vec<(String, Value)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            let value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            (name, value)
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

fn kind_of(fixture: &Value) -> AskKind {
    AskKind::parse(fixture["kind"].as_str().unwrap()).unwrap()
}

#[test]
fn every_valid_fixture_validates_and_derives_its_card() {
    let mut failures = Vec::new();
    for (name, fixture) in fixtures("valid") {
        let kind = kind_of(&fixture);
        match parse_ask_input(kind, &fixture["input"], AskSurface::Full) {
            Err(errors) => failures.push(format!("{name}: unexpected errors {errors:?}")),
            Ok(ask) => {
                let card = serde_json::to_value(to_simple_card(&ask, "call_fixture")).unwrap();
                if card != fixture["simple"] {
                    failures.push(format!("{name}: card\n  got      {card}\n  expected {}", fixture["simple"]));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_invalid_fixture_returns_exactly_its_errors() {
    let mut failures = Vec::new();
    for (name, fixture) in fixtures("invalid") {
        let errors = validate_ask_input(kind_of(&fixture), &fixture["input"], AskSurface::Full);
        let got: Vec<(String, String)> = errors.iter().map(|e| (e.path.to_string(), e.code.to_string())).collect();
        let expected: Vec<(String, String)> = fixture["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e["path"].as_str().unwrap().to_string(), e["code"].as_str().unwrap().to_string()))
            .collect();
        if got != expected {
            failures.push(format!("{name}:\n  got      {got:?}\n  expected {expected:?}"));
        }
        for error in &errors {
            assert!(!error.message.is_empty() && !error.fix.is_empty(), "{name}: {error:?} lacks a message or fix");
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_card_passes_the_card_check_and_every_button_answers_its_ask() {
    for (name, fixture) in fixtures("valid") {
        let ask = parse_ask_input(kind_of(&fixture), &fixture["input"], AskSurface::Full).unwrap();
        let card = to_simple_card(&ask, "call_fixture");
        let card_value = serde_json::to_value(&card).unwrap();
        assert_eq!(check_simple_card(&card_value), vec![], "{name}: card check");
        for button in &card.buttons {
            let response = serde_json::to_value(&button.response).unwrap();
            let errors = validate_ask_response(&ask, &response, 10 * 1024 * 1024);
            assert!(errors.is_empty(), "{name}: button {} answers with errors {errors:?}", button.id);
        }
    }
}
