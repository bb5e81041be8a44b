//! `ask_form` input: its fields, their types, options and defaults.

use serde_json::Value;

use super::check::Checker;
use super::errors::{AskErrorCode, Loc};
use super::form_field::{FORM_FIELD_TYPES, FormField, FormFieldType, FormOption};
use super::form_values::check_form_value;
use super::input::FormInput;
use super::limits::ASK_LIMITS;
use super::validate_common::{repeats, shared};

const FIELD_KEYS: &[&str] = &["id", "type", "label", "helperText", "required", "default"];
const TYPE_NAMES: [&str; FORM_FIELD_TYPES.len()] = {
    let mut names = [""; FORM_FIELD_TYPES.len()];
    let mut index = 0;
    while index < names.len() {
        names[index] = FORM_FIELD_TYPES[index].as_str();
        index += 1;
    }
    names
};

/// The longest string value a field accepts (`formTextMaxLength`).
fn form_option(ck: &mut Checker, value: &Value, at: Loc<'_>) -> Option<FormOption> {
    let [id, label] = ck.fields(value, at, ["id", "label"])?;
    let id = ck.present(id, at, "id").and_then(|value| ck.id(value, at.key("id"), "option id"));
    let label = ck
        .present(label, at, "label")
        .and_then(|value| ck.visible_text(value, at.key("label"), ASK_LIMITS.choice.option_label_max_length));
    Some(FormOption { id: id?, label: label? })
}

fn form_field(ck: &mut Checker, value: &Value, at: Loc<'_>) -> Option<FormField> {
    let Value::Object(object) = value else {
        ck.invalid_type(at, super::check::Expected::Object, value);
        return None;
    };
    // `type` picks the field's schema; without a known type nothing else can be checked.
    let field_type = ck.required(object, at, "type").and_then(|value| ck.one_of(value, at.key("type"), &TYPE_NAMES))?;
    let field_type = FormFieldType::parse(field_type)?;
    for key in object.keys() {
        if !FIELD_KEYS.contains(&key.as_str()) && !field_type.extra_keys().contains(&key.as_str()) {
            ck.unknown_key(at, key);
        }
    }
    let limits = &ASK_LIMITS.form;
    let id = ck.required(object, at, "id").and_then(|value| ck.id(value, at.key("id"), "field id"));
    let label = ck
        .required(object, at, "label")
        .and_then(|value| ck.visible_text(value, at.key("label"), limits.label_max_length));
    let helper_text = ck.optional_text(object, at, "helperText", limits.helper_text_max_length);
    let required = ck.boolean(object, at, "required");
    let default = object.get("default").and_then(|value| {
        let at = at.key("default");
        let fits = match field_type {
            FormFieldType::Number => value.is_number().then_some(()).ok_or(super::check::Expected::Number),
            FormFieldType::Boolean => value.is_boolean().then_some(()).ok_or(super::check::Expected::Boolean),
            FormFieldType::Multiselect => {
                return ck.strings(value, at, 0, usize::MAX).map(|_| value.clone());
            }
            _ => value.is_string().then_some(()).ok_or(super::check::Expected::String),
        };
        match fits {
            Ok(()) => Some(value.clone()),
            Err(expected) => {
                ck.invalid_type(at, expected, value);
                None
            }
        }
    });
    let mut field = FormField {
        id: id.unwrap_or_default(),
        field_type,
        label: label.unwrap_or_default(),
        helper_text,
        required,
        default,
        min_length: None,
        max_length: None,
        min: None,
        max: None,
        integer: None,
        options: None,
    };
    match field_type {
        FormFieldType::Text | FormFieldType::Textarea => {
            let cap =
                if field_type == FormFieldType::Textarea { limits.textarea_max_length } else { limits.text_max_length };
            let cap = i64::try_from(cap).unwrap_or(i64::MAX);
            field.max_length = ck.int(object, at, "maxLength", 1, Some(cap));
            field.min_length = ck.int(object, at, "minLength", 0, Some(cap));
        }
        FormFieldType::Number => {
            field.min = ck.number(object, at, "min");
            field.max = ck.number(object, at, "max");
            field.integer = ck.boolean(object, at, "integer");
        }
        FormFieldType::Select | FormFieldType::Multiselect => {
            let options_at = at.key("options");
            let choice = &ASK_LIMITS.choice;
            field.options = ck
                .required(object, at, "options")
                .and_then(|value| ck.list(value, options_at, choice.options_min, choice.options_max))
                .map(|items| {
                    items
                        .iter()
                        .enumerate()
                        .filter_map(|(index, item)| form_option(ck, item, options_at.index(index)))
                        .collect()
                });
        }
        _ => {}
    }
    Some(field)
}

pub(super) fn form(ck: &mut Checker, value: &Value) -> Option<FormInput> {
    let root = Loc::Root;
    let object = ck.object(value, root, &["prompt", "title", "locale", "submitLabel", "allowDecline", "fields"])?;
    let shared = shared(ck, object, root, true);
    let limits = &ASK_LIMITS.form;
    let fields_at = root.key("fields");
    let fields = ck
        .required(object, root, "fields")
        .and_then(|value| ck.list(value, fields_at, limits.fields_min, limits.fields_max))
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| form_field(ck, item, fields_at.index(index)))
                .collect::<Vec<_>>()
        });
    if ck.aborted {
        return None;
    }
    let input = FormInput {
        prompt: shared.prompt?,
        title: shared.title,
        submit_label: shared.submit_label,
        allow_decline: shared.allow_decline,
        locale: shared.locale,
        fields: fields?,
    };
    for (index, first) in repeats(input.fields.iter().map(|field| field.id.as_str())) {
        let field = fields_at.index(index);
        ck.push(
            field.key("id"),
            AskErrorCode::DUPLICATE_ID,
            format!("Field id \"{}\" is already used by fields[{first}].", input.fields[index].id),
            "Give every field a unique id.",
        );
    }
    for (index, field) in input.fields.iter().enumerate() {
        let at = fields_at.index(index);
        if let Some(min) = field.min_length {
            let max = field.text_max_length() as i64;
            if min > max {
                ck.push(
                    at.key("minLength"),
                    AskErrorCode::RANGE_INVALID,
                    format!("minLength ({min}) is more than maxLength ({max})."),
                    "Lower minLength, or raise maxLength.",
                );
            }
        }
        if let (Some(min), Some(max)) = (field.min, field.max)
            && min > max
        {
            ck.push(
                at.key("min"),
                AskErrorCode::RANGE_INVALID,
                format!(
                    "min ({}) is more than max ({}).",
                    super::errors::js_number(min),
                    super::errors::js_number(max)
                ),
                "Lower min, or raise max.",
            );
        }
        let options_at = at.key("options");
        for (option_index, first) in repeats(field.options().iter().map(|option| option.id.as_str())) {
            let option = options_at.index(option_index);
            ck.push(
                option.key("id"),
                AskErrorCode::DUPLICATE_ID,
                format!(
                    "Option id \"{}\" is already used by fields[{index}].options[{first}].",
                    field.options()[option_index].id
                ),
                "Give every option of the field a unique id.",
            );
        }
        if let Some(default) = &field.default {
            check_form_value(ck, field, index, default, at.key("default"), true);
        }
    }
    Some(input)
}
