//! The JSON Schema (draft-07) of the answer to one ask: the `responseSchema` an AG-UI interrupt
//! carries, so a client that does not run Rust can build the answer and check it before it
//! sends. It says, for this very ask, as much of `validate_ask_response` as JSON Schema can (the
//! option ids, counts, field types and formats, whether a draft changed); every answer the
//! contract accepts passes it. What it cannot say stays the server's check, and the schema's
//! description names it: lengths counted in UTF-16 units (the schema counts characters, so
//! text full of emoji may pass it and still be too long), a file's size against the host's cap
//! and whose upload a `fileId` is. `cancel` is the server's own action, so it is left out.

mod form;
mod patterns;

use serde_json::{Map, Value, json};

use super::ask::Ask;
use super::field_patterns::FieldPattern;
use super::files::accepted_file_mime_types;
use super::input::{Bounds, ChoiceInput, ConfirmInput, FilesInput, MarkdownInput};
use super::json_schemas::{document, question_answer, strict, with};
use super::limits::ASK_LIMITS;
use super::question_set::{Question, QuestionsInput};

/// The largest whole number a JSON number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// The schema of an answer envelope to `ask` (`{"action": "accept", "content": …}` or, when the
/// ask allows it, `{"action": "decline"}`), without `toolCallId`.
pub fn answer_schema(ask: &Ask) -> Value {
    answer_schema_with_patterns(ask, &[])
}

/// [`answer_schema`] for an argument form whose text fields must also match `patterns` (the
/// tool's schema's, as the pending ask carries them). A pattern the contract cannot read is left
/// out, as [`super::check_field_patterns`] skips it.
pub fn answer_schema_with_patterns(ask: &Ask, patterns: &[FieldPattern]) -> Value {
    let (title, content, says, server_checks) = match ask {
        Ask::Choice(input) => ("Choice answer", choice(input), choice_says(input), None),
        Ask::Confirm(input) => (
            "Confirm answer",
            confirm(input),
            "Accept with content.confirmed: true to go ahead, false not to".into(),
            None,
        ),
        Ask::Markdown(input) => (
            "Markdown answer",
            markdown(input),
            "Accept with the text (content.markdown) and whether it differs from the draft (content.changed)".into(),
            Some("the text's length, counted in UTF-16 units without spaces at either end for its minimum"),
        ),
        Ask::Form(input) => (
            "Form answer",
            form::form(input, patterns),
            "Accept with the form's values by field id (content.values)".into(),
            Some("a text value's length, counted in UTF-16 units (without spaces at either end for a minimum)"),
        ),
        Ask::Files(input) => (
            "Files answer",
            files(input),
            format!(
                "Accept with {} (content.files), each an upload's fileId or a data: URL",
                files_text(input.count_bounds())
            ),
            Some(
                "each file's size against the host's per-file cap, that a fileId is the user's own upload, and the bytes against the declared type",
            ),
        ),
        Ask::Questions(input) => (
            "Question set answer",
            questions(input),
            "Accept with every question's answer by question id (content.answers)".into(),
            None,
        ),
    };
    let mut branches = vec![accept(content)];
    let decline = if ask.allows_decline() {
        branches.push(decline());
        ", or decline to skip the ask"
    } else {
        "; this ask cannot be declined"
    };
    let server = server_checks.map_or_else(String::new, |checks| format!(" The server also checks {checks}."));
    // `type` at the top as well: form renderers read it before they look into `oneOf`.
    document(title, &format!("{says}{decline}.{server}"), json!({"type": "object", "oneOf": branches}))
}

fn accept(content: Value) -> Value {
    with(
        strict(json!({"action": {"type": "string", "const": "accept"}, "content": content}), &["action", "content"]),
        json!({"title": "Accept", "description": "The user's answer."}),
    )
}

fn decline() -> Value {
    with(
        strict(json!({"action": {"type": "string", "const": "decline"}}), &["action"]),
        json!({"title": "Decline", "description": "The user skips the ask without answering it."}),
    )
}

