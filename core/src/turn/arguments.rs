//! Argument asks: the arguments of a step's host tool calls that only the person may supply (a
//! property marked `"x-palaver-person-only": true` in the tool's input schema; the model is
//! offered the tool without it), and the required ones the model left out. Before any call of
//! the step runs, one form asks for them all: one field per distinct (tool, argument), bound to
//! every call that needs it. Each answer is checked against the argument's own schema when it
//! arrives: one that does not fit is refused like any invalid answer (a 400 naming the field,
//! the card keeps what was typed), so only values that fit are ever taken. A skipped form
//! refuses the calls that need its values, and the model is told which argument and why.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use jsonschema::error::ValidationErrorKind;

use super::tools::{PERSON_ONLY, ToolRegistry, call_keys};
use crate::llm::ToolCall;
use palaver_contract::asks::{ASK_LIMITS, FieldPattern, is_blank};
use palaver_contract::path::Path;
use palaver_contract::text::shorten;
use palaver_wire::error::FieldError;
use palaver_wire::words::{humanised, tool_words};

/// The prefix of the ids of argument asks.
pub const ARGUMENTS_PREFIX: &str = "arguments_";

const QUESTION: &str = "Before the next step can run, a few values are needed. Each field says what it is for.";

/// One value the person is asked for, and what came of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArgumentField {
    pub tool: String,
    pub argument: String,
    /// The calls (by id) that take this value.
    pub calls: Vec<String>,
    /// The argument's own schema, which the answer must fit.
    pub schema: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Why its calls are refused, once they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

impl ArgumentField {
    fn settled(&self) -> bool {
        self.value.is_some() || self.refused.is_some()
    }
}

/// A step held until the person has given the values its calls need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HeldStep {
    /// The step's calls, as the model made them.
    pub calls: Vec<ToolCall>,
    pub fields: Vec<ArgumentField>,
    /// The fields (by index) the form now asks, in field order: `f1` is the first.
    pub asking: Vec<usize>,
}

fn is_person_only(schema: &Value) -> bool {
    schema.get(PERSON_ONLY) == Some(&Value::Bool(true))
}

/// The input schema the model is offered: without the arguments only the person may supply.
pub fn model_schema(schema: &Value) -> Value {
    let mut offered = schema.clone();
    let Some(properties) = offered.get_mut("properties").and_then(Value::as_object_mut) else { return offered };
    let hidden: Vec<String> =
        properties.iter().filter(|(_, property)| is_person_only(property)).map(|(name, _)| name.clone()).collect();
    if hidden.is_empty() {
        return offered;
    }
    properties.retain(|name, _| !hidden.contains(name));
    if let Some(required) = offered.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|name| name.as_str().is_none_or(|name| !hidden.iter().any(|hidden| hidden == name)));
    }
    offered
}

/// The values the calls of one step need from the person, one field per (tool, argument) in
/// call order; empty when they need none.
pub fn needed(calls: &[ToolCall], tools: &ToolRegistry) -> Vec<ArgumentField> {
    let mut fields: Vec<ArgumentField> = Vec::new();
    for call in calls {
        let Some(tool) = tools.get(&call.name) else { continue };
        // A call with arguments its tool does not take is refused before anything is asked.
        if !call_keys::refused_keys(tool.as_ref(), &call.input).is_empty() {
            continue;
        }
        let schema = tool.input_schema();
        let Some(properties) = schema["properties"].as_object() else { continue };
        let required: Vec<&str> =
            schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        for (argument, property) in properties {
            let given = call.input.get(argument).is_some_and(|value| !value.is_null());
            if !is_person_only(property) && (given || !required.contains(&argument.as_str())) {
                continue;
            }
            match fields.iter_mut().find(|field| field.tool == call.name && field.argument == *argument) {
                Some(field) => field.calls.push(call.id.clone()),
                None => fields.push(ArgumentField {
                    tool: call.name.clone(),
                    argument: argument.clone(),
                    calls: vec![call.id.clone()],
                    schema: property.clone(),
                    value: None,
                    refused: None,
                }),
            }
        }
    }
    fields
}

