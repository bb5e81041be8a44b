//! How much of a conversation fits a model's context budget, without a tokenizer.
//!
//! Tokens are estimated as a message's bytes (as JSON, its calls and results included) divided
//! by four, rounded up, plus a few for its framing: close to what providers count for English
//! and code, and an over-estimate for most other text. A file sent with the turn counts as
//! [`FILE_TOKENS`] whatever its size (providers charge images and documents by their pages and
//! pixels, not their base64). The system prompt and the tools' schemas are counted the same
//! way, and [`reply_headroom`] is kept free for the reply.

use std::collections::HashMap;

use crate::llm::{ContentPart, ModelMessage, ToolDefinition};

/// What a file (an image, a document) sent to the model counts for.
const FILE_TOKENS: u32 = 1_600;

/// The tokens of a message's role and separators.
const MESSAGE_FRAMING: u32 = 8;

pub fn text_tokens(text: &str) -> u32 {
    u32::try_from(text.len().div_ceil(4)).unwrap_or(u32::MAX)
}

fn parts_tokens(parts: &[ContentPart]) -> u32 {
    parts
        .iter()
        .map(|part| match part {
            ContentPart::Text { text } => text_tokens(text),
            ContentPart::ImageData { .. } | ContentPart::FileData { .. } => FILE_TOKENS,
        })
        .fold(0, u32::saturating_add)
}

pub fn message_tokens(message: &ModelMessage) -> u32 {
    let body = match message {
        ModelMessage::User { text, parts } => text_tokens(text).saturating_add(parts_tokens(parts)),
        ModelMessage::Assistant { text, tool_calls } => tool_calls
            .iter()
            .map(|call| text_tokens(&call.id) + text_tokens(&call.name) + text_tokens(&call.input.to_string()))
            .fold(text_tokens(text), u32::saturating_add),
        ModelMessage::Tool { tool_call_id, tool_name, result, parts } => {
            (text_tokens(tool_call_id) + text_tokens(tool_name) + text_tokens(&result.to_string()))
                .saturating_add(parts_tokens(parts))
        }
    };
    body.saturating_add(MESSAGE_FRAMING)
}

pub fn tools_tokens(tools: &[ToolDefinition]) -> u32 {
    text_tokens(&serde_json::to_string(tools).unwrap_or_default())
}

/// What is kept free for the model's reply: the 4,096 tokens Palaver asks Anthropic for at
/// most, or a quarter of a smaller budget.
pub fn reply_headroom(budget: u32) -> u32 {
    (budget / 4).min(4_096)
}

/// What a summary may take of the budget: a tenth, between 200 and 2,000 tokens.
pub fn summary_reserve(budget: u32) -> u32 {
    (budget / 10).clamp(200, 2_000)
}

/// The messages of a conversation sized up for cutting: where a cut may fall, and the tokens
/// from each message on.
pub struct Sizes {
    /// Indexes of messages the model may be sent from: 0, and each of the person's messages
    /// up to the running turn's, when no call before it is answered after it.
    cut_points: Vec<usize>,
    /// `from[i]`: the tokens of messages `i..`.
    from: Vec<u32>,
}

impl Sizes {
    /// `running_start`: where the turn now running begins (its message to the model); it and
    /// everything after it are always sent.
    pub fn of(messages: &[ModelMessage], running_start: usize) -> Self {
        let mut from = vec![0u32; messages.len() + 1];
        for (index, message) in messages.iter().enumerate().rev() {
            from[index] = from[index + 1].saturating_add(message_tokens(message));
        }
        // A cut between a call and its result would send the result alone: providers refuse it.
        let mut called_at: HashMap<&str, usize> = HashMap::new();
        let mut spans = Vec::new();
        for (index, message) in messages.iter().enumerate() {
            match message {
                ModelMessage::Assistant { tool_calls, .. } => {
                    called_at.extend(tool_calls.iter().map(|call| (call.id.as_str(), index)))
                }
                ModelMessage::Tool { tool_call_id, .. } => {
                    spans.extend(called_at.get(tool_call_id.as_str()).map(|called| (*called, index)))
                }
                ModelMessage::User { .. } => {}
            }
        }
        let cut_points = (0..=running_start.min(messages.len()))
            .filter(|&index| index == 0 || matches!(messages.get(index), Some(ModelMessage::User { .. })))
            .filter(|&index| !spans.iter().any(|&(called, answered)| called < index && index <= answered))
            .collect();
        Sizes { cut_points, from }
    }

    /// The tokens of every message.
    pub fn total(&self) -> u32 {
        self.from[0]
    }

    /// The earliest place to send from that keeps the messages within `allowance`; the last
    /// place there is when even the running turn alone is larger.
    pub fn cut_for(&self, allowance: u32) -> usize {
        self.cut_points
            .iter()
            .copied()
            .find(|&index| self.from[index] <= allowance)
            .or(self.cut_points.last().copied())
            .unwrap_or(0)
    }
}

/// Where the turn now running begins: its message of the person's, the last of those replayed.
pub fn running_start(messages: &[ModelMessage], replayed_len: usize) -> usize {
    messages[..replayed_len.min(messages.len())]
        .iter()
        .rposition(|message| matches!(message, ModelMessage::User { .. }))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::llm::ToolCall;

    fn user(text: &str) -> ModelMessage {
        ModelMessage::User { text: text.into(), parts: Vec::new() }
    }

    fn reply(text: &str) -> ModelMessage {
        ModelMessage::Assistant { text: text.into(), tool_calls: Vec::new() }
    }

    fn call(id: &str) -> ModelMessage {
        ModelMessage::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall { id: id.into(), name: "ask_confirm".into(), input: json!({}) }],
        }
    }

    #[test]
    fn the_newest_whole_turns_that_fit_are_kept() {
        let long = "x".repeat(400);
        let messages = vec![user(&long), reply(&long), user(&long), reply(&long), user("now")];
        let sizes = Sizes::of(&messages, 4);
        assert_eq!(sizes.cut_for(u32::MAX), 0);
        // Room for one turn and the running one: the cut falls before the second message of the person's.
        assert_eq!(sizes.cut_for(sizes.from[2]), 2);
        assert_eq!(sizes.cut_for(sizes.from[2] - 1), 4);
        // Nothing fits: the running turn is still sent whole.
        assert_eq!(sizes.cut_for(1), 4);
    }

    #[test]
    fn a_call_is_never_sent_without_its_result_nor_the_reverse() {
        // An ask cancelled by the next message: its result is stored after that message.
        let messages = vec![
            user("a"),
            call("c1"),
            user("b"),
            ModelMessage::tool("c1", "ask_confirm", json!({"action": "cancel"})),
            user("c"),
        ];
        let sizes = Sizes::of(&messages, 4);
        assert_eq!(sizes.cut_points, [0, 4]);
    }

    #[test]
    fn the_running_turn_begins_at_its_message() {
        let messages = vec![user("a"), reply("b"), user("c"), call("c1")];
        assert_eq!(running_start(&messages, 3), 2);
        assert_eq!(running_start(&messages, 0), 0);
        let file = ContentPart::ImageData { mime_type: "image/png".into(), data: "A".repeat(1_000_000) };
        let with_file = ModelMessage::User { text: String::new(), parts: vec![file] };
        assert_eq!(message_tokens(&with_file), FILE_TOKENS + MESSAGE_FRAMING);
    }
}
