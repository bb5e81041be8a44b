//! The answer check: an answer envelope (what a client posts as `askResponse`) against one ask
//! of each kind, chosen by the first byte. The check must answer, never panic, whatever comes.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use palaver_contract::asks::{Ask, AskKind, AskSurface, parse_ask_input, validate_ask_response};
use serde_json::Value;

/// One valid ask per kind, from the fixtures (`scripts/fuzz.sh` seeds answers in this order).
const FIXTURES: [&str; 6] = [
    include_str!("../../contract/fixtures/asks/valid/choice-many-every-choice-with-other.json"),
    include_str!("../../contract/fixtures/asks/valid/confirm-destructive-delete.json"),
    include_str!("../../contract/fixtures/asks/valid/markdown-announcement-draft.json"),
    include_str!("../../contract/fixtures/asks/valid/form-eight-fields.json"),
    include_str!("../../contract/fixtures/asks/valid/files-every-type.json"),
    include_str!("../../contract/fixtures/asks/valid/questions-logo-shade-and-sizes.json"),
];

static ASKS: LazyLock<Vec<Ask>> = LazyLock::new(|| {
    FIXTURES
        .iter()
        .map(|text| {
            let fixture: Value = serde_json::from_str(text).expect("a fixture is JSON");
            let kind = AskKind::parse(fixture["kind"].as_str().expect("a kind")).expect("a known kind");
            parse_ask_input(kind, &fixture["input"], AskSurface::Full).expect("a valid fixture")
        })
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((choice, answer)) = data.split_first() else { return };
    let Ok(answer) = serde_json::from_slice::<Value>(answer) else { return };
    let ask = &ASKS[usize::from(*choice) % ASKS.len()];
    let _ = validate_ask_response(ask, &answer, 10 * 1024 * 1024);
});