/// The form field that asks for `field`, with the positional id `id`: labelled by the
/// argument's title, else its name in words, with its description as the help text. Nothing
/// the model proposed is shown or filled in.
fn form_field(id: String, field: &ArgumentField) -> Value {
    let limits = &ASK_LIMITS.form;
    let schema = &field.schema;
    let text_of = |key: &str| schema[key].as_str().map(str::trim).filter(|text| !text.is_empty());
    // An argument named only by symbols (`_`) has no words: its name stands.
    let words = Some(humanised(&field.argument)).filter(|words| !words.is_empty());
    let label = text_of("title").map_or_else(|| words.unwrap_or_else(|| field.argument.clone()), str::to_string);
    let mut form = json!({"id": id, "label": shorten(&label, limits.label_max_length), "required": true});
    if let Some(description) = text_of("description") {
        form["helperText"] = json!(shorten(description, limits.helper_text_max_length));
    }
    let options: Vec<&Value> = schema["enum"].as_array().into_iter().flatten().collect();
    let kind = match schema["type"].as_str() {
        _ if is_select(options.len()) => {
            form["options"] = options
                .iter()
                .enumerate()
                .map(|(index, value)| {
                    let label = value.as_str().map_or_else(|| value.to_string(), str::to_string);
                    json!({"id": format!("o{}", index + 1), "label": shorten(&label, ASK_LIMITS.choice.option_label_max_length)})
                })
                .collect();
            "select"
        }
        Some("integer") | Some("number") => {
            form["integer"] = json!(schema["type"] == "integer");
            for (bound, key) in [("minimum", "min"), ("maximum", "max")] {
                if let Some(number) = schema[bound].as_f64() {
                    form[key] = json!(number);
                }
            }
            "number"
        }
        Some("boolean") => "boolean",
        _ => match schema["format"].as_str() {
            Some("date") => "date",
            Some("email") => "email",
            Some("uri") | Some("url") => "url",
            _ => {
                for key in ["minLength", "maxLength"] {
                    if let Some(length) = schema[key].as_u64().filter(|length| *length <= limits.text_max_length as u64)
                    {
                        form[key] = json!(length);
                    }
                }
                "text"
            }
        },
    };
    form["type"] = json!(kind);
    form
}

/// A form answer as the argument takes it: a picked option as the enum value it stands for.
fn as_argument(field: &ArgumentField, answer: &Value) -> Value {
    let options = field.schema["enum"].as_array();
    let picked = answer.as_str().and_then(|id| id.strip_prefix('o')).and_then(|index| index.parse::<usize>().ok());
    match (options, picked) {
        // Only a select's pick: an enum too long for one is asked as free text.
        (Some(options), Some(index)) if is_select(options.len()) => {
            index.checked_sub(1).and_then(|at| options.get(at)).cloned().unwrap_or(Value::Null)
        }
        _ => answer.clone(),
    }
}

/// Whether an enum of `count` values is asked as a select (else as free text).
fn is_select(count: usize) -> bool {
    (2..=ASK_LIMITS.choice.options_max).contains(&count)
}

/// Why an answer is not taken for an argument.
enum Unfit {
    /// It does not fit the argument's schema: the contract's code for it, and the reason.
    Value(&'static str, String),
    /// The schema itself does not compile, so no answer can be checked: its calls are refused.
    Schema(String),
}

/// Whether `value` fits the argument's schema, with the first reason it does not. A schema
/// that does not compile takes nothing: an unchecked value would reach the tool.
fn fits(schema: &Value, value: &Value) -> Result<(), Unfit> {
    // Our keyword is one JSON Schema does not know, so validators pass over it.
    match jsonschema::validator_for(schema) {
        Ok(validator) => {
            validator.validate(value).map_err(|error| Unfit::Value(code_of(error.kind()), error.to_string()))
        }
        Err(error) => {
            tracing::warn!(%error, "an argument's schema does not compile; its answer is refused");
            Err(Unfit::Schema(format!(
                "the tool's schema for it is not valid JSON Schema ({error}), so no value can be checked against it"
            )))
        }
    }
}

/// The contract's error code closest to a schema keyword's failure.
fn code_of(kind: &ValidationErrorKind) -> &'static str {
    match kind {
        ValidationErrorKind::Pattern { .. } | ValidationErrorKind::Format { .. } => "INVALID_FORMAT",
        ValidationErrorKind::Minimum { .. }
        | ValidationErrorKind::Maximum { .. }
        | ValidationErrorKind::ExclusiveMinimum { .. }
        | ValidationErrorKind::ExclusiveMaximum { .. } => "OUT_OF_RANGE",
        ValidationErrorKind::MinLength { .. } => "TOO_SHORT",
        ValidationErrorKind::MaxLength { .. } => "TOO_LONG",
        ValidationErrorKind::Enum { .. } | ValidationErrorKind::Constant { .. } => "INVALID_ENUM",
        ValidationErrorKind::Type { .. } => "FIELD_TYPE_MISMATCH",
        _ => "INVALID_FORMAT",
    }
}

