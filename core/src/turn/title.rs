//! A conversation's title, as the reference makes it: after its first reply (not after a turn
//! that only asked, nor after one that failed), one model call with the title prompt names it;
//! when that call fails, the first message's words do. The `{done}` of that turn carries it.

use std::time::Duration;

use super::TurnInput;
use super::run::Turn;
use crate::conversation::store as histories;
use crate::llm::{CallPurpose, ModelMessage, ModelRequest};
use palaver_contract::text::shorten;
use palaver_wire::conversation::model::{HistoryRow, SET_TITLE_MAX_LENGTH, words_title};
use palaver_wire::live::{HistoryChange, HistoryChanged, LiveEvent};

/// The reference's title prompt (its `TITLE_GENERATION_PROMPT`).
pub const TITLE_GENERATION_PROMPT: &str = "Generate a short title (3-6 words) that summarizes this conversation for a \
     sidebar label. Return only the title text with no quotes, punctuation, or additional commentary.";

/// How much of the reply the title call sees, in characters.
const REPLY_SNIPPET_CHARS: usize = 500;

/// How long the title call may take before the first message's words stand in.
const TITLE_CALL_TIMEOUT: Duration = Duration::from_secs(15);

/// The title call: the first message and the start of the first reply, at temperature 0.3.
pub fn title_request(prompt: &str, reply: &str) -> ModelRequest {
    let snippet: String = reply.chars().take(REPLY_SNIPPET_CHARS).collect();
    ModelRequest {
        system: TITLE_GENERATION_PROMPT.into(),
        messages: vec![ModelMessage::User { text: format!("User: {prompt}\nAssistant: {snippet}"), parts: Vec::new() }],
        tools: Vec::new(),
        purpose: CallPurpose::Title,
    }
}

/// The model's answer as a title: its first line without the quotes around it; `None` when
/// nothing is left.
pub fn cleaned_title(answer: &str) -> Option<String> {
    let line = answer.trim().lines().next()?;
    let quotes: &[char] = &['"', '\'', '`', '“', '”', '‘', '’', '«', '»'];
    let title = line.trim().trim_matches(quotes).trim();
    (!title.is_empty()).then(|| shorten(title, SET_TITLE_MAX_LENGTH))
}

impl Turn {
    /// Whether the turn's end names the conversation: it had no title, and this is a whole
    /// reply (a stopped turn, the user waiting on the Stop, or a cut-off one names nothing). A
    /// conversation named since the turn started keeps its name (`set_title_if_unset`).
    pub(super) fn names_conversation(&self) -> bool {
        !(self.output.reply.trim().is_empty()
            || self.output.interrupted
            || self.record.metadata.stopped
            || self.transcript.titled)
    }

    /// Names the conversation after its first reply; the title when this turn set it (the
    /// rename goes out with the turn's end).
    pub(super) async fn title(&mut self) -> Option<String> {
        if !self.names_conversation() {
            return None;
        }
        let prompt = self.first_message()?;
        let title = match self.model_title(&prompt).await {
            Some(title) => title,
            None => words_title(&prompt)?,
        };
        match histories::set_title_if_unset(&self.runner.pool, &self.ids.history_id, &title).await {
            Ok(true) => {
                let change = HistoryChanged {
                    history_id: self.ids.history_id.clone(),
                    change: HistoryChange::Renamed,
                    title: Some(title.clone()),
                };
                self.output.held_events.push(LiveEvent::HistoryChanged(change));
                Some(title)
            }
            Ok(false) => None,
            Err(err) => {
                tracing::warn!(?err, history = self.ids.history_id, "could not store the title");
                None
            }
        }
    }

    /// The conversation's first message: stored, or this turn's.
    fn first_message(&self) -> Option<String> {
        let stored = self.transcript.rows.iter().chain(&self.output.new_rows).find_map(|row| match row {
            HistoryRow::User { text, .. } if !text.trim().is_empty() => Some(text.clone()),
            _ => None,
        });
        stored.or_else(|| match &self.transcript.input {
            TurnInput::Prompt(prompt) => Some(prompt.clone()),
            _ => None,
        })
    }

    async fn model_title(&self, prompt: &str) -> Option<String> {
        let call = crate::llm::whole_text(self.model.as_ref(), title_request(prompt, &self.output.reply));
        match tokio::time::timeout(TITLE_CALL_TIMEOUT, call).await {
            Ok(Ok((answer, _))) => cleaned_title(&answer),
            Ok(Err(message)) => {
                tracing::debug!(message, history = self.ids.history_id, "the title call failed");
                None
            }
            Err(_) => {
                tracing::debug!(history = self.ids.history_id, "the title call took too long");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_call_sees_the_first_message_and_the_replys_start() {
        let reply = "x".repeat(800);
        let request = title_request("Set up billing", &reply);
        assert_eq!((request.system.as_str(), request.temperature()), (TITLE_GENERATION_PROMPT, Some(0.3)));
        let ModelMessage::User { text, .. } = &request.messages[0] else { panic!() };
        assert_eq!(text, &format!("User: Set up billing\nAssistant: {}", "x".repeat(500)));
        assert!(request.tools.is_empty());
    }

    #[test]
    fn a_models_title_loses_its_quotes_and_a_prompts_words_stand_in() {
        assert_eq!(cleaned_title("\"Workspace setup\"\n").as_deref(), Some("Workspace setup"));
        assert_eq!(cleaned_title("“Team plan billing”").as_deref(), Some("Team plan billing"));
        assert_eq!(cleaned_title("  \"\"  "), None);
        assert_eq!(words_title("  Set   up\nbilling ").as_deref(), Some("Set up billing"));
        assert_eq!(words_title(" \n "), None);
    }
}
