//! Conformance with the reference fixtures in ../shared/fixtures/asks, and with Palaver's own
//! for its additions (question sets, locales) in contract/fixtures/asks. Palaver's fixtures may
//! also give a `surface` (default full), the `stored` input (a question set with its minted
//! ids), and `answers`: responses with the errors each must get (none for a valid one).

use std::path::PathBuf;

use palaver_contract::asks::{
    AskKind, AskSurface, check_simple_card, parse_ask_input, parse_stored_ask, to_simple_card, validate_ask_input,
    validate_ask_response,
};
use serde_json::Value;

/// Every fixture in `group` (valid or invalid): the reference's, then Palaver's.
fn fixtures(group: &str) -> Vec<(String, Value)> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut all = in_dir(&manifest.join("../../shared/fixtures/asks").join(group));
    all.extend(palaver_fixtures(group));
    all
}

/// Palaver's own fixtures in `group`: those the reference does not have.
fn palaver_fixtures(group: &str) -> Vec<(String, Value)> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let reference: Vec<String> =
        in_dir(&manifest.join("../../shared/fixtures/asks").join(group)).into_iter().map(|(name, _)| name).collect();
    in_dir(&manifest.join("fixtures/asks").join(group))
        .into_iter()
        .filter(|(name, _)| !reference.contains(name))
        .collect()
}

fn surface_of(fixture: &Value) -> AskSurface {
    fixture["surface"].as_str().and_then(AskSurface::parse).unwrap_or_default()
}

fn in_dir(dir: &std::path::Path) -> Vec<(String, Value)> {
    let mut files: Vec<(String, Value)> = std::fs::read_dir(dir)
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
        match parse_ask_input(kind, &fixture["input"], surface_of(&fixture)) {
            Err(errors) => failures.push(format!("{name}: unexpected errors {errors:?}")),
            Ok(ask) => {
                let card = serde_json::to_value(to_simple_card(&ask, "call_fixture")).unwrap();
                if card != fixture["simple"] {
                    failures.push(format!("{name}: card\n  got      {card}\n  expected {}", fixture["simple"]));
                }
                let stored = ask.stored_input(&fixture["input"]);
                if let Some(expected) = fixture.get("stored").filter(|expected| **expected != stored) {
                    failures.push(format!("{name}: stored\n  got      {stored}\n  expected {expected}"));
                }
                if parse_stored_ask(kind, &stored).as_ref() != Ok(&ask) {
                    failures.push(format!("{name}: the stored input does not read back as the same ask"));
                }
                for case in fixture["answers"].as_array().into_iter().flatten() {
                    let errors = validate_ask_response(&ask, &case["response"], 10 * 1024 * 1024);
                    let got: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.code)).collect();
                    let expected: Vec<String> = case["errors"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|e| format!("{} {}", e["path"].as_str().unwrap(), e["code"].as_str().unwrap()))
                        .collect();
                    if got != expected {
                        failures.push(format!(
                            "{name}: answer {}\n  got      {got:?}\n  expected {expected:?}",
                            case["response"]
                        ));
                    }
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
        let errors = validate_ask_input(kind_of(&fixture), &fixture["input"], surface_of(&fixture));
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
        let ask = parse_ask_input(kind_of(&fixture), &fixture["input"], surface_of(&fixture)).unwrap();
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

#[test]
fn palaver_has_fixtures_of_its_own_for_every_addition() {
    let valid = palaver_fixtures("valid");
    let invalid = palaver_fixtures("invalid");
    let questions = |fixtures: &[(String, Value)]| fixtures.iter().filter(|(_, f)| f["kind"] == "questions").count();
    assert!(questions(&valid) >= 4 && questions(&invalid) >= 4, "question-set fixtures are missing");
    assert!(valid.iter().any(|(_, f)| f["input"]["locale"].is_string()), "no valid fixture has a locale");
    assert!(valid.iter().any(|(_, f)| f["surface"] == "compact"), "no compact fixture");
    let codes: std::collections::BTreeSet<String> = invalid
        .iter()
        .flat_map(|(_, f)| f["errors"].as_array().cloned().unwrap_or_default())
        .chain(valid.iter().flat_map(|(_, f)| {
            f["answers"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|case| case["errors"].as_array().cloned().unwrap_or_default())
                .collect::<Vec<_>>()
        }))
        .map(|e| e["code"].as_str().unwrap().to_string())
        .collect();
    for code in [
        "DUPLICATE_ID",
        "DUPLICATE_LABEL",
        "INVALID_FORMAT",
        "INVALID_TYPE",
        "MISSING_REQUIRED",
        "OPTION_NOT_OFFERED",
        "OTHER_NOT_ALLOWED",
        "SELECTION_COUNT",
        "TOO_FEW",
        "TOO_LONG",
        "TOO_MANY",
        "TOO_SHORT",
        "UNKNOWN_KEY",
    ] {
        assert!(codes.contains(code), "no Palaver fixture produces {code}");
    }
}
