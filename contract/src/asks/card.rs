//! Simple cards: every ask as short text and up to three buttons, each carrying the exact
//! answer it sends, for small screens and clients that do not know the kind.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::ask::Ask;
use super::check::Checker;
use super::errors::{AskError, AskErrorCode, Loc, finalize};
use super::input::{AskKind, ChoiceInput, SelectMode};
use super::limits::ASK_LIMITS;
use super::question_set::QuestionsInput;
use super::response::{AskResponse, accepts};
use crate::text::{js_trim, shorten, shortened};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ButtonStyle {
    Default,
    Primary,
    Destructive,
    Cancel,
}

/// `SIMPLE_CARD_BUTTON_STYLES`.
pub const SIMPLE_CARD_BUTTON_STYLES: [&str; 4] = ["default", "primary", "destructive", "cancel"];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimpleCardButton {
    pub id: String,
    pub label: String,
    pub style: ButtonStyle,
    pub response: AskResponse,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SimpleCard {
    pub tool_call_id: String,
    pub kind: AskKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub text: String,
    pub buttons: Vec<SimpleCardButton>,
    pub handoff: bool,
}

/// A label as a button shows it: trimmed, then cut to `max` UTF-16 units.
fn button_label(label: &str, max: usize) -> String {
    shorten(js_trim(label), max)
}

fn button(
    id: impl Into<String>,
    label: impl Into<String>,
    style: ButtonStyle,
    response: AskResponse,
) -> SimpleCardButton {
    SimpleCardButton { id: id.into(), label: label.into(), style, response }
}

fn skip() -> SimpleCardButton {
    button("skip", "Skip", ButtonStyle::Cancel, AskResponse::Decline)
}

fn cancel() -> SimpleCardButton {
    button("cancel", "Cancel", ButtonStyle::Cancel, AskResponse::Decline)
}

/// `{key: value}`, built in place: `json!` would serialize a borrowed value part by part.
fn object_of(key: &str, value: Value) -> Value {
    let mut object = Map::new();
    object.insert(key.to_string(), value);
    Value::Object(object)
}

/// The content of an answer selecting `ids`.
fn selected(ids: &[&str]) -> Value {
    object_of("selected", Value::Array(ids.iter().map(|id| Value::String(id.to_string())).collect()))
}

/// The accept answer with `content` if it is a valid answer to `ask`.
fn if_valid(ask: &Ask, content: Value) -> Option<AskResponse> {
    accepts(ask, &content, ASK_LIMITS.files.default_max_file_size_bytes).then(|| AskResponse::accept(content))
}

/// The card for a valid ask (`toSimpleCard`). Pure: the same ask always gives the same card.
pub fn to_simple_card(ask: &Ask, tool_call_id: &str) -> SimpleCard {
    let limits = &ASK_LIMITS.simple_card;
    let decline = ask.allows_decline();
    let (buttons, handoff) = match ask {
        Ask::Choice(input) => choice_buttons(ask, input, decline),
        Ask::Confirm(input) => {
            let (approve, deny) = input.button_labels();
            let style = if input.destructive == Some(true) { ButtonStyle::Destructive } else { ButtonStyle::Primary };
            let max = limits.button_label_max_length;
            let buttons = vec![
                button("approve", button_label(approve, max), style, AskResponse::accept(json!({"confirmed": true}))),
                button(
                    "deny",
                    button_label(deny, max),
                    ButtonStyle::Cancel,
                    AskResponse::accept(json!({"confirmed": false})),
                ),
            ];
            (buttons, false)
        }
        Ask::Markdown(input) => {
            let draft = input.initial.as_deref().unwrap_or_default();
            let approve = if_valid(ask, json!({"markdown": draft, "changed": false}))
                .map(|response| button("approve", "Approve draft", ButtonStyle::Primary, response));
            (approve.into_iter().chain(decline.then(cancel)).collect(), true)
        }
        Ask::Form(input) => {
            let values = input.default_values();
            let every_required_has_default =
                input.fields.iter().all(|field| !field.is_required() || field.default.is_some());
            let submit = (!values.is_empty() && every_required_has_default)
                .then(|| if_valid(ask, object_of("values", Value::Object(values))))
                .flatten()
                .map(|response| button("submit-defaults", "Submit defaults", ButtonStyle::Primary, response));
            (submit.into_iter().chain(decline.then(cancel)).collect(), true)
        }
        Ask::Files(_) => (decline.then(skip).into_iter().collect(), true),
        Ask::Questions(input) => questions_buttons(input, decline),
    };
    // A set of one question: the buttons answer that question, so the card asks it.
    let text = match ask {
        Ask::Questions(QuestionsInput { questions, .. }) if questions.len() == 1 => &questions[0].title,
        _ => ask.prompt(),
    };
    SimpleCard {
        tool_call_id: tool_call_id.to_string(),
        kind: ask.kind(),
        title: ask.title().map(|title| shorten(title, limits.title_max_length)),
        text: shorten(text, limits.text_max_length),
        buttons,
        handoff,
    }
}

/// Length a default's label may take inside `Use "<label>"` and still fit a button.
const USE_DEFAULT_LABEL_MAX_LENGTH: usize = 20 - "Use \"\"".len();

fn choice_buttons<'a>(ask: &Ask, input: &'a ChoiceInput, decline: bool) -> (Vec<SimpleCardButton>, bool) {
    let max = ASK_LIMITS.simple_card.button_label_max_length;
    let skip_button = decline.then(skip);
    let default = input.default.as_deref().unwrap_or_default();
    if input.select == SelectMode::Many {
        let ids: Vec<&str> = default.iter().map(String::as_str).collect();
        let use_default = (!ids.is_empty())
            .then(|| if_valid(ask, selected(&ids)))
            .flatten()
            .map(|response| button("use-default", "Use suggested", ButtonStyle::Primary, response));
        return (use_default.into_iter().chain(skip_button).collect(), true);
    }
    let default_id = default.first().map(String::as_str);
    if input.options.len() > ASK_LIMITS.simple_card.buttons_max {
        // Compared before one of them is shown, so borrowed rather than copied.
        let short = |label: &'a str| shortened(js_trim(label), USE_DEFAULT_LABEL_MAX_LENGTH);
        let use_default =
            default_id.and_then(|id| input.options.iter().find(|option| option.id == id)).filter(|chosen| {
                let label = short(&chosen.label);
                !input.options.iter().any(|other| other.id != chosen.id && short(&other.label) == label)
            });
        let use_default = use_default.map(|option| {
            let label = format!("Use \"{}\"", short(&option.label));
            let response = AskResponse::accept(selected(&[&option.id]));
            button("use-default", label, ButtonStyle::Primary, response)
        });
        return (use_default.into_iter().chain(skip_button).collect(), true);
    }
    let ordered = input
        .options
        .iter()
        .filter(|option| Some(option.id.as_str()) == default_id)
        .chain(input.options.iter().filter(|option| Some(option.id.as_str()) != default_id));
    let options: Vec<SimpleCardButton> = ordered
        .map(|option| {
            let style =
                if Some(option.id.as_str()) == default_id { ButtonStyle::Primary } else { ButtonStyle::Default };
            let response = AskResponse::accept(selected(&[&option.id]));
            button(["option:", &option.id].concat(), button_label(&option.label, max), style, response)
        })
        .collect();
    let collide = options.iter().enumerate().any(|(index, a)| options[..index].iter().any(|b| b.label == a.label));
    if collide {
        return (skip_button.into_iter().collect(), true);
    }
    let room_for_skip = options.len() < ASK_LIMITS.simple_card.buttons_max;
    (options.into_iter().chain(skip_button.filter(|_| room_for_skip)).collect(), false)
}

