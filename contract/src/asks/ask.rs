//! A validated ask: its kind and its typed input, whatever the kind.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::input::{AskKind, ChoiceInput, ConfirmInput, FilesInput, FormInput, MarkdownInput};
use super::question_set::QuestionsInput;

/// A validated ask: its kind and input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "input", rename_all = "lowercase")]
pub enum Ask {
    Choice(ChoiceInput),
    Confirm(ConfirmInput),
    Markdown(MarkdownInput),
    Form(FormInput),
    Files(FilesInput),
    Questions(QuestionsInput),
}

impl Ask {
    pub fn kind(&self) -> AskKind {
        match self {
            Ask::Choice(_) => AskKind::Choice,
            Ask::Confirm(_) => AskKind::Confirm,
            Ask::Markdown(_) => AskKind::Markdown,
            Ask::Form(_) => AskKind::Form,
            Ask::Files(_) => AskKind::Files,
            Ask::Questions(_) => AskKind::Questions,
        }
    }

    pub fn prompt(&self) -> &str {
        match self {
            Ask::Choice(input) => &input.prompt,
            Ask::Confirm(input) => &input.prompt,
            Ask::Markdown(input) => &input.prompt,
            Ask::Form(input) => &input.prompt,
            Ask::Files(input) => &input.prompt,
            Ask::Questions(input) => &input.prompt,
        }
    }

    pub fn title(&self) -> Option<&str> {
        match self {
            Ask::Choice(input) => input.title.as_deref(),
            Ask::Confirm(input) => input.title.as_deref(),
            Ask::Markdown(input) => input.title.as_deref(),
            Ask::Form(input) => input.title.as_deref(),
            Ask::Files(input) => input.title.as_deref(),
            Ask::Questions(input) => input.title.as_deref(),
        }
    }

    /// The language the ask is written in, when it says.
    pub fn locale(&self) -> Option<&str> {
        match self {
            Ask::Choice(input) => input.locale.as_deref(),
            Ask::Confirm(input) => input.locale.as_deref(),
            Ask::Markdown(input) => input.locale.as_deref(),
            Ask::Form(input) => input.locale.as_deref(),
            Ask::Files(input) => input.locale.as_deref(),
            Ask::Questions(input) => input.locale.as_deref(),
        }
    }

    /// The input as stored and sent: what the model wrote, except that a question set carries
    /// the ids Palaver minted for it.
    pub fn stored_input(&self, written: &Value) -> Value {
        match self {
            Ask::Questions(input) => serde_json::to_value(input).unwrap_or_default(),
            _ => written.clone(),
        }
    }

    /// Whether the ask accepts `decline` (`askAllowsDecline`): a confirm only with
    /// `allowDecline: true`, every other kind unless `allowDecline: false`.
    pub fn allows_decline(&self) -> bool {
        let allow_decline = match self {
            Ask::Choice(input) => input.allow_decline,
            Ask::Confirm(input) => return input.allow_decline == Some(true),
            Ask::Markdown(input) => input.allow_decline,
            Ask::Form(input) => input.allow_decline,
            Ask::Files(input) => input.allow_decline,
            Ask::Questions(input) => input.allow_decline,
        };
        allow_decline != Some(false)
    }
}