/// `{"selected": [ids], "other"?: text}`: the ids are the options', each once; Other, where
/// the ask allows it, counts as one pick.
fn choice(input: &ChoiceInput) -> Value {
    let ids: Vec<&str> = input.options.iter().map(|option| option.id.as_str()).collect();
    let offered: Vec<String> =
        input.options.iter().map(|option| format!("\"{}\" ({})", option.id, option.label)).collect();
    let mut selected = json!({
        "type": "array",
        "items": {"type": "string", "enum": ids},
        "uniqueItems": true,
        "title": "Picked options",
        "description": format!("The ids of the options picked, each once, of {}.", offered.join(", ")),
    });
    let bounds = input.selection_bounds();
    let picks = |bounds: Bounds| json!({"minItems": bounds.min.max(0), "maxItems": bounds.max.max(0)});
    if input.allow_other != Some(true) || bounds.max < 1 {
        selected = with(selected, picks(bounds));
        return strict(json!({"selected": selected}), &["selected"]);
    }
    let other = with(
        patterns::visible_text(ASK_LIMITS.choice.other_max_length),
        json!({
            "title": input.other_label.as_deref().unwrap_or("Other"),
            "description": "The user's own answer. It counts as one pick.",
        }),
    );
    let with_other = Bounds { min: bounds.min - 1, max: bounds.max - 1 };
    with(
        strict(json!({"selected": selected, "other": other}), &["selected"]),
        json!({"oneOf": [
            {"title": "Options only", "not": {"required": ["other"]}, "properties": {"selected": picks(bounds)}},
            {"title": "With the user's own answer", "required": ["other"], "properties": {"selected": picks(with_other)}},
        ]}),
    )
}

fn choice_says(input: &ChoiceInput) -> String {
    let bounds = input.selection_bounds();
    let noun = if bounds.max == 1 { "option" } else { "options" };
    let range = if bounds.min == bounds.max {
        format!("exactly {} {noun}", bounds.max)
    } else if bounds.min <= 0 {
        format!("at most {} {noun}", bounds.max)
    } else {
        format!("{} to {} options", bounds.min, bounds.max)
    };
    let other = if input.allow_other == Some(true) {
        ", where content.other, the user's own answer, counts as one"
    } else {
        ""
    };
    format!("Accept with content.selected: the ids of {range}{other}")
}

fn confirm(input: &ConfirmInput) -> Value {
    let (yes, no) = input.button_labels();
    strict(
        json!({"confirmed": {
            "type": "boolean",
            "title": "Confirmed",
            "description": format!("true for \"{yes}\", false for \"{no}\"."),
        }}),
        &["confirmed"],
    )
}

/// `{"changed": bool, "markdown": text}`: `changed` is whether the text differs from the draft.
fn markdown(input: &MarkdownInput) -> Value {
    let bounds = input.length_bounds();
    let cap = i64::try_from(ASK_LIMITS.markdown.max_length).unwrap_or(i64::MAX);
    let initial = input.initial.as_deref().unwrap_or_default();
    let mut text = json!({
        "type": "string",
        "maxLength": bounds.max.min(cap).max(0),
        "title": "Text",
        "description": match bounds.min {
            ..=0 => format!("The text as the user leaves it: at most {} characters.", bounds.max.min(cap)),
            min => format!("The text as the user leaves it: {min} to {} characters.", bounds.max.min(cap)),
        },
    });
    if bounds.min >= 1 {
        text["pattern"] = json!(patterns::visible());
    }
    let changed =
        json!({"type": "boolean", "title": "Changed", "description": "Whether the text differs from the draft."});
    with(
        strict(json!({"changed": changed, "markdown": text}), &["changed", "markdown"]),
        json!({
            "if": {"properties": {"markdown": {"const": initial}}},
            "then": {"properties": {"changed": {"const": false}}},
            "else": {"properties": {"changed": {"const": true}}},
        }),
    )
}

fn files_text(bounds: Bounds) -> String {
    let noun = |count: i64| if count == 1 { "file" } else { "files" };
    if bounds.min == bounds.max {
        format!("exactly {} {}", bounds.max, noun(bounds.max))
    } else {
        format!("{} to {} files", bounds.min, bounds.max)
    }
}

