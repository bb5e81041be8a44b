//! The ask contract's speed over the reference corpus (../shared/fixtures/asks), and over
//! Palaver's question-set fixtures (contract/fixtures/asks) beside it.
//! Run: `cargo bench -p palaver-contract --bench asks`. Budgets (issue 3): validate + card
//! ≤ 1 µs per fixture, an answer check ≤ 0.1 µs.

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
