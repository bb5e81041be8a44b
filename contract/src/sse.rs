//! Decoding a `text/event-stream` body that arrives in arbitrary chunks.

/// Collects chunks and yields every complete event. Lines end in CRLF, LF or CR, as the
/// format allows, wherever the chunks are cut (a CRLF may come in two).
#[derive(Default)]
pub struct SseDecoder {
    buffer: String,
    /// The last chunk ended in CR: a LF starting the next one belongs to it.
    after_cr: bool,
}

/// One event: its `id:`, if it has one, and its `data`.
#[derive(Clone, Debug, PartialEq)]
pub struct SseEvent {
    pub id: Option<String>,
    pub data: String,
}

impl SseDecoder {
    /// Adds a chunk and returns the data of the events it completed, in order.
    pub fn push(&mut self, chunk: &str) -> Vec<String> {
        self.push_events(chunk).into_iter().map(|event| event.data).collect()
    }

    /// Adds a chunk and returns the events it completed (with their ids), in order.
    pub fn push_events(&mut self, chunk: &str) -> Vec<SseEvent> {
        if chunk.is_empty() {
            return Vec::new();
        }
        let chunk = if self.after_cr { chunk.strip_prefix('\n').unwrap_or(chunk) } else { chunk };
        self.after_cr = chunk.ends_with('\r');
        self.buffer.push_str(&chunk.replace("\r\n", "\n").replace('\r', "\n"));
        let mut events = Vec::new();
        while let Some(end) = self.buffer.find("\n\n") {
            let block: String = self.buffer.drain(..end + 2).collect();
            let field = |name: &str| {
                block
                    .lines()
                    .filter_map(|line| line.strip_prefix(name))
                    .map(|value| value.strip_prefix(' ').unwrap_or(value).to_string())
                    .collect::<Vec<_>>()
            };
            let data = field("data:");
            if !data.is_empty() {
                events.push(SseEvent { id: field("id:").pop(), data: data.join("\n") });
            }
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_across_chunks() {
        let mut decoder = SseDecoder::default();
        assert!(decoder.push("data: {\"text\":\"he").is_empty());
        assert_eq!(decoder.push("llo\"}\n\ndata: {\"done\":true}\n"), vec!["{\"text\":\"hello\"}"]);
        assert_eq!(decoder.push("\n: comment\n\n"), vec!["{\"done\":true}"]);
    }

    /// The fuzzer's first find (`fuzz/`, target sse_decoder): a CRLF cut between its CR and
    /// its LF held the event back until a later one, and merged them.
    #[test]
    fn a_line_end_cut_between_its_cr_and_lf_ends_the_line_once() {
        let stream = "id: t1.0\r\ndata: {\"text\":\"a\"}\r\n\r\nid: t1.1\r\ndata: line one\r\ndata: line two\r\n\r\n";
        let whole = SseDecoder::default().push_events(stream);
        assert_eq!(whole.len(), 2);
        for cut in 1..stream.len() {
            let mut decoder = SseDecoder::default();
            let mut events = decoder.push_events(&stream[..cut]);
            events.extend(decoder.push_events(&stream[cut..]));
            assert_eq!(events, whole, "cut at {cut}");
        }
        let mut decoder = SseDecoder::default();
        assert_eq!(decoder.push("data: old mac\r\rdata: cr only\r"), vec!["old mac"]);
        assert_eq!(decoder.push("\r"), vec!["cr only"]);
    }

    #[test]
    fn events_keep_their_ids() {
        let mut decoder = SseDecoder::default();
        let events = decoder.push_events("id: t1.0\ndata: {}\n\ndata: x\n\n");
        assert_eq!(events[0], SseEvent { id: Some("t1.0".into()), data: "{}".into() });
        assert_eq!(events[1].id, None);
    }

    #[test]
    fn multi_line_data_and_crlf() {
        let mut decoder = SseDecoder::default();
        assert_eq!(decoder.push("data: a\r\ndata: b\r\n\r\n"), vec!["a\nb"]);
    }
}
