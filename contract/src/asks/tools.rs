//! The `ask_<kind>` tools the model is offered: names, descriptions and strict JSON Schemas for
//! their input, full and compact. Every bound comes from [`ASK_LIMITS`].

use serde_json::{Map, Value, json};

use super::form_field::{FORM_FIELD_TYPES, FormFieldType};
use super::input::{ASK_FILE_ACCEPT, AskKind, AskSurface, ask_kinds_for_surface};
use super::limits::ASK_LIMITS;

/// One ask tool as the model sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct AskTool {
    pub name: String,
    pub description: &'static str,
    pub input_schema: Value,
}

fn text(max: usize) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": max})
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({"type": "object", "additionalProperties": false, "required": required, "properties": properties})
}

fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(base), Value::Object(extra)) = (base.as_object_mut(), extra) {
        base.extend(extra);
    }
    base
}

fn shared(with_submit_label: bool) -> Value {
    let mut properties = json!({
        "prompt": merge(text(ASK_LIMITS.prompt_max_length), json!({"description": "The question in plain text: no markdown, no links."})),
        "title": text(ASK_LIMITS.title_max_length),
        "locale": {"type": "string", "minLength": 2, "maxLength": ASK_LIMITS.locale_max_length, "description": "The BCP 47 tag of the language prompt and labels are written in, such as \"de\" or \"ar\"."},
        "allowDecline": {"type": "boolean"},
    });
    if with_submit_label {
        properties["submitLabel"] = text(ASK_LIMITS.submit_label_max_length);
    }
    properties
}

fn option_schema(label_max: usize) -> Value {
    let c = &ASK_LIMITS.choice;
    object(
        &["id", "label"],
        json!({
            "id": {"type": "string", "pattern": c.option_id_pattern},
            "label": text(label_max),
            "description": text(c.option_description_max_length),
        }),
    )
}

fn choice_schema(surface: AskSurface) -> Value {
    let c = &ASK_LIMITS.choice;
    let card = &ASK_LIMITS.simple_card;
    let compact = surface == AskSurface::Compact;
    let (modes, options_max, label_max) = if compact {
        (json!(["one"]), card.buttons_max, card.button_label_max_length)
    } else {
        (json!(["one", "many"]), c.options_max, c.option_label_max_length)
    };
    let mut properties = merge(
        shared(true),
        json!({
            "select": {"type": "string", "enum": modes},
            "options": {"type": "array", "minItems": c.options_min, "maxItems": options_max, "items": option_schema(label_max)},
            "default": {"type": "array", "maxItems": if compact { 1 } else { c.options_max }, "items": {"type": "string"}},
        }),
    );
    if !compact {
        properties = merge(
            properties,
            json!({
                "minSelected": {"type": "integer", "minimum": 0},
                "maxSelected": {"type": "integer", "minimum": 1},
                "allowOther": {"type": "boolean"},
                "otherLabel": text(c.option_label_max_length),
            }),
        );
    }
    object(&["prompt", "select", "options"], properties)
}

fn confirm_schema() -> Value {
    let label = text(ASK_LIMITS.confirm.label_max_length);
    object(
        &["prompt"],
        merge(shared(false), json!({"confirmLabel": label, "denyLabel": label, "destructive": {"type": "boolean"}})),
    )
}

fn markdown_schema() -> Value {
    let m = &ASK_LIMITS.markdown;
    object(
        &["prompt"],
        merge(
            shared(true),
            json!({
                "initial": {"type": "string", "maxLength": m.max_length},
                "placeholder": text(m.placeholder_max_length),
                "minLength": {"type": "integer", "minimum": 0, "maximum": m.max_length},
                "maxLength": {"type": "integer", "minimum": 1, "maximum": m.max_length},
            }),
        ),
    )
}

