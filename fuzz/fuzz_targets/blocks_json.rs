//! The block document reader on a JSON value (a document that did not come from text): its
//! structure, then the whole validation, with html allowed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::blocks::{BlockOptions, ParsedBlocks, validate_blocks};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let options = BlockOptions { allow_html: true, ..BlockOptions::default() };
    let check = validate_blocks(&ParsedBlocks::from_value(value), &options);
    assert_eq!(check.ok, check.doc.is_some(), "ok and the document go together");
});