/// `{"files": [{fileId | url, filename, mimeType, size}]}`: an accepted type, and a data URL
/// of that very type.
fn files(input: &FilesInput) -> Value {
    let accepted = accepted_file_mime_types(&input.accept);
    let bounds = input.count_bounds();
    let properties = json!({
        "fileId": {"type": "string", "minLength": 1, "maxLength": 64, "description": "The id of the user's upload (POST /files/upload)."},
        "filename": with(patterns::visible_text(ASK_LIMITS.files.filename_max_length), json!({"description": "The file's name."})),
        "mimeType": {"type": "string", "enum": accepted, "description": "The file's type."},
        "size": {"type": "integer", "minimum": 0, "maximum": MAX_SAFE_INTEGER, "description": "The file's size in bytes."},
        "url": {"type": "string", "description": "The file's bytes as a base64 data: URL of its declared type."},
    });
    let of_type: Vec<Value> = accepted
        .iter()
        .map(|mime_type| {
            json!({"properties": {"mimeType": {"const": mime_type}, "url": {"pattern": patterns::data_url_of(mime_type)}}})
        })
        .collect();
    let file = with(
        strict(properties, &["filename", "mimeType", "size"]),
        json!({
            "title": "File",
            "oneOf": [{"title": "An upload", "required": ["fileId"]}, {"title": "Inline bytes", "required": ["url"]}],
            "anyOf": of_type,
        }),
    );
    let list = json!({"type": "array", "items": file, "minItems": bounds.min.max(0), "maxItems": bounds.max.max(0), "title": "Files"});
    strict(json!({"files": list}), &["files"])
}

/// `{"answers": {"q1": {"picked": [ids], "custom"?: text}}}`: every question answered; a
/// single-pick question once (an answer or the user's own), a multi question at least once.
fn questions(input: &QuestionsInput) -> Value {
    let answers: Map<String, Value> =
        input.questions.iter().map(|question| (question.id.clone(), question_schema(question))).collect();
    let ids: Vec<&str> = input.questions.iter().map(|question| question.id.as_str()).collect();
    let answers = with(strict(Value::Object(answers), &ids), json!({"title": "Answers"}));
    strict(json!({"answers": answers}), &["answers"])
}

