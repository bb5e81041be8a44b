//! The html block sanitizer: a fragment as the model writes it, then a whole reply document with
//! that fragment in an html block. Nothing that runs script may come out.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::blocks::{BlockOptions, sanitize_blocks_text, sanitize_html_fragment};

fuzz_target!(|data: &[u8]| {
    let Ok(html) = std::str::from_utf8(data) else { return };
    let clean = sanitize_html_fragment(html).to_ascii_lowercase();
    for tag in ["<script", "<iframe", "<object", "<embed", "<style"] {
        assert!(!clean.contains(tag), "{tag} came through: {clean}");
    }
    let document = format!("v: 1\nblocks:\n  - type: html\n    html: {}\n", serde_json::to_string(html).unwrap());
    let options = BlockOptions { allow_html: true, ..BlockOptions::default() };
    let _ = sanitize_blocks_text(&document, &options);
});
