//! The ask contract's speed over the reference corpus (../shared/fixtures/asks), and over
//! Palaver's question-set fixtures (contract/fixtures/asks) beside it.
//! Run: `cargo bench -p palaver-contract --bench asks`; `scripts/contract-ratios.py` reads the
//! corpus pass as a ratio to its floor, the same inputs merely read into `serde_json::Value`.

// A benchmark that cannot set up has nothing to measure: it stops there.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use palaver_contract::asks::{AskKind, AskSurface, parse_ask_input, to_simple_card, validate_ask_response};
use serde_json::{Value, json};

/// The fixtures under `root` (valid and invalid) whose kind `keep` takes.
fn corpus(root: PathBuf, keep: impl Fn(AskKind) -> bool) -> Vec<(AskKind, Value)> {
    let mut fixtures = Vec::new();
    for folder in ["valid", "invalid"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let fixture: Value =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
            let kind = AskKind::parse(fixture["kind"].as_str().unwrap()).unwrap();
            if keep(kind) {
                fixtures.push((kind, fixture["input"].clone()));
            }
        }
    }
    fixtures
}

/// One pass: every input validated, and every valid one turned into its card.
fn pass(corpus: &[(AskKind, Value)]) -> usize {
    let mut buttons = 0;
    for (kind, input) in corpus {
        if let Ok(ask) = parse_ask_input(*kind, input, AskSurface::Full) {
            buttons += to_simple_card(&ask, "call_bench").buttons.len();
        }
    }
    buttons
}

fn benches(c: &mut Criterion) {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let reference = corpus(manifest.join("../../shared/fixtures/asks"), |_| true);
    println!("corpus: {} fixtures", reference.len());
    c.bench_function("validate + card, whole corpus (one pass)", |b| b.iter(|| pass(black_box(&reference))));
    // The floor: the same inputs as text, only read into JSON values.
    let texts: Vec<String> = reference.iter().map(|(_, input)| input.to_string()).collect();
    c.bench_function("read into serde_json::Value, whole corpus (one pass)", |b| {
        b.iter(|| {
            texts.iter().map(|text| serde_json::from_str::<Value>(black_box(text)).map_or(0, |_| 1)).sum::<usize>()
        })
    });
    let questions = corpus(manifest.join("fixtures/asks"), |kind| kind == AskKind::Questions);
    println!("question sets: {} fixtures", questions.len());
    c.bench_function("validate + card, question-set fixtures (one pass)", |b| b.iter(|| pass(black_box(&questions))));

    let plan = parse_ask_input(
        AskKind::Choice,
        &json!({"prompt": "Which plan?", "select": "one", "default": ["team"], "options": [
            {"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}, {"id": "enterprise", "label": "Enterprise"}]}),
        AskSurface::Full,
    )
    .unwrap();
    let answer = json!({"action": "accept", "content": {"selected": ["team"]}});
    c.bench_function("answer check (choice accept)", |b| {
        b.iter(|| validate_ask_response(black_box(&plan), black_box(&answer), 10 * 1024 * 1024))
    });

    let logo = parse_ask_input(
        AskKind::Questions,
        &json!({"prompt": "About the logo", "questions": [
            {"title": "Which shade?", "answers": [{"label": "#b49c54"}, {"label": "#d4af37"}]},
            {"title": "Which sizes?", "multi": true, "allowCustom": true, "answers": [{"label": "Favicon"}, {"label": "Billboard"}]}]}),
        AskSurface::Full,
    )
    .unwrap();
    let answer = json!({"action": "accept", "content": {"answers": {
        "q1": {"picked": ["a1"]}, "q2": {"picked": ["a2"], "custom": "Embroidery"}}}});
    c.bench_function("answer check (question set accept)", |b| {
        b.iter(|| validate_ask_response(black_box(&logo), black_box(&answer), 10 * 1024 * 1024))
    });
}

criterion_group!(contract, benches);
criterion_main!(contract);