fn question_schema(question: &Question) -> Value {
    let ids: Vec<&str> = question.answers.iter().map(|answer| answer.id.as_str()).collect();
    let mut schema = question_answer(json!({"type": "string", "enum": ids}), question.answers.len());
    let offered: Vec<String> =
        question.answers.iter().map(|answer| format!("\"{}\" ({})", answer.id, answer.label)).collect();
    schema["properties"]["picked"]["uniqueItems"] = json!(true);
    schema["properties"]["picked"]["description"] =
        json!(format!("The ids picked, each once, of {}.", offered.join(", ")));
    let picked = &mut schema["properties"]["picked"];
    let (own, counts) = match (question.is_multi(), question.allows_custom()) {
        (false, false) => {
            (picked["minItems"], picked["maxItems"]) = (json!(1), json!(1));
            ("", json!({}))
        }
        (true, false) => {
            picked["minItems"] = json!(1);
            ("", json!({}))
        }
        (false, true) => (
            " or writes one of their own (custom)",
            json!({"oneOf": [
                {"not": {"required": ["custom"]}, "properties": {"picked": {"minItems": 1, "maxItems": 1}}},
                {"required": ["custom"], "properties": {"picked": {"maxItems": 0}}},
            ]}),
        ),
        (true, true) => (
            ", and may write one of their own (custom)",
            json!({"anyOf": [{"properties": {"picked": {"minItems": 1}}}, {"required": ["custom"]}]}),
        ),
    };
    if question.allows_custom() {
        schema["properties"]["custom"]["pattern"] = json!(patterns::visible());
    } else if let Some(properties) = schema["properties"].as_object_mut() {
        properties.remove("custom");
    }
    let picks = if question.is_multi() { "one or more answers" } else { "one answer" };
    with(with(schema, counts), json!({"title": question.title, "description": format!("The user picks {picks}{own}.")}))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use serde_json::{Value, json};

    use super::super::errors::AskErrorCode;
    use super::super::form_field::{FormField, FormFieldType};
    use super::super::input::{AskKind, AskSurface};
    use super::super::{check_field_patterns, parse_ask_input, to_simple_card, validate_ask_response};
    use super::*;

    const CAP: u64 = 10 * 1024 * 1024;

    /// Every valid ask fixture: the reference's (../shared/fixtures), then Palaver's own.
    fn fixture_asks() -> Vec<(String, Ask, Vec<Value>)> {
        let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let mut asks = Vec::new();
        let mut names = Vec::new();
        for dir in [manifest.join("../../shared/fixtures/asks/valid"), manifest.join("fixtures/asks/valid")] {
            let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
                .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
                .map(|entry| entry.unwrap().path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
                .collect();
            paths.sort();
            for path in paths {
                let name = path.file_stem().unwrap().to_string_lossy().to_string();
                if names.contains(&name) {
                    continue;
                }
                let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let kind = AskKind::parse(fixture["kind"].as_str().unwrap()).unwrap();
                let surface = fixture["surface"].as_str().and_then(AskSurface::parse).unwrap_or_default();
                let ask = parse_ask_input(kind, &fixture["input"], surface).unwrap();
                let answers = fixture["answers"].as_array().into_iter().flatten().map(|case| case["response"].clone());
                asks.push((name.clone(), ask, answers.collect()));
                names.push(name);
            }
        }
        asks
    }

    fn accept(content: Value) -> Value {
        json!({"action": "accept", "content": content})
    }

    /// Answers built from the ask that the contract may accept (the tests keep those it does).
    fn candidates(ask: &Ask) -> Vec<Value> {
        let mut contents = Vec::new();
        match ask {
            Ask::Choice(input) => {
                let ids: Vec<&str> = input.options.iter().map(|option| option.id.as_str()).collect();
                let bounds = input.selection_bounds();
                for count in [bounds.min, bounds.max, 1, 0] {
                    let count = usize::try_from(count).unwrap_or(0).min(ids.len());
                    contents.push(json!({"selected": ids[..count]}));
                    contents.push(json!({"selected": ids[ids.len() - count..]}));
                    contents.push(json!({"selected": ids[..count.saturating_sub(1)], "other": "Basil"}));
                }
            }
            Ask::Confirm(_) => contents.extend([json!({"confirmed": true}), json!({"confirmed": false})]),
            Ask::Markdown(input) => {
                let initial = input.initial.clone().unwrap_or_default();
                let bounds = input.length_bounds();
                let long = "word ".repeat(usize::try_from(bounds.min.max(1)).unwrap_or(1)).trim_end().to_string();
                contents.push(json!({"changed": false, "markdown": initial}));
                contents.push(json!({"changed": initial != long, "markdown": long}));
                contents.push(json!({"changed": true, "markdown": format!("{initial} Edited.")}));
            }
            Ask::Form(input) => {
                let mut all = serde_json::Map::new();
                let mut required = serde_json::Map::new();
                let mut blanks = serde_json::Map::new();
                for field in &input.fields {
                    let value = sample_value(field);
                    if field.is_required() {
                        required.insert(field.id.clone(), value.clone());
                        blanks.insert(field.id.clone(), value.clone());
                    } else {
                        let blank =
                            if field.field_type == FormFieldType::Multiselect { json!([]) } else { json!("  ") };
                        blanks.insert(field.id.clone(), blank);
                    }
                    all.insert(field.id.clone(), value);
                }
                contents.extend([json!({"values": all}), json!({"values": required}), json!({"values": blanks})]);
            }
            Ask::Files(input) => {
                let bounds = input.count_bounds();
                for mime_type in accepted_file_mime_types(&input.accept) {
                    let upload = json!({"fileId": "upl_1", "filename": "receipt", "mimeType": mime_type, "size": 1200});
                    let inline = json!({"filename": "note", "mimeType": mime_type, "size": 3, "url": format!("data:{mime_type};base64,QUJD")});
                    for count in [bounds.min, bounds.max] {
                        let count = usize::try_from(count).unwrap_or(0);
                        contents.push(json!({"files": vec![upload.clone(); count]}));
                        contents.push(json!({"files": vec![inline.clone(); count]}));
                    }
                }
            }
            Ask::Questions(input) => {
                let first: serde_json::Map<String, Value> =
                    input.questions.iter().map(|question| (question.id.clone(), json!({"picked": ["a1"]}))).collect();
                let own: serde_json::Map<String, Value> = input
                    .questions
                    .iter()
                    .map(|question| (question.id.clone(), json!({"picked": [], "custom": "Teal"})))
                    .collect();
                let every: serde_json::Map<String, Value> = input
                    .questions
                    .iter()
                    .map(|question| {
                        let ids: Vec<&str> = question.answers.iter().map(|answer| answer.id.as_str()).collect();
                        (question.id.clone(), json!({"picked": ids, "custom": "Teal"}))
                    })
                    .collect();
                contents.extend([json!({"answers": first}), json!({"answers": own}), json!({"answers": every})]);
            }
        }
        let mut answers: Vec<Value> = contents.into_iter().map(accept).collect();
        answers.extend(to_simple_card(ask, "call_schema").buttons.iter().map(|button| button.response.to_value()));
        answers.push(json!({"action": "decline"}));
        answers
    }

    fn sample_value(field: &FormField) -> Value {
        let first_option = field.options().first().map(|option| option.id.clone()).unwrap_or_default();
        match field.field_type {
            FormFieldType::Text | FormFieldType::Textarea => {
                json!("Ada ".repeat(usize::try_from(field.min_length.unwrap_or(1)).unwrap_or(1)).trim_end())
            }
            FormFieldType::Email => json!("ada@example.com"),
            FormFieldType::Url => json!("https://example.com/ada"),
            FormFieldType::Phone => json!("+1 (415) 555-2671"),
            FormFieldType::Number => json!(field.min.or(field.max).unwrap_or(3.0)),
            FormFieldType::Date => json!("2026-10-01"),
            FormFieldType::Time => json!("09:30"),
            FormFieldType::Datetime => json!("2026-10-01T09:30:00+02:00"),
            FormFieldType::Boolean => json!(true),
            FormFieldType::Select => json!(first_option),
            FormFieldType::Multiselect => json!([first_option]),
        }
    }

    /// Values a mutation puts in place of another: every JSON type, blanks, lengths at and over
    /// the limits, and the ids an answer uses.
    fn replacements() -> Vec<Value> {
        let mut values = vec![
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(-1),
            json!(2.5),
            json!(12.0),
            json!(1e300),
            json!(""),
            json!("  "),
            json!("\u{feff}"),
            json!("\u{1f600} ok"),
            json!("zzz"),
            json!("Team"),
            json!([]),
            json!(["zzz"]),
            json!({}),
            json!("x".repeat(500)),
            json!("x".repeat(501)),
            json!("x".repeat(2001)),
            json!("accept"),
            json!("decline"),
            json!("cancel"),
            json!("ada@example"),
            json!("2026-02-29"),
            json!("25:00"),
            json!("image/png"),
            json!("data:image/png;base64,QUJD"),
            json!("data:text/plain;base64,QUJD"),
        ];
        values.extend(["a1", "a2", "a9", "q1", "q9", "team", "starter", "f1", "email"].map(|id| json!(id)));
        values
    }

    /// Every answer one change away from `answer`: a key dropped or added, an item dropped,
    /// repeated or added, a value replaced.
    fn mutants(answer: &Value) -> Vec<Value> {
        let mut found = Vec::new();
        mutate(answer, &mut |changed| found.push(changed), &|value| value);
        found
    }

    fn mutate(value: &Value, emit: &mut dyn FnMut(Value), rebuild: &dyn Fn(Value) -> Value) {
        for replacement in replacements() {
            if replacement != *value {
                emit(rebuild(replacement));
            }
        }
        match value {
            Value::Object(object) => {
                for key in object.keys() {
                    let mut without = object.clone();
                    without.remove(key);
                    emit(rebuild(Value::Object(without)));
                }
                for extra in ["extra", "other", "custom", "url", "fileId", "q9"] {
                    let mut with_extra = object.clone();
                    with_extra.entry(extra).or_insert(json!("extra"));
                    emit(rebuild(Value::Object(with_extra)));
                }
                for (key, inner) in object {
                    let rebuild_inner = |changed: Value| {
                        let mut object = object.clone();
                        object.insert(key.clone(), changed);
                        rebuild(Value::Object(object))
                    };
                    mutate(inner, emit, &rebuild_inner);
                }
            }
            Value::Array(items) => {
                if let Some(first) = items.first() {
                    emit(rebuild(Value::Array([items.clone(), vec![first.clone()]].concat())));
                }
                for index in 0..items.len() {
                    let mut without = items.clone();
                    without.remove(index);
                    emit(rebuild(Value::Array(without)));
                }
                for (index, inner) in items.iter().enumerate() {
                    let rebuild_inner = |changed: Value| {
                        let mut items = items.clone();
                        items[index] = changed;
                        rebuild(Value::Array(items))
                    };
                    mutate(inner, emit, &rebuild_inner);
                }
            }
            _ => {}
        }
    }

    /// Errors the schema leaves to the server: a text's minimum length, which the contract
    /// counts in UTF-16 units after trimming, and sizes against the host's cap. (A maximum the
    /// schema counts in characters: the mutants' texts have no emoji, so the counts agree.)
    fn left_to_the_server(ask: &Ask, errors: &[super::super::AskError]) -> bool {
        let text_lengths = matches!(ask, Ask::Markdown(_) | Ask::Form(_));
        errors.iter().all(|error| {
            error.code == AskErrorCode::FILE_TOO_LARGE || (text_lengths && error.code == AskErrorCode::TOO_SHORT)
        })
    }

    fn compiled(name: &str, ask: &Ask) -> (Value, jsonschema::Validator) {
        let schema = answer_schema(ask);
        assert!(jsonschema::draft7::meta::is_valid(&schema), "{name}: not a draft-07 schema");
        assert!(!schema.to_string().contains("$ref"), "{name}: the schema must stand alone");
        assert!(schema["title"].is_string() && schema["description"].is_string(), "{name}: untitled");
        let validator = jsonschema::draft7::new(&schema).unwrap_or_else(|err| panic!("{name}: {err}"));
        (schema, validator)
    }

    #[test]
    fn every_answer_the_contract_accepts_passes_and_every_one_it_refuses_fails() {
        let mut kinds = std::collections::BTreeSet::new();
        let mut failures = Vec::new();
        let (mut accepted, mut refused) = (0, 0);
        for (name, ask, fixture_answers) in fixture_asks() {
            let (_, validator) = compiled(&name, &ask);
            let mut valid = Vec::new();
            for answer in fixture_answers.into_iter().chain(candidates(&ask)) {
                if validate_ask_response(&ask, &answer, CAP).is_empty() && !valid.contains(&answer) {
                    valid.push(answer);
                }
            }
            assert!(
                valid.iter().any(|answer| answer["action"] == "accept"),
                "{name}: no accepted answer to start from"
            );
            kinds.insert(ask.kind().as_str());
            // `cancel` is the server's action, not the user's: the schema leaves it out.
            let answers = valid.iter().cloned().chain(valid.iter().flat_map(mutants));
            for answer in answers.filter(|answer| answer["action"] != "cancel") {
                let errors = validate_ask_response(&ask, &answer, CAP);
                let passes = validator.is_valid(&answer);
                if errors.is_empty() {
                    accepted += 1;
                    if !passes {
                        failures.push(format!("{name}: the schema refuses an answer the contract accepts: {answer}"));
                    }
                } else {
                    refused += 1;
                    if passes && !left_to_the_server(&ask, &errors) {
                        let codes: Vec<String> = errors.iter().map(|e| format!("{} {}", e.path, e.code)).collect();
                        failures.push(format!("{name}: the schema passes {answer}, refused with {codes:?}"));
                    }
                }
            }
        }
        assert_eq!(kinds.len(), 6, "every ask kind has a fixture: {kinds:?}");
        assert!(accepted > 500 && refused > 5000, "too few answers tried: {accepted} accepted, {refused} refused");
        failures.truncate(40);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    fn ask_of(kind: AskKind, input: Value) -> Ask {
        parse_ask_input(kind, &input, AskSurface::Full).unwrap_or_else(|errors| panic!("{errors:?}"))
    }

    fn plan(extra: Value) -> Ask {
        let mut input = json!({"prompt": "Which plan?", "select": "one", "options": [
            {"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]});
        input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        ask_of(AskKind::Choice, input)
    }

    #[test]
    fn a_choice_names_its_option_ids_and_bounds() {
        let schema = answer_schema(&plan(json!({})));
        let selected = &schema["oneOf"][0]["properties"]["content"]["properties"]["selected"];
        assert_eq!(selected["items"]["enum"], json!(["starter", "team"]));
        assert_eq!((&selected["minItems"], &selected["maxItems"]), (&json!(1), &json!(1)));
        let validator = jsonschema::draft7::new(&schema).unwrap();
        assert!(validator.is_valid(&accept(json!({"selected": ["team"]}))));
        for wrong in [json!({"selected": ["gold"]}), json!({"selected": "team"}), json!({}), json!({"selected": []})] {
            assert!(!validator.is_valid(&accept(wrong.clone())), "{wrong}");
        }
        assert!(!validator.is_valid(&json!({"action": "cancel"})), "cancel is the server's");
        assert!(
            !validator.is_valid(&json!({"action": "accept", "content": {"selected": ["team"]}, "toolCallId": "c"}))
        );
    }

    #[test]
    fn decline_passes_only_where_the_ask_allows_it() {
        let decline = json!({"action": "decline"});
        let open = jsonschema::draft7::new(&answer_schema(&plan(json!({})))).unwrap();
        assert!(open.is_valid(&decline));
        let closed_ask = plan(json!({"allowDecline": false}));
        let closed = answer_schema(&closed_ask);
        assert!(!jsonschema::draft7::is_valid(&closed, &decline));
        assert!(closed["description"].as_str().unwrap().contains("cannot be declined"));
        let approval = ask_of(AskKind::Confirm, json!({"prompt": "Delete 3 todos?", "destructive": true}));
        assert!(!jsonschema::draft7::is_valid(&answer_schema(&approval), &decline), "a confirm needs allowDecline");
        assert!(jsonschema::draft7::is_valid(&answer_schema(&approval), &accept(json!({"confirmed": false}))));
    }

    fn form(fields: Value) -> Ask {
        ask_of(AskKind::Form, json!({"prompt": "Details?", "fields": fields}))
    }

    #[test]
    fn a_form_types_its_fields_and_requires_the_required() {
        let ask = form(json!([
            {"id": "email", "type": "email", "label": "Email", "required": true},
            {"id": "seats", "type": "number", "label": "Seats", "integer": true, "min": 1, "max": 50},
            {"id": "ship", "type": "select", "label": "Shipping", "options": [{"id": "std", "label": "Standard"}, {"id": "fast", "label": "Express"}]}
        ]));
        let validator = jsonschema::draft7::new(&answer_schema(&ask)).unwrap();
        let good = json!({"email": "ada@example.com", "seats": 12.0, "ship": "fast"});
        assert!(validator.is_valid(&accept(json!({"values": good}))));
        assert!(validator.is_valid(&accept(json!({"values": {"email": "ada@example.com", "seats": "", "ship": " "}}))));
        for wrong in [
            json!({"seats": 2}),
            json!({"email": "  ", "seats": 2}),
            json!({"email": "ada@example.com", "seats": "2"}),
            json!({"email": "ada@example.com", "seats": 2.5}),
            json!({"email": "ada@example.com", "seats": 51}),
            json!({"email": "ada@example.com", "ship": "slow"}),
            json!({"email": "ada@example", "seats": 2}),
            json!({"email": "ada@example.com", "nickname": "Ada"}),
        ] {
            assert!(!validator.is_valid(&accept(json!({"values": wrong.clone()}))), "{wrong}");
            assert!(!validate_ask_response(&ask, &accept(json!({"values": wrong.clone()})), CAP).is_empty(), "{wrong}");
        }
    }

    #[test]
    fn an_argument_forms_patterns_are_checked_as_the_server_checks_them() {
        let ask = form(json!([
            {"id": "f1", "type": "text", "label": "Time", "required": true},
            {"id": "f2", "type": "text", "label": "Note"}
        ]));
        let patterns = [
            FieldPattern { field: "f1".into(), pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$".into() },
            FieldPattern { field: "f2".into(), pattern: "^(?=a)b".into() },
        ];
        let schema = answer_schema_with_patterns(&ask, &patterns);
        assert!(!schema.to_string().contains("(?=a)"), "a pattern the contract cannot read is left out");
        let validator = jsonschema::draft7::new(&schema).unwrap();
        for (time, note) in [("09:30", "b"), ("25:00", "x"), ("9am", " "), ("23:59", "")] {
            let answer = accept(json!({"values": {"f1": time, "f2": note}}));
            let server = validate_ask_response(&ask, &answer, CAP).is_empty()
                && check_field_patterns(&patterns, &answer).is_empty();
            assert_eq!(validator.is_valid(&answer), server, "{answer}");
        }
        assert!(!jsonschema::draft7::is_valid(&answer_schema(&ask), &accept(json!({"values": {}}))), "f1 is required");
    }

    #[test]
    fn a_markdown_answer_says_whether_it_changed() {
        let ask = ask_of(AskKind::Markdown, json!({"prompt": "Edit", "initial": "Hello", "minLength": 3}));
        let validator = jsonschema::draft7::new(&answer_schema(&ask)).unwrap();
        assert!(validator.is_valid(&accept(json!({"changed": false, "markdown": "Hello"}))));
        assert!(validator.is_valid(&accept(json!({"changed": true, "markdown": "Hello!"}))));
        assert!(!validator.is_valid(&accept(json!({"changed": true, "markdown": "Hello"}))));
        assert!(!validator.is_valid(&accept(json!({"changed": false, "markdown": "Hi there"}))));
        assert!(!validator.is_valid(&accept(json!({"changed": true, "markdown": "   "}))));
    }
}