fn field_schema(field_type: FormFieldType) -> Value {
    let f = &ASK_LIMITS.form;
    let c = &ASK_LIMITS.choice;
    let mut properties = json!({
        "id": {"type": "string", "pattern": c.option_id_pattern},
        "type": {"type": "string", "const": field_type.as_str()},
        "label": text(f.label_max_length),
        "helperText": text(f.helper_text_max_length),
        "required": {"type": "boolean"},
    });
    let options = json!({"type": "array", "minItems": c.options_min, "maxItems": c.options_max, "items": option_schema(c.option_label_max_length)});
    let extra = match field_type {
        FormFieldType::Text | FormFieldType::Textarea => {
            let cap = if field_type == FormFieldType::Text { f.text_max_length } else { f.textarea_max_length };
            json!({
                "default": {"type": "string", "maxLength": cap},
                "minLength": {"type": "integer", "minimum": 0, "maximum": cap},
                "maxLength": {"type": "integer", "minimum": 1, "maximum": cap},
            })
        }
        FormFieldType::Number => json!({
            "default": {"type": "number"}, "min": {"type": "number"}, "max": {"type": "number"}, "integer": {"type": "boolean"},
        }),
        FormFieldType::Boolean => json!({"default": {"type": "boolean"}}),
        FormFieldType::Select => json!({"default": {"type": "string"}, "options": options}),
        FormFieldType::Multiselect => {
            json!({"default": {"type": "array", "items": {"type": "string"}}, "options": options})
        }
        FormFieldType::Date => json!({"default": {"type": "string", "description": "YYYY-MM-DD"}}),
        FormFieldType::Time => json!({"default": {"type": "string", "description": "HH:mm, 24-hour"}}),
        FormFieldType::Datetime => {
            json!({"default": {"type": "string", "description": "ISO 8601 with Z or an offset, seconds optional"}})
        }
        FormFieldType::Email | FormFieldType::Url | FormFieldType::Phone => {
            json!({"default": {"type": "string", "maxLength": f.text_max_length}})
        }
    };
    properties = merge(properties, extra);
    let required: &[&str] = match field_type {
        FormFieldType::Select | FormFieldType::Multiselect => &["id", "type", "label", "options"],
        _ => &["id", "type", "label"],
    };
    object(required, properties)
}

fn form_schema() -> Value {
    let f = &ASK_LIMITS.form;
    let fields: Vec<Value> = FORM_FIELD_TYPES.iter().map(|field_type| field_schema(*field_type)).collect();
    object(
        &["prompt", "fields"],
        merge(
            shared(true),
            json!({"fields": {"type": "array", "minItems": f.fields_min, "maxItems": f.fields_max, "items": {"oneOf": fields}}}),
        ),
    )
}

fn files_schema() -> Value {
    let files = &ASK_LIMITS.files;
    let accept: Vec<&str> = ASK_FILE_ACCEPT.iter().map(|accept| accept.as_str()).collect();
    object(
        &["prompt", "accept"],
        merge(
            shared(true),
            json!({
                "accept": {"type": "array", "minItems": 1, "maxItems": accept.len(), "uniqueItems": true, "items": {"type": "string", "enum": accept}},
                "minFiles": {"type": "integer", "minimum": files.min_files, "maximum": files.max_files},
                "maxFiles": {"type": "integer", "minimum": files.min_files, "maximum": files.max_files},
            }),
        ),
    )
}

fn questions_schema(surface: AskSurface) -> Value {
    let q = &ASK_LIMITS.questions;
    let card = &ASK_LIMITS.simple_card;
    let compact = surface == AskSurface::Compact;
    let (questions_max, answers_min, answers_max, label_max) = if compact {
        (1, ASK_LIMITS.choice.options_min, card.buttons_max, card.button_label_max_length)
    } else {
        (q.questions_max, q.answers_min, q.answers_max, q.answer_label_max_length)
    };
    let answer =
        object(&["label"], json!({"label": text(label_max), "description": text(q.answer_description_max_length)}));
    let mut question = json!({
        "title": merge(text(q.question_title_max_length), json!({"description": "The question itself, such as \"Which shade?\"."})),
        "answers": {"type": "array", "minItems": answers_min, "maxItems": answers_max, "items": answer},
    });
    if !compact {
        question = merge(
            question,
            json!({
                "multi": {"type": "boolean", "description": "More than one answer may be picked."},
                "allowCustom": {"type": "boolean", "description": "The user may add an answer of their own."},
            }),
        );
    }
    object(
        &["prompt", "questions"],
        merge(
            shared(false),
            json!({"questions": {"type": "array", "minItems": q.questions_min, "maxItems": questions_max, "items": object(&["title", "answers"], question)}}),
        ),
    )
}