/// A set of one single-pick question whose answers each fit a button, all of them on the card,
/// becomes those buttons (and Skip, when there is room); anything else hands off.
fn questions_buttons(input: &QuestionsInput, decline: bool) -> (Vec<SimpleCardButton>, bool) {
    let card = &ASK_LIMITS.simple_card;
    let skip_button = decline.then(skip);
    let [question] = input.questions.as_slice() else {
        return (skip_button.into_iter().collect(), true);
    };
    let fits = |label: &str| crate::text::utf16_len(js_trim(label)) <= card.button_label_max_length;
    let simple = !question.is_multi()
        && !question.allows_custom()
        && question.answers.len() <= card.buttons_max
        && question.answers.iter().all(|answer| fits(&answer.label));
    if !simple {
        return (skip_button.into_iter().collect(), true);
    }
    let buttons: Vec<SimpleCardButton> = question
        .answers
        .iter()
        .map(|answer| {
            let picked = object_of("picked", Value::Array(vec![Value::String(answer.id.clone())]));
            let response = AskResponse::accept(object_of("answers", object_of(&question.id, picked)));
            button(["answer:", &answer.id].concat(), js_trim(&answer.label), ButtonStyle::Default, response)
        })
        .collect();
    let room_for_skip = buttons.len() < card.buttons_max;
    (buttons.into_iter().chain(skip_button.filter(|_| room_for_skip)).collect(), false)
}

