//! The ask input parser: `{"kind", "input"}` as the model writes a tool call, on both surfaces.
//! An ask that parses must read back from what is stored (`parse_stored_ask`), as a reload does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::asks::{AskKind, AskSurface, parse_ask_input, parse_stored_ask};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(Value::Object(call)) = serde_json::from_slice::<Value>(data) else { return };
    let Some(kind) = call.get("kind").and_then(Value::as_str).and_then(AskKind::parse) else { return };
    let input = call.get("input").cloned().unwrap_or(Value::Null);
    for surface in AskSurface::ALL {
        if let Ok(ask) = parse_ask_input(kind, &input, surface) {
            let stored = ask.stored_input(&input);
            assert!(parse_stored_ask(kind, &stored).is_ok(), "a parsed ask does not read back: {stored}");
        }
    }
});