/// The JSON Schema of an ask kind's input on a surface (`askInputSchemaFor`). A kind the
/// compact surface does not offer gets its full schema; see `kind_offered_on`.
pub fn ask_input_schema_for(kind: AskKind, surface: AskSurface) -> Value {
    match kind {
        AskKind::Choice => choice_schema(surface),
        AskKind::Confirm => confirm_schema(),
        AskKind::Markdown => markdown_schema(),
        AskKind::Form => form_schema(),
        AskKind::Files => files_schema(),
        AskKind::Questions => questions_schema(surface),
    }
}

fn description(kind: AskKind, surface: AskSurface) -> &'static str {
    match (kind, surface) {
        (AskKind::Choice, AskSurface::Full) => {
            "Ask the user to pick one option or several, optionally with an answer of their own (Other). Use it instead of asking in plain text."
        }
        (AskKind::Choice, AskSurface::Compact) => {
            "Ask the user to pick one of two or three short options, each shown as a button."
        }
        (AskKind::Confirm, AskSurface::Full) => {
            "Ask the user to approve or deny one action; returns {confirmed}. Call it before a tool that deletes data, sends something on the user's behalf, spends money, or cannot be undone."
        }
        (AskKind::Confirm, AskSurface::Compact) => "Ask the user to approve or deny one action; returns {confirmed}.",
        (AskKind::Markdown, _) => {
            "Show the user a markdown draft in an editor with a preview, to edit and send back; returns {markdown, changed}."
        }
        (AskKind::Form, _) => {
            "Ask the user to fill in a few typed fields at once; returns {values} keyed by field id. For a single pick, use ask_choice."
        }
        (AskKind::Files, _) => {
            "Ask the user to upload images or documents; the files come back in the tool result so you can read them."
        }
        (AskKind::Questions, AskSurface::Full) => {
            "Ask the user several quick questions in one card (1-6), each answered by picking from a few answers. Use it instead of a numbered list of questions in plain text."
        }
        (AskKind::Questions, AskSurface::Compact) => {
            "Ask the user one quick question, answered by tapping one of two or three short answers."
        }
    }
}

/// The ask tools for the kinds a surface offers, in the given order.
pub fn ask_tools(kinds: &[AskKind], surface: AskSurface) -> Vec<AskTool> {
    ask_kinds_for_surface(kinds, surface)
        .into_iter()
        .map(|kind| AskTool {
            name: kind.tool_name(),
            description: description(kind, surface),
            input_schema: ask_input_schema_for(kind, surface),
        })
        .collect()
}

/// Every object schema in `schema` (itself included), for checks that walk them all.
pub fn object_schemas(schema: &Value) -> Vec<&Map<String, Value>> {
    let mut found = Vec::new();
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                if map.get("type") == Some(&json!("object")) {
                    found.push(map);
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::asks::ASK_KINDS;

    #[test]
    fn every_schema_is_a_strict_object() {
        for surface in AskSurface::ALL {
            for tool in ask_tools(&ASK_KINDS, surface) {
                assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
                for object in object_schemas(&tool.input_schema) {
                    assert_eq!(
                        object.get("additionalProperties"),
                        Some(&json!(false)),
                        "{} has a loose object",
                        tool.name
                    );
                }
            }
        }
    }

    #[test]
    fn compact_narrows_choice() {
        let tools = ask_tools(&ASK_KINDS, AskSurface::Compact);
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        assert_eq!(names, ["ask_choice", "ask_confirm", "ask_questions"]);
        let choice = &tools[0].input_schema;
        assert_eq!(choice["properties"]["select"]["enum"], json!(["one"]));
        assert_eq!(choice["properties"]["options"]["maxItems"], 3);
        assert_eq!(choice["properties"]["options"]["items"]["properties"]["label"]["maxLength"], 20);
        assert!(choice["properties"].get("allowOther").is_none());
        assert_eq!(
            ask_input_schema_for(AskKind::Confirm, AskSurface::Compact),
            ask_input_schema_for(AskKind::Confirm, AskSurface::Full)
        );
    }
}