/// The answer a card's button sends (`resolveButtonAnswer`), or `UNKNOWN_BUTTON`.
pub fn resolve_button_answer(card: &SimpleCard, button_id: &str) -> Result<AskResponse, AskError> {
    if let Some(button) = card.buttons.iter().find(|button| button.id == button_id) {
        return Ok(button.response.clone());
    }
    let fix = if card.buttons.is_empty() {
        "The card has no buttons. Send a full askResponse instead.".to_string()
    } else {
        let ids: Vec<String> = card.buttons.iter().map(|button| format!("\"{}\"", button.id)).collect();
        format!("Send the id of one of the card's buttons: {}.", ids.join(", "))
    };
    Err(AskError::new(
        Loc::Root.key("buttonId").path(),
        AskErrorCode::UNKNOWN_BUTTON,
        format!("Button \"{button_id}\" is not on the pending ask's simple card."),
        fix,
    ))
}

/// A card's shape, limits and unique button ids (`simpleCardSchema`).
pub fn check_simple_card(card: &Value) -> Vec<AskError> {
    let mut ck = Checker::default();
    let root = Loc::Root;
    let limits = &ASK_LIMITS.simple_card;
    let Some(object) = ck.object(card, root, &["toolCallId", "kind", "title", "text", "buttons", "handoff"]) else {
        return finalize(ck.errors);
    };
    let bounded = |ck: &mut Checker, value: &Value, at: Loc<'_>, max: usize| {
        if let Some(text) = ck.string(value, at) {
            if text.is_empty() {
                ck.blank(at);
            } else if crate::text::utf16_len(text) > max {
                ck.too_long(at, max);
            }
        }
    };
    if let Some(value) = ck.required(object, root, "toolCallId") {
        bounded(&mut ck, value, root.key("toolCallId"), usize::MAX);
    }
    let kinds: Vec<&str> = super::input::ASK_KINDS.iter().map(|kind| kind.as_str()).collect();
    if let Some(kind) = ck.required(object, root, "kind") {
        ck.one_of(kind, root.key("kind"), &kinds);
    }
    if let Some(title) = object.get("title") {
        bounded(&mut ck, title, root.key("title"), limits.title_max_length);
    }
    if let Some(text) = ck.required(object, root, "text") {
        bounded(&mut ck, text, root.key("text"), limits.text_max_length);
    }
    ck.required(object, root, "handoff");
    ck.boolean(object, root, "handoff");
    let buttons_at = root.key("buttons");
    let buttons =
        ck.required(object, root, "buttons").and_then(|value| ck.list(value, buttons_at, 0, limits.buttons_max));
    let mut ids: Vec<&str> = Vec::new();
    for (index, value) in buttons.into_iter().flatten().enumerate() {
        let at = buttons_at.index(index);
        let Some(button) = ck.object(value, at, &["id", "label", "style", "response"]) else { continue };
        if let Some(id) = ck.required(button, at, "id") {
            bounded(&mut ck, id, at.key("id"), usize::MAX);
            if let Some(id) = id.as_str() {
                if ids.contains(&id) {
                    ck.push(
                        at.key("id"),
                        AskErrorCode::DUPLICATE_ID,
                        format!("Button id \"{id}\" is used more than once."),
                        "Give every button a unique id.",
                    );
                }
                ids.push(id);
            }
        }
        if let Some(label) = ck.required(button, at, "label") {
            bounded(&mut ck, label, at.key("label"), limits.button_label_max_length);
        }
        if let Some(style) = ck.required(button, at, "style") {
            ck.one_of(style, at.key("style"), &SIMPLE_CARD_BUTTON_STYLES);
        }
        if let Some(response) = ck.required(button, at, "response")
            && serde_json::from_value::<AskResponse>(response.clone()).is_err()
        {
            ck.invalid_type(at.key("response"), super::check::Expected::Object, response);
        }
    }
    finalize(ck.errors)
}

/// The labels of the options a choice answer selected, each falling back to its id.
pub fn option_labels(input: &Value, ids: &[Value]) -> Vec<String> {
    let options = input["options"].as_array().map(Vec::as_slice).unwrap_or_default();
    ids.iter()
        .filter_map(Value::as_str)
        .map(|id| {
            let option = options.iter().find(|option| option["id"] == id);
            option.and_then(|option| option["label"].as_str()).unwrap_or(id).to_string()
        })
        .collect()
}
