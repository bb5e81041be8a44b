//! The block document readers on a reply's text: both YAML readers (wherever the one-pass subset
//! reader answers, the full saphyr reader must give the same document), then the whole check
//! with html allowed, and the streaming read of every prefix a reply passes through.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::blocks::{BlockOptions, check_blocks_text, parse_blocks_partial, read_with_both};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (subset, full) = read_with_both(text);
    if let Some(subset) = subset {
        assert_eq!(Ok(subset), full, "the readers disagree on {text:?}");
    }
    let options = BlockOptions { allow_html: true, ..BlockOptions::default() };
    let check = check_blocks_text(text, &options);
    assert_eq!(check.ok, check.doc.is_some(), "ok and the document go together");
    // A streaming reply is read again at each chunk; a few cut points stand for them.
    for cut in [text.len() / 3, text.len() / 2, text.len()] {
        if let Some(prefix) = text.get(..cut) {
            let _ = parse_blocks_partial(prefix);
        }
    }
});
