//! A running summary of the messages cut from what the model is sent, made by the model
//! itself: a plain completion without tools, over the summary so far and the messages it does
//! not cover yet, in pieces that each fit the model's budget.

use crate::llm::{CallPurpose, ChatModel, ModelMessage, ModelRequest, Usage, whole_text};

use super::fit::text_tokens;

const SUMMARY_INSTRUCTION: &str = "You keep a running summary of a conversation between a person and \
an assistant. Bring the summary up to date with the messages you are given: keep what the person \
wants, the facts, names, numbers and decisions, what was asked and answered, and what is still open; \
leave out small talk. Write plain prose in at most 200 words, and nothing else.";

/// How the summary is put before the messages the model is sent.
pub const SUMMARY_INTRO: &str = "Earlier messages of this conversation are not shown; this is a summary of them:";

/// One message as a line of the transcript the model summarises.
fn transcript_line(message: &ModelMessage) -> String {
    match message {
        ModelMessage::User { text, .. } => format!("Person: {text}"),
        ModelMessage::Assistant { text, tool_calls } => {
            let calls =
                tool_calls.iter().map(|call| format!("\n(The assistant called {} with {})", call.name, call.input));
            format!("Assistant: {text}{}", calls.collect::<String>())
        }
        ModelMessage::Tool { tool_name, result, .. } => format!("({tool_name} answered {result})"),
    }
}

/// The transcript of `messages` in pieces of at most `piece_tokens` each (a longer message is
/// cut short to fit one).
fn pieces(messages: &[ModelMessage], piece_tokens: u32) -> Vec<String> {
    let most_bytes = usize::try_from(piece_tokens).unwrap_or(usize::MAX).saturating_mul(4);
    let mut pieces: Vec<String> = Vec::new();
    let mut piece = String::new();
    for message in messages {
        let mut line = transcript_line(message);
        if line.len() > most_bytes {
            let mut end = most_bytes.saturating_sub(4);
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line.truncate(end);
            line.push('…');
        }
        if !piece.is_empty() && piece.len() + line.len() + 2 > most_bytes {
            pieces.push(std::mem::take(&mut piece));
        }
        if !piece.is_empty() {
            piece.push_str("\n\n");
        }
        piece.push_str(&line);
    }
    if !piece.is_empty() {
        pieces.push(piece);
    }
    pieces
}

/// `earlier` (the summary so far, if any) brought up to date with `messages`, in calls that
/// each fit `budget`; the summary is cut to `most_tokens`. The model's error when a call fails.
pub async fn summarise(
    model: &dyn ChatModel,
    earlier: Option<String>,
    messages: &[ModelMessage],
    budget: u32,
    most_tokens: u32,
) -> Result<(String, Usage), String> {
    let piece_tokens = (budget / 2).saturating_sub(most_tokens + text_tokens(SUMMARY_INSTRUCTION)).max(100);
    let mut summary = earlier;
    let mut used = Usage::default();
    for piece in pieces(messages, piece_tokens) {
        let text = match &summary {
            Some(summary) => format!("The summary so far:\n{summary}\n\nThe messages that follow it:\n{piece}"),
            None => format!("The messages:\n{piece}"),
        };
        let request = ModelRequest {
            system: SUMMARY_INSTRUCTION.to_string(),
            messages: vec![ModelMessage::User { text, parts: Vec::new() }],
            tools: Vec::new(),
            purpose: CallPurpose::Summary,
        };
        let (text, usage) = whole_text(model, request).await?;
        used.input_tokens += usage.input_tokens;
        used.output_tokens += usage.output_tokens;
        let text = text.trim();
        if text.is_empty() {
            return Err("The model wrote an empty summary.".into());
        }
        summary = Some(shortened(text, most_tokens));
    }
    summary.map(|summary| (summary, used)).ok_or_else(|| "There was nothing to summarise.".into())
}

/// `text` cut to about `most_tokens`, so a wordy summary cannot take the kept messages' room.
fn shortened(text: &str, most_tokens: u32) -> String {
    let most_chars = usize::try_from(most_tokens).unwrap_or(usize::MAX).saturating_mul(4);
    if text.len() <= most_chars {
        return text.to_string();
    }
    let mut end = most_chars.saturating_sub(4);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transcript_is_cut_into_pieces_that_fit() {
        let messages: Vec<ModelMessage> = (0..10)
            .map(|index| ModelMessage::User { text: format!("{index} {}", "é".repeat(100)), parts: Vec::new() })
            .collect();
        let cut = pieces(&messages, 150);
        assert!(cut.len() > 1, "{}", cut.len());
        assert!(cut.iter().all(|piece| piece.len() <= 600));
        assert!(cut.concat().contains("Person: 9 "));
        let long = vec![ModelMessage::User { text: "é".repeat(5_000), parts: Vec::new() }];
        assert!(pieces(&long, 150)[0].ends_with('…'));
        assert_eq!(shortened("ééé", 100), "ééé");
        assert!(shortened(&"é".repeat(1_000), 100).len() <= 400);
    }
}
