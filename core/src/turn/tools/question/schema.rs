//! Reading a requested schema: its properties as form fields, its enums as options, and
//! whether an answer fits it.

use serde_json::{Map, Value, json};

use super::Property;
use palaver_contract::asks::{ASK_LIMITS, AskErrorCode};
use palaver_contract::text::shorten;

/// Turns a property name into a field or option id: lowercase letters, digits, `_` and `-`.
pub(super) fn to_id(name: &str, taken: &[String]) -> String {
    let mut id: String = name
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' { c } else { '_' })
        .skip_while(|c| !c.is_ascii_alphanumeric())
        .take(56)
        .collect();
    if id.is_empty() {
        id = "field".into();
    }
    let base = id.clone();
    let mut suffix = 2;
    while taken.contains(&id) {
        id = format!("{base}-{suffix}");
        suffix += 1;
    }
    id
}

fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The enum values of a property (or of its `items`), each with its label.
pub(super) fn choices(schema: &Value) -> Option<Vec<(Value, String)>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let names = schema.get("enumNames").and_then(Value::as_array);
        return Some(
            values
                .iter()
                .enumerate()
                .map(|(index, value)| {
                    let label = names.and_then(|names| names.get(index)).map_or_else(|| text_of(value), text_of);
                    (value.clone(), label)
                })
                .collect(),
        );
    }
    let titled = schema.get("oneOf").or_else(|| schema.get("anyOf"))?.as_array()?;
    titled
        .iter()
        .map(|option| {
            let value = option.get("const")?.clone();
            let label = option.get("title").map_or_else(|| text_of(&value), text_of);
            Some((value, label))
        })
        .collect()
}

/// Each choice as an option id with its value, and the options as the ask shows them.
fn options_of(choices: Vec<(Value, String)>) -> (Vec<(String, Value)>, Vec<Value>) {
    let mut options: Vec<(String, Value)> = Vec::new();
    let mut shown = Vec::new();
    for (value, label) in choices {
        let taken: Vec<String> = options.iter().map(|(id, _)| id.clone()).collect();
        let id = to_id(&text_of(&value), &taken);
        shown.push(json!({"id": id, "label": shorten(&label, ASK_LIMITS.choice.option_label_max_length)}));
        options.push((id, value));
    }
    (options, shown)
}

/// One property as a form field (`Err` for a type a flat form cannot ask).
pub(super) fn field(id: &str, name: &str, schema: &Value, required: bool) -> Result<(Property, Value), String> {
    let kind = schema.get("type").and_then(Value::as_str).unwrap_or("string");
    let label = schema.get("title").and_then(Value::as_str).unwrap_or(name);
    let mut property = Property {
        id: id.to_string(),
        name: name.to_string(),
        options: Vec::new(),
        multiple: false,
        integer: false,
        schema: schema.clone(),
    };
    let mut field = json!({"id": id, "label": shorten(label, ASK_LIMITS.form.label_max_length)});
    if let Some(description) = schema.get("description").and_then(Value::as_str).filter(|text| !text.trim().is_empty())
    {
        field["helperText"] = json!(shorten(description, ASK_LIMITS.form.helper_text_max_length));
    }
    if required {
        field["required"] = json!(true);
    }
    let enumerated = match kind {
        "array" => schema.get("items").and_then(choices),
        _ => choices(schema),
    };
    if enumerated.as_ref().is_some_and(|values| values.len() > ASK_LIMITS.choice.options_max) {
        return Err(format!("The field \"{name}\" offers more than {} choices.", ASK_LIMITS.choice.options_max));
    }
    match (kind, enumerated) {
        ("array", Some(values)) | ("string", Some(values)) => {
            let (options, shown) = options_of(values);
            property.multiple = kind == "array";
            property.options = options;
            field["type"] = json!(if property.multiple { "multiselect" } else { "select" });
            field["options"] = json!(shown);
            if let Some(default) = schema.get("default") {
                let to_id =
                    |value: &Value| property.options.iter().find(|(_, known)| known == value).map(|(id, _)| id.clone());
                let default = match default {
                    Value::Array(values) => json!(values.iter().filter_map(to_id).collect::<Vec<_>>()),
                    one => to_id(one).map_or(Value::Null, Value::String),
                };
                if !default.is_null() {
                    field["default"] = default;
                }
            }
        }
        ("string", None) => {
            let format = schema.get("format").and_then(Value::as_str).unwrap_or_default();
            field["type"] = json!(match format {
                "email" => "email",
                "uri" => "url",
                "date" => "date",
                "date-time" => "datetime",
                _ => "text",
            });
            for (from, to) in [("minLength", "minLength"), ("maxLength", "maxLength")] {
                if let Some(bound) = schema.get(from).and_then(Value::as_i64) {
                    field[to] = json!(bound);
                }
            }
            if let Some(default) = schema.get("default").filter(|value| value.is_string()) {
                field["default"] = default.clone();
            }
        }
        ("number" | "integer", None) => {
            property.integer = kind == "integer";
            field["type"] = json!("number");
            if property.integer {
                field["integer"] = json!(true);
            }
            for (from, to) in [("minimum", "min"), ("maximum", "max")] {
                if let Some(bound) = schema.get(from).and_then(Value::as_f64) {
                    field[to] = json!(bound);
                }
            }
            if let Some(default) = schema.get("default").filter(|value| value.is_number()) {
                field["default"] = default.clone();
            }
        }
        ("boolean", _) => {
            field["type"] = json!("boolean");
            if let Some(default) = schema.get("default").filter(|value| value.is_boolean()) {
                field["default"] = default.clone();
            }
        }
        (other, _) => return Err(format!("The field \"{name}\" is of type {other}, which a form cannot ask.")),
    }
    Ok((property, field))
}

