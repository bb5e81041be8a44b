//! Decoding a `text/event-stream` body that arrives in arbitrary chunks.

/// Collects chunks and yields every complete event.
#[derive(Default)]
pub struct SseDecoder {
    buffer: String,
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
        self.buffer.push_str(&chunk.replace("\r\n", "\n"));
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
