//! The typed ask inputs: what a valid `ask_<kind>` call holds.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::form_field::FormField;
use super::limits::ASK_LIMITS;

/// The `{min, max}` an answer must meet: choices picked, characters written, files sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub min: i64,
    pub max: i64,
}

/// The ask kinds, in the order the spec lists them (`ASK_KINDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AskKind {
    Choice,
    Confirm,
    Markdown,
    Form,
    Files,
    /// Palaver's addition: a set of quick questions in one card.
    Questions,
}

pub const ASK_KINDS: [AskKind; 6] =
    [AskKind::Choice, AskKind::Confirm, AskKind::Markdown, AskKind::Form, AskKind::Files, AskKind::Questions];
/// The kinds a small screen can show (`COMPACT_ASK_KINDS`, with Palaver's question sets as
/// one single-pick question).
pub const COMPACT_ASK_KINDS: [AskKind; 3] = [AskKind::Choice, AskKind::Confirm, AskKind::Questions];

impl AskKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AskKind::Choice => "choice",
            AskKind::Confirm => "confirm",
            AskKind::Markdown => "markdown",
            AskKind::Form => "form",
            AskKind::Files => "files",
            AskKind::Questions => "questions",
        }
    }

    pub fn parse(name: &str) -> Option<AskKind> {
        ASK_KINDS.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The tool the model calls for this kind: `ask_<kind>`.
    pub fn tool_name(self) -> String {
        format!("ask_{}", self.as_str())
    }

    pub fn is_compact(self) -> bool {
        COMPACT_ASK_KINDS.contains(&self)
    }
}

/// Where a turn is shown (`ASK_SURFACES`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AskSurface {
    #[default]
    Full,
    Compact,
}

impl AskSurface {
    pub const ALL: [AskSurface; 2] = [AskSurface::Full, AskSurface::Compact];

    pub fn as_str(self) -> &'static str {
        match self {
            AskSurface::Full => "full",
            AskSurface::Compact => "compact",
        }
    }

    pub fn parse(name: &str) -> Option<AskSurface> {
        Self::ALL.into_iter().find(|surface| surface.as_str() == name)
    }
}

/// The kinds a surface offers from `kinds`, in their given order, each once.
pub fn ask_kinds_for_surface(kinds: &[AskKind], surface: AskSurface) -> Vec<AskKind> {
    let mut offered: Vec<AskKind> = Vec::with_capacity(kinds.len());
    for &kind in kinds {
        if !offered.contains(&kind) && (surface == AskSurface::Full || kind.is_compact()) {
            offered.push(kind);
        }
    }
    offered
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SelectMode {
    One,
    Many,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChoiceOption {
    pub id: String,
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The BCP 47 tag of the language the ask is written in (Palaver's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
    pub select: SelectMode,
    pub options: Vec<ChoiceOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_selected: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_selected: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_other: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_label: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The BCP 47 tag of the language the ask is written in (Palaver's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deny_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarkdownInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The BCP 47 tag of the language the ask is written in (Palaver's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initial: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The BCP 47 tag of the language the ask is written in (Palaver's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
    pub fields: Vec<FormField>,
}

impl FormInput {
    /// The defaults keyed by field id, leaving out fields without one (`formDefaultValues`).
    pub fn default_values(&self) -> serde_json::Map<String, Value> {
        self.fields.iter().filter_map(|field| Some((field.id.clone(), field.default.clone()?))).collect()
    }
}

/// What a `files` ask accepts (`ASK_FILE_ACCEPT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileAccept {
    Image,
    Pdf,
    Text,
    Csv,
    Json,
}

pub const ASK_FILE_ACCEPT: [FileAccept; 5] =
    [FileAccept::Image, FileAccept::Pdf, FileAccept::Text, FileAccept::Csv, FileAccept::Json];

impl FileAccept {
    pub fn as_str(self) -> &'static str {
        match self {
            FileAccept::Image => "image",
            FileAccept::Pdf => "pdf",
            FileAccept::Text => "text",
            FileAccept::Csv => "csv",
            FileAccept::Json => "json",
        }
    }

    pub fn parse(name: &str) -> Option<FileAccept> {
        ASK_FILE_ACCEPT.into_iter().find(|accept| accept.as_str() == name)
    }

    /// The MIME types this value allows (`ASK_FILE_ACCEPT_MIME_TYPES`).
    pub fn mime_types(self) -> &'static [&'static str] {
        match self {
            FileAccept::Image => &["image/jpeg", "image/png", "image/gif", "image/webp"],
            FileAccept::Pdf => &["application/pdf"],
            FileAccept::Text => &["text/plain"],
            FileAccept::Csv => &["text/csv"],
            FileAccept::Json => &["application/json"],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FilesInput {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The BCP 47 tag of the language the ask is written in (Palaver's addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submit_label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_decline: Option<bool>,
    pub accept: Vec<FileAccept>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_files: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_files: Option<i64>,
}

impl ChoiceInput {
    /// The choices an answer must hold (`choiceSelectionBounds`); Other counts as one.
    pub fn selection_bounds(&self) -> Bounds {
        match self.select {
            SelectMode::One => Bounds { min: 1, max: 1 },
            SelectMode::Many => {
                let choices = self.options.len() + usize::from(self.allow_other == Some(true));
                Bounds {
                    min: self.min_selected.unwrap_or(1),
                    max: self.max_selected.unwrap_or_else(|| i64::try_from(choices).unwrap_or(i64::MAX)),
                }
            }
        }
    }
}

impl ConfirmInput {
    /// The approve and deny labels, defaults filled in (`confirmButtonLabels`).
    pub fn button_labels(&self) -> (&str, &str) {
        (self.confirm_label.as_deref().unwrap_or("Confirm"), self.deny_label.as_deref().unwrap_or("Cancel"))
    }
}

impl MarkdownInput {
    /// The length a markdown answer must meet (`markdownLengthBounds`).
    pub fn length_bounds(&self) -> Bounds {
        let cap = i64::try_from(ASK_LIMITS.markdown.max_length).unwrap_or(i64::MAX);
        Bounds { min: self.min_length.unwrap_or(0), max: self.max_length.unwrap_or(cap) }
    }
}

impl FilesInput {
    /// The files an answer must hold (`filesCountBounds`).
    pub fn count_bounds(&self) -> Bounds {
        let limits = &ASK_LIMITS.files;
        Bounds {
            min: self.min_files.unwrap_or(limits.min_files as i64),
            max: self.max_files.unwrap_or(limits.max_files as i64),
        }
    }
}
