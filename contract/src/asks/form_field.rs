//! A form's fields: their types and the keys each type takes.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::limits::ASK_LIMITS;

/// The form field types, in the spec's order (`FORM_FIELD_TYPES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormFieldType {
    Text,
    Textarea,
    Email,
    Url,
    Phone,
    Number,
    Date,
    Time,
    Datetime,
    Boolean,
    Select,
    Multiselect,
}

pub const FORM_FIELD_TYPES: [FormFieldType; 12] = [
    FormFieldType::Text,
    FormFieldType::Textarea,
    FormFieldType::Email,
    FormFieldType::Url,
    FormFieldType::Phone,
    FormFieldType::Number,
    FormFieldType::Date,
    FormFieldType::Time,
    FormFieldType::Datetime,
    FormFieldType::Boolean,
    FormFieldType::Select,
    FormFieldType::Multiselect,
];

impl FormFieldType {
    pub const fn as_str(self) -> &'static str {
        match self {
            FormFieldType::Text => "text",
            FormFieldType::Textarea => "textarea",
            FormFieldType::Email => "email",
            FormFieldType::Url => "url",
            FormFieldType::Phone => "phone",
            FormFieldType::Number => "number",
            FormFieldType::Date => "date",
            FormFieldType::Time => "time",
            FormFieldType::Datetime => "datetime",
            FormFieldType::Boolean => "boolean",
            FormFieldType::Select => "select",
            FormFieldType::Multiselect => "multiselect",
        }
    }

    pub fn parse(name: &str) -> Option<FormFieldType> {
        FORM_FIELD_TYPES.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The keys this type takes beyond the shared ones (`id`, `type`, `label`, …).
    pub fn extra_keys(self) -> &'static [&'static str] {
        match self {
            FormFieldType::Text | FormFieldType::Textarea => &["minLength", "maxLength"],
            FormFieldType::Number => &["min", "max", "integer"],
            FormFieldType::Select | FormFieldType::Multiselect => &["options"],
            _ => &[],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormOption {
    pub id: String,
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FormField {
    pub id: String,
    #[serde(rename = "type")]
    pub field_type: FormFieldType,
    pub label: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub helper_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// The starting value; its JSON type matches the field type once validated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integer: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<FormOption>>,
}

impl FormField {
    /// The most characters a text or textarea value may have; the field type's cap for the
    /// other types (`formTextMaxLength`).
    pub fn text_max_length(&self) -> usize {
        let limits = &ASK_LIMITS.form;
        let cap = if self.field_type == FormFieldType::Textarea {
            limits.textarea_max_length
        } else {
            limits.text_max_length
        };
        match self.field_type {
            FormFieldType::Text | FormFieldType::Textarea => {
                self.max_length.and_then(|max| usize::try_from(max).ok()).unwrap_or(cap)
            }
            _ => cap,
        }
    }

    pub fn is_required(&self) -> bool {
        self.required == Some(true)
    }

    pub fn options(&self) -> &[FormOption] {
        self.options.as_deref().unwrap_or_default()
    }
}