/// Why a value does not fit a property's schema (its type, bounds and choices), if it does
/// not: the contract's code for it, and the words.
pub(super) fn misfit(property: &Value, value: &Value) -> Option<(AskErrorCode, String)> {
    let kind = property.get("type").and_then(Value::as_str).unwrap_or("string");
    let bound = |key: &str| property.get(key).and_then(Value::as_f64);
    let wrong = |words: &str| Some((AskErrorCode::FIELD_TYPE_MISMATCH, words.to_string()));
    match kind {
        "string" => {
            let Some(text) = value.as_str() else { return wrong("must be text") };
            let length = text.chars().count() as f64;
            if let Some(min) = bound("minLength").filter(|min| length < *min) {
                return Some((AskErrorCode::TOO_SHORT, format!("must be at least {min} characters long")));
            }
            if let Some(max) = bound("maxLength").filter(|max| length > *max) {
                return Some((AskErrorCode::TOO_LONG, format!("must be at most {max} characters long")));
            }
            choices(property)
                .filter(|values| !values.iter().any(|(known, _)| known == value))
                .map(|_| (AskErrorCode::OPTION_NOT_OFFERED, "must be one of the offered choices".into()))
        }
        "number" | "integer" => {
            let Some(number) = value.as_f64() else { return wrong("must be a number") };
            if kind == "integer" && number.fract() != 0.0 {
                return wrong("must be a whole number");
            }
            if let Some(min) = bound("minimum").filter(|min| number < *min) {
                return Some((AskErrorCode::OUT_OF_RANGE, format!("must be at least {min}")));
            }
            bound("maximum")
                .filter(|max| number > *max)
                .map(|max| (AskErrorCode::OUT_OF_RANGE, format!("must be at most {max}")))
        }
        "boolean" => (!value.is_boolean()).then(|| (AskErrorCode::FIELD_TYPE_MISMATCH, "must be true or false".into())),
        "array" => {
            let Some(items) = value.as_array() else { return wrong("must be a list") };
            let count = items.len() as f64;
            if let Some(min) = bound("minItems").filter(|min| count < *min) {
                return Some((AskErrorCode::SELECTION_COUNT, format!("needs at least {min} picked")));
            }
            if let Some(max) = bound("maxItems").filter(|max| count > *max) {
                return Some((AskErrorCode::SELECTION_COUNT, format!("takes at most {max} picked")));
            }
            let allowed = property.get("items").and_then(choices).unwrap_or_default();
            (!items.iter().all(|item| allowed.iter().any(|(known, _)| known == item)))
                .then(|| (AskErrorCode::OPTION_NOT_OFFERED, "must be among the offered choices".into()))
        }
        other => wrong(&format!("is of type {other}, which Palaver does not send")),
    }
}

/// Whether `content` fits the requested schema: required properties there, each value of its
/// type, inside its bounds and among its choices.
pub fn check_content(schema: &Value, content: &Map<String, Value>) -> Result<(), String> {
    match content_misfits(schema, content).first() {
        Some((name, _, why)) => Err(format!("\"{name}\" {why}.")),
        None => Ok(()),
    }
}

/// Every property of `content` the requested schema refuses, and every required one it lacks:
/// each property's name, the contract's code and why, in words.
pub(super) fn content_misfits(schema: &Value, content: &Map<String, Value>) -> Vec<(String, AskErrorCode, String)> {
    let properties = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let required = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
    let missing = required
        .filter(|name| !content.contains_key(*name))
        .map(|name| (name.to_string(), AskErrorCode::REQUIRED_FIELD, "is required".to_string()));
    let misfits = content.iter().filter_map(|(name, value)| match properties.get(name) {
        None => Some((name.clone(), AskErrorCode::UNKNOWN_KEY, "is not asked for".to_string())),
        Some(property) => misfit(property, value).map(|(code, why)| (name.clone(), code, why)),
    });
    missing.chain(misfits).collect()
}