impl HeldStep {
    pub fn new(calls: Vec<ToolCall>, fields: Vec<ArgumentField>) -> Self {
        HeldStep { calls, fields, asking: Vec::new() }
    }

    /// The next form's input, or `None` once every field is settled: the open fields, as many
    /// as a form holds, titled by the tool that needs them.
    pub fn next_form(&mut self) -> Option<Value> {
        let open: Vec<usize> = (0..self.fields.len()).filter(|index| !self.fields[*index].settled()).collect();
        if open.is_empty() {
            return None;
        }
        let asking: Vec<usize> = open.into_iter().take(ASK_LIMITS.form.fields_max).collect();
        let fields: Vec<Value> = asking
            .iter()
            .enumerate()
            .map(|(position, index)| form_field(format!("f{}", position + 1), &self.fields[*index]))
            .collect();
        let tool = tool_words(&self.fields[asking[0]].tool, None);
        let title = if fields.len() == 1 { format!("{tool} needs a value") } else { format!("{tool} needs values") };
        self.asking = asking;
        Some(json!({
            "prompt": QUESTION,
            "title": shorten(&title, ASK_LIMITS.title_max_length),
            "allowDecline": true,
            "fields": fields,
        }))
    }

    /// The patterns the current form's text fields must match (their arguments' own), for the
    /// card to check before Submit; a select's value is an option id, never the pattern's.
    pub fn field_patterns(&self) -> Vec<FieldPattern> {
        self.asking
            .iter()
            .enumerate()
            .filter_map(|(position, index)| {
                let schema = &self.fields[*index].schema;
                if schema["enum"].as_array().is_some_and(|options| is_select(options.len())) {
                    return None;
                }
                let pattern = schema["pattern"].as_str()?;
                Some(FieldPattern { field: format!("f{}", position + 1), pattern: pattern.to_string() })
            })
            .collect()
    }

    /// What in an answer to the current form its arguments' schemas refuse, at the answer's
    /// paths (`content.values.f1`); a blank value is the form's own to judge.
    pub fn refusals(&self, values: &Map<String, Value>) -> Vec<FieldError> {
        self.asking
            .iter()
            .enumerate()
            .filter_map(|(position, index)| {
                let field = &self.fields[*index];
                let id = format!("f{}", position + 1);
                let answer = values.get(&id).filter(|value| !is_blank(value))?;
                let Err(Unfit::Value(code, reason)) = fits(&field.schema, &as_argument(field, answer)) else {
                    return None;
                };
                let path = Path::root().key("content").key("values").name(&id).text();
                Some(FieldError {
                    code: code.to_string(),
                    message: format!("{path} does not fit what the tool takes for \"{}\": {reason}.", field.argument),
                    fix: format!("Change {path} to a value the tool's schema for \"{}\" accepts.", field.argument),
                    path,
                })
            })
            .collect()
    }

    /// Takes the answer to the current form (its values have passed [`HeldStep::refusals`]):
    /// each value is kept; one not given, or for an argument whose schema does not compile,
    /// refuses the calls that need it.
    pub fn take(&mut self, values: &Map<String, Value>) {
        for (position, index) in std::mem::take(&mut self.asking).into_iter().enumerate() {
            let field = &mut self.fields[index];
            let answer = values.get(&format!("f{}", position + 1)).map(|answer| as_argument(field, answer));
            let checked = match &answer {
                Some(answer) => fits(&field.schema, answer),
                None => Err(Unfit::Value("MISSING_REQUIRED", "no value was given".to_string())),
            };
            match checked {
                Ok(()) => field.value = answer,
                Err(Unfit::Schema(reason) | Unfit::Value(_, reason)) => field.refused = Some(reason),
            }
        }
    }

