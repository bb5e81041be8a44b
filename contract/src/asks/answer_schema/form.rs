//! A form answer's schema: `{"values": {<field id>: value}}`, each value typed by its field. A
//! blank value (only spaces, or an empty list) counts as unanswered, whatever the field's type:
//! a required field refuses it, an optional one takes it.

use serde_json::{Map, Value, json};

use super::super::field_patterns::FieldPattern;
use super::super::form_field::{FormField, FormFieldType};
use super::super::input::FormInput;
use super::super::json_schemas::strict;
use super::super::limits::ASK_LIMITS;
use super::patterns;

pub(super) fn form(input: &FormInput, field_patterns: &[FieldPattern]) -> Value {
    let values: Map<String, Value> = input
        .fields
        .iter()
        .map(|field| {
            let patterns: Vec<&str> = field_patterns
                .iter()
                .filter(|pattern| pattern.field == field.id && regex_lite::Regex::new(&pattern.pattern).is_ok())
                .map(|pattern| pattern.pattern.as_str())
                .collect();
            (field.id.clone(), field_schema(field, &patterns))
        })
        .collect();
    let required: Vec<&str> =
        input.fields.iter().filter(|field| field.is_required()).map(|field| field.id.as_str()).collect();
    let mut values = strict(Value::Object(values), &required);
    values["title"] = json!("Values");
    strict(json!({"values": values}), &["values"])
}

fn string(max_length: usize, pattern: &str) -> Value {
    json!({"type": "string", "maxLength": max_length, "pattern": pattern})
}

/// The schema of an answered (not blank) value of `field`, and what a person reads about it.
fn typed(field: &FormField) -> (Value, String) {
    let ids: Vec<&str> = field.options().iter().map(|option| option.id.as_str()).collect();
    let offered = || {
        let offered: Vec<String> =
            field.options().iter().map(|option| format!("\"{}\" ({})", option.id, option.label)).collect();
        offered.join(", ")
    };
    let max = field.text_max_length();
    match field.field_type {
        FormFieldType::Text | FormFieldType::Textarea => {
            let mut schema = json!({"type": "string", "maxLength": max});
            if field.is_required() {
                schema["pattern"] = json!(patterns::visible());
            }
            let min = field.min_length.filter(|min| *min > 0).map(|min| format!("at least {min} and ")).unwrap_or_default();
            (schema, format!("Text of {min}at most {max} characters."))
        }
        FormFieldType::Email => (string(max, patterns::EMAIL), "An email address.".into()),
        FormFieldType::Url => (string(max, &patterns::http_url()), "An http or https URL.".into()),
        FormFieldType::Phone => (
            string(max, patterns::PHONE),
            "A phone number: 7 to 15 digits, optionally after \"+\", with spaces, dots, dashes or parentheses between them."
                .into(),
        ),
        FormFieldType::Number => number(field),
        FormFieldType::Date => (json!({"type": "string", "pattern": patterns::date()}), "A date, YYYY-MM-DD.".into()),
        FormFieldType::Time => {
            (json!({"type": "string", "pattern": patterns::time()}), "A time, HH:mm (24-hour).".into())
        }
        FormFieldType::Datetime => (
            json!({"type": "string", "pattern": patterns::datetime()}),
            "A date and time with Z or an offset, such as 2026-10-01T09:30:00Z.".into(),
        ),
        FormFieldType::Boolean => (json!({"type": "boolean"}), "Yes (true) or no (false).".into()),
        FormFieldType::Select => {
            (json!({"type": "string", "enum": ids}), format!("The id of one option, of {}.", offered()))
        }
        FormFieldType::Multiselect => {
            let mut schema = json!({
                "type": "array",
                "items": {"type": "string", "enum": ids},
                "uniqueItems": true,
                "maxItems": ASK_LIMITS.choice.options_max,
            });
            if field.is_required() {
                schema["minItems"] = json!(1);
            }
            (schema, format!("The ids of the options picked, each once, of {}.", offered()))
        }
    }
}

fn number(field: &FormField) -> (Value, String) {
    let whole = field.integer == Some(true);
    let mut schema = json!({"type": if whole { "integer" } else { "number" }});
    let mut words = String::from(if whole { "A whole number" } else { "A number" });
    if let Some(min) = field.min {
        schema["minimum"] = json!(min);
        words.push_str(&format!(", at least {}", crate::text::js_number(min)));
    }
    if let Some(max) = field.max {
        schema["maximum"] = json!(max);
        words.push_str(&format!(", at most {}", crate::text::js_number(max)));
    }
    words.push('.');
    (schema, words)
}

/// A field's value: typed, matching the field's patterns (which, as the server's, skip blank
/// values); blank too where the field is optional.
fn field_schema(field: &FormField, patterns: &[&str]) -> Value {
    let (mut schema, words) = typed(field);
    if !patterns.is_empty() {
        let all: Vec<Value> = patterns.iter().map(|pattern| json!({"pattern": pattern})).collect();
        schema["allOf"] = json!(all);
    }
    let (mut schema, words) = if field.is_required() {
        (schema, format!("{words} Required."))
    } else {
        let blank = [json!({"type": "string", "pattern": patterns::blank()}), json!({"type": "array", "maxItems": 0})];
        (
            json!({"anyOf": [schema, blank[0], blank[1]]}),
            format!("{words} Optional: blank text or an empty list leaves it unanswered."),
        )
    };
    let helper = field.helper_text.as_deref().map(|text| format!("{text} ")).unwrap_or_default();
    schema["title"] = json!(field.label);
    schema["description"] = json!(format!("{helper}{words}"));
    schema
}
