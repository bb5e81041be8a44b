//! The event-stream decoder, which reads every provider's reply and the browser's turn stream:
//! however the bytes are cut into chunks (the first byte picks the cuts), the events are the
//! same as when they arrive in one piece.
#![no_main]

use libfuzzer_sys::fuzz_target;
use palaver_contract::sse::SseDecoder;

fuzz_target!(|data: &[u8]| {
    let Some((step, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let whole = SseDecoder::default().push_events(text);
    let step = usize::from(*step % 16) + 1;
    let mut decoder = SseDecoder::default();
    let mut chunked = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + step).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        chunked.extend(decoder.push_events(&text[start..end]));
        start = end;
    }
    assert_eq!(whole, chunked, "cut every {step} bytes, {text:?} decodes differently");
});