    /// Refuses every field not yet settled (the person skipped the form, or it ended).
    pub fn refuse_open(&mut self, reason: &str) {
        for field in self.fields.iter_mut().filter(|field| !field.settled()) {
            field.refused = Some(reason.to_string());
        }
    }

    /// The step's calls as they run: the person's values in (and nothing the model proposed
    /// for them), each with why it must not run when a value it needs was refused.
    pub fn settled_calls(&self) -> Vec<(ToolCall, Option<String>)> {
        self.calls
            .iter()
            .map(|call| {
                let mut call = call.clone();
                let mut refusals = Vec::new();
                for field in self.fields.iter().filter(|field| field.calls.contains(&call.id)) {
                    if let Some(object) = call.input.as_object_mut() {
                        object.remove(&field.argument);
                    }
                    match (&field.value, &field.refused) {
                        (Some(value), _) => {
                            if !call.input.is_object() {
                                call.input = json!({});
                            }
                            call.input[&field.argument] = value.clone();
                        }
                        (None, reason) => refusals.push(format!(
                            "\"{}\" ({})",
                            field.argument,
                            reason.as_deref().unwrap_or("no value was given")
                        )),
                    }
                }
                let refusal = (!refusals.is_empty())
                    .then(|| format!("This call did not run: it has no value for {}.", refusals.join("; ")));
                (call, refusal)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::turn::tools::{HostTool, ToolContext, ToolRun};

    struct Booking;

    impl HostTool for Booking {
        fn name(&self) -> &str {
            "book"
        }
        fn description(&self) -> &str {
            "Books a table."
        }
        fn input_schema(&self) -> Value {
            let person = |description: &str, extra: Value| {
                let mut property = json!({"type": "string", "description": description, PERSON_ONLY: true});
                if let (Some(property), Value::Object(extra)) = (property.as_object_mut(), extra) {
                    property.extend(extra);
                }
                property
            };
            let mut properties = json!({
                "place": {"type": "string", "description": "Where"},
                "time": person("When, as HH:mm", json!({"pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"})),
                "seats": {"type": "integer", "minimum": 1, "maximum": 12, "description": "How many seats", PERSON_ONLY: true},
                "room": {"type": "string", "enum": ["inside", "terrace"], "description": "Which room", PERSON_ONLY: true},
            });
            for extra in 0..7 {
                properties[format!("note{extra}")] = person(&format!("Note {extra}"), json!({}));
            }
            json!({"type": "object", "properties": properties, "required": ["place", "time"]})
        }
        fn execute(&self, _context: ToolContext, _input: Value) -> ToolRun {
            Box::pin(async { Ok(json!({}).into()) })
        }
    }

    fn registry() -> ToolRegistry {
        let mut tools = ToolRegistry::default();
        tools.insert(Arc::new(Booking)).unwrap();
        tools
    }

    fn call(id: &str, input: Value) -> ToolCall {
        ToolCall { id: id.into(), name: "book".into(), input }
    }

    #[test]
    fn the_model_is_offered_the_tool_without_the_persons_arguments() {
        let offered = model_schema(&Booking.input_schema());
        let names: Vec<&String> = offered["properties"].as_object().unwrap().keys().collect();
        assert_eq!(names, ["place"]);
        assert_eq!(offered["required"], json!(["place"]));
    }

    /// The current form's answer: each field's value, the time as given.
    fn answers(held: &HeldStep, time: &str) -> Map<String, Value> {
        let mut values = Map::new();
        for (position, index) in held.asking.iter().enumerate() {
            let answer = match held.fields[*index].argument.as_str() {
                "time" => json!(time),
                "seats" => json!(4),
                "room" => json!("o2"),
                _ => json!("x"),
            };
            values.insert(format!("f{}", position + 1), answer);
        }
        values
    }

    #[test]
    fn two_calls_share_one_field_per_argument_and_a_form_holds_at_most_eight() {
        let calls = [call("c1", json!({"place": "Ada's", "time": "07:00"})), call("c2", json!({}))];
        let mut held = HeldStep::new(calls.to_vec(), needed(&calls, &registry()));
        let arguments: Vec<&str> = held.fields.iter().map(|field| field.argument.as_str()).collect();
        assert_eq!(arguments.len(), 11, "place (missing from c2), then the person's: {arguments:?}");
        assert_eq!(held.fields.iter().find(|f| f.argument == "time").unwrap().calls, ["c1", "c2"]);
        assert_eq!(held.fields.iter().find(|f| f.argument == "place").unwrap().calls, ["c2"]);

        let first = held.next_form().unwrap();
        assert_eq!(first["fields"].as_array().unwrap().len(), 8, "a form holds eight");
        assert_eq!(first["prompt"], QUESTION);
        assert_eq!(first["title"], "Book needs values");
        let ids: Vec<&str> = first["fields"].as_array().unwrap().iter().map(|f| f["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]);
        assert!(!first.to_string().contains("07:00"), "nothing the model proposed is shown: {first}");
        let room = first["fields"].as_array().unwrap().iter().find(|f| f["label"] == "Room").unwrap();
        assert_eq!((&room["type"], &room["helperText"]), (&json!("select"), &json!("Which room")));
        let parsed = palaver_contract::asks::parse_ask_input(
            palaver_contract::asks::AskKind::Form,
            &first,
            palaver_contract::asks::AskSurface::Full,
        );
        assert!(parsed.is_ok(), "{parsed:?}");
        assert_eq!(held.field_patterns(), [], "no field of the first form has a pattern");

        held.take(&answers(&held, "09:30"));
        let rest = held.next_form().unwrap();
        assert_eq!(rest["fields"].as_array().unwrap().len(), 3, "then the fields the first form could not hold");
        let time_at = held.asking.iter().position(|index| held.fields[*index].argument == "time").unwrap();
        assert_eq!(
            held.field_patterns(),
            [FieldPattern { field: format!("f{}", time_at + 1), pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$".into() }]
        );
        held.take(&answers(&held, "09:30"));
        assert_eq!(held.next_form(), None);

        let settled = held.settled_calls();
        assert_eq!(settled[0].0.input["time"], "09:30", "the person's value, never the model's");
        assert_eq!(settled[1].0.input["time"], "09:30", "bound to every call that needs it");
        assert_eq!(settled[0].0.input["room"], "terrace");
        assert!(settled.iter().all(|(_, refusal)| refusal.is_none()));
    }

    #[test]
    fn an_answer_that_does_not_fit_is_refused_at_its_field_with_the_schemas_reason() {
        let calls = [call("c1", json!({"place": "Ada's"}))];
        let mut fields = needed(&calls, &registry());
        fields.retain(|field| field.argument == "seats" || field.argument == "time");
        let mut held = HeldStep::new(calls.to_vec(), fields);
        held.next_form().unwrap();
        // The fields are in the schema's order: seats, then time.
        let values = Map::from_iter([("f1".to_string(), json!(40)), ("f2".to_string(), json!("9.30"))]);
        let refusals = held.refusals(&values);
        let found: Vec<(&str, &str)> = refusals.iter().map(|r| (r.path.as_str(), r.code.as_str())).collect();
        assert_eq!(found, [("content.values.f1", "OUT_OF_RANGE"), ("content.values.f2", "INVALID_FORMAT")]);
        assert!(refusals[0].message.contains("\"seats\"") && refusals[0].message.contains("12"), "{refusals:?}");
        let fitting = Map::from_iter([("f1".to_string(), json!(4)), ("f2".to_string(), json!("09:30"))]);
        assert!(held.refusals(&fitting).is_empty());
    }

    #[test]
    fn an_answer_for_an_argument_whose_schema_does_not_compile_is_refused_at_once() {
        let calls = [call("c1", json!({"place": "Ada's"}))];
        let mut fields = needed(&calls, &registry());
        fields.retain(|field| field.argument == "time");
        fields[0].schema = json!({"type": "string", "pattern": "([0-9]", "description": "When"});
        let mut held = HeldStep::new(calls.to_vec(), fields);
        held.next_form().unwrap();
        let anything = Map::from_iter([("f1".to_string(), json!("<anything at all>"))]);
        assert!(held.refusals(&anything).is_empty(), "no answer can fit it, so none is asked for");
        held.take(&anything);
        assert_eq!(held.next_form(), None, "asking again cannot help");
        let (call, refusal) = &held.settled_calls()[0];
        let refusal = refusal.as_deref().unwrap();
        assert!(refusal.contains("\"time\"") && refusal.contains("not valid JSON Schema"), "{refusal}");
        assert!(call.input.get("time").is_none(), "the unchecked value never reaches the tool");
    }
}
