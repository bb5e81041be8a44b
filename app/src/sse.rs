//! Decoding a `text/event-stream` body that arrives in arbitrary chunks.

/// Collects chunks and yields the `data` of every complete event.
#[derive(Default)]
pub struct SseDecoder {
    buffer: String,
}

impl SseDecoder {
    /// Adds a chunk and returns the data of the events it completed, in order.
    pub fn push(&mut self, chunk: &str) -> Vec<String> {
        self.buffer.push_str(&chunk.replace("\r\n", "\n"));
        let mut events = Vec::new();
        while let Some(end) = self.buffer.find("\n\n") {
            let block: String = self.buffer.drain(..end + 2).collect();
            let data: Vec<&str> = block
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(|value| value.strip_prefix(' ').unwrap_or(value))
                .collect();
            if !data.is_empty() {
                events.push(data.join("\n"));
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
    fn multi_line_data_and_crlf() {
        let mut decoder = SseDecoder::default();
        assert_eq!(decoder.push("data: a\r\ndata: b\r\n\r\n"), vec!["a\nb"]);
    }
}
