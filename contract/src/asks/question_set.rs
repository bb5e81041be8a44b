//! A question set (Palaver's `questions` kind) as stored and sent: the model's titles and
//! labels, with the ids Palaver minted for them.

use serde::{Deserialize, Serialize};

use super::input::ChoiceOption;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    /// `q1`, `q2`, … within the set, minted by Palaver.
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multi: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_custom: Option<bool>,
    /// Its answers, as choice options whose ids (`a1`, `a2`, …) Palaver minted.
    pub answers: Vec<ChoiceOption>,
}

impl Question {
    pub fn is_multi(&self) -> bool {
        self.multi == Some(true)
    }

    pub fn allows_custom(&self) -> bool {
        self.allow_custom == Some(true)
    }

    /// The label of the answer with `id`, if the question offers it.
    pub fn answer_label(&self, id: &str) -> Option<&str> {
        self.answers.iter().find(|answer| answer.id == id).map(|answer| answer.label.as_str())
    }
}

/// A question set as stored and sent: the model's labels, with the ids Palaver minted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestionsInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
    pub questions: Vec<Question>,
}

/// The id Palaver gives the question (`q1`, …) or answer (`a1`, …) at `index`.
pub fn minted_id(prefix: char, index: usize) -> String {
    format!("{prefix}{}", index + 1)
}
