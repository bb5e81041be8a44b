//! The headless turn body (`POST /gpt/histories/{id}/turn`): exactly one of a prompt, an answer
//! envelope, or a button; anything else gets field errors, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::turn_body::{HeadlessTurn, parse_headless_turn};

fuzz_target!(|data: &[u8]| match parse_headless_turn(data) {
    Ok((HeadlessTurn::Prompt(prompt), _)) => assert!(!prompt.is_empty()),
    Ok((HeadlessTurn::Answer { tool_call_id, response }, _)) => {
        assert!(!tool_call_id.is_empty() && response.get("toolCallId").is_none());
    }
    Ok((HeadlessTurn::Button { tool_call_id, button_id }, _)) => {
        assert!(!tool_call_id.is_empty() && !button_id.is_empty());
    }
    Err(fields) => assert!(!fields.is_empty(), "a refusal names its fields"),
});
