//! The JSON Schema (draft-07) documents published for clients that do not run Rust, such as a
//! watch app generating Swift types. Built from the contract's own limits and kinds; the
//! committed copies in `app/schemas/` are checked against this by a test.

use serde_json::{Value, json};

use super::card::SIMPLE_CARD_BUTTON_STYLES;
use super::input::{ASK_KINDS, AskSurface};
use super::limits::ASK_LIMITS;

pub(super) const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";
const REQUEST_ID: &str = "The request's id. Palaver adds it to every JSON response; quote it when reporting a problem.";

fn kinds() -> Value {
    json!(ASK_KINDS.iter().map(|kind| kind.as_str()).collect::<Vec<_>>())
}

fn id() -> Value {
    json!({"type": "string", "minLength": 1})
}

fn tool_call_id() -> Value {
    json!({"type": "string", "minLength": 1, "description": "The pending ask's toolCallId."})
}

pub(super) fn bounded(max: usize) -> Value {
    json!({"type": "string", "minLength": 1, "maxLength": max})
}

pub(super) fn strict(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

pub(super) fn with(mut schema: Value, extra: Value) -> Value {
    if let (Some(schema), Value::Object(extra)) = (schema.as_object_mut(), extra) {
        schema.extend(extra);
    }
    schema
}

/// The answer envelope, one branch per action; `extra` adds fields to every branch.
fn envelope(extra: &Value, extra_required: &[&str]) -> Vec<Value> {
    let branch = |action: &str, mut properties: Value, required: &[&str]| {
        properties["action"] = json!({"type": "string", "const": action});
        let properties = with(properties, extra.clone());
        let required: Vec<&str> = required.iter().chain(extra_required).copied().collect();
        strict(properties, &required)
    };
    vec![
        branch(
            "accept",
            json!({"content": {"type": "object", "propertyNames": {"type": "string"}, "additionalProperties": {}}}),
            &["action", "content"],
        ),
        branch("decline", json!({}), &["action"]),
        branch("cancel", json!({"reason": bounded(ASK_LIMITS.cancel_reason_max_length)}), &["action"]),
    ]
}

fn simple_card_button() -> Value {
    let response = json!({"oneOf": envelope(&json!({}), &[]), "title": "AskResponse"});
    with(
        strict(
            json!({
                "id": id(),
                "label": bounded(ASK_LIMITS.simple_card.button_label_max_length),
                "response": response,
                "style": {"type": "string", "enum": SIMPLE_CARD_BUTTON_STYLES},
            }),
            &["id", "label", "response", "style"],
        ),
        json!({"title": "SimpleCardButton"}),
    )
}

fn simple_card() -> Value {
    let card = &ASK_LIMITS.simple_card;
    with(
        strict(
            json!({
                "buttons": {"maxItems": card.buttons_max, "type": "array", "items": simple_card_button()},
                "handoff": {"type": "boolean"},
                "kind": {"type": "string", "enum": kinds()},
                "text": bounded(card.text_max_length),
                "title": bounded(card.title_max_length),
                "toolCallId": id(),
            }),
            &["buttons", "handoff", "kind", "text", "toolCallId"],
        ),
        json!({
            "description": "The small-screen form of an ask: short text and at most three buttons, each carrying the exact answer it sends. Button ids are unique within a card, which JSON Schema cannot express.",
            "title": "SimpleCard",
        }),
    )
}

pub(super) fn document(title: &str, description: &str, body: Value) -> Value {
    with(json!({"$schema": DRAFT_07, "description": description, "title": title}), body)
}

fn simple_card_document() -> Value {
    let card = simple_card();
    let description = card["description"].as_str().unwrap_or_default().to_string();
    document("SimpleCard", &description, card)
}

fn turn_request_document() -> Value {
    let surfaces: Vec<&str> = AskSurface::ALL.iter().map(|surface| surface.as_str()).collect();
    let properties = json!({
        "askResponse": {
            "description": "A full answer to the pending ask, as a client that renders the ask sends it.",
            "oneOf": envelope(&json!({"toolCallId": tool_call_id()}), &["toolCallId"]),
            "title": "AskAnswer",
        },
        "buttonId": {"description": "The id of the simple card button the user pressed. Send it with toolCallId.", "type": "string", "minLength": 1},
        "prompt": {"description": "A new message from the user. It cancels the pending ask, if there is one.", "type": "string", "minLength": 1},
        "surface": {
            "type": "string",
            "enum": surfaces,
            "description": "Where the user answers. \"compact\" is a watch or another small screen: the agent asks only questions whose buttons show every option, and keeps replies to two short sentences. Defaults to \"full\".",
        },
        "toolCallId": tool_call_id(),
    });
    document(
        "TurnRequest",
        "The request body of POST /gpt/histories/{id}/turn. Send exactly one of prompt, askResponse, or toolCallId with buttonId, plus an optional surface. JSON Schema cannot express that rule; the server enforces it.",
        json!({"type": "object", "properties": properties, "additionalProperties": false}),
    )
}

fn conversation_title() -> Value {
    json!({"description": "The conversation's title, once it has one.", "type": "string"})
}

fn response_document(title: &str, description: &str, data: Value) -> Value {
    document(
        title,
        description,
        strict(json!({"data": data, "requestId": {"description": REQUEST_ID, "type": "string"}}), &["data"]),
    )
}

fn turn_response_document() -> Value {
    let pending = with(
        strict(
            json!({"kind": {"type": "string", "enum": kinds()}, "simple": simple_card(), "toolCallId": id()}),
            &["kind", "simple", "toolCallId"],
        ),
        json!({
            "description": "The ask the turn paused on. Answer it with its toolCallId and the id of one of simple.buttons.",
            "title": "PendingAskSummary",
        }),
    );
    let result = with(
        strict(
            json!({
                "error": {"description": "Set when the turn failed after it started. text holds what the agent said before the error.", "type": "string"},
                "historyId": {"type": "string", "minLength": 1, "description": "The conversation's id."},
                "pendingAsk": pending,
                "text": {"type": "string", "description": "The agent's reply, or an empty string when it only asked."},
                "title": conversation_title(),
            }),
            &["historyId", "text"],
        ),
        json!({"title": "TurnResult"}),
    );
    response_document(
        "TurnResponse",
        "The response body of POST /gpt/histories/{id}/turn, sent once the turn finishes.",
        result,
    )
}

/// A real calendar date as `YYYY-MM-DD` (leap years included), unanchored.
pub(super) const CALENDAR_DATE_PATTERN: &str = r"(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))";

/// An ISO 8601 UTC timestamp with seconds (a real calendar date), as `created` is sent.
fn utc_timestamp_pattern() -> String {
    format!(r"^{CALENDAR_DATE_PATTERN}T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$")
}

fn pending_asks_response_document() -> Value {
    let item = with(
        strict(
            json!({
                "created": {"type": "string", "format": "date-time", "pattern": utc_timestamp_pattern(), "description": "When the agent asked, as an ISO 8601 UTC timestamp."},
                "historyId": {"type": "string", "minLength": 1, "description": "The conversation the ask belongs to."},
                "kind": {"type": "string", "enum": kinds()},
                "simple": simple_card(),
                "title": conversation_title(),
                "toolCallId": id(),
            }),
            &["created", "historyId", "kind", "simple", "toolCallId"],
        ),
        json!({"title": "PendingAsk"}),
    );
    response_document(
        "PendingAsksResponse",
        "The response body of GET /gpt/histories/pendingAsks: the caller's pending asks, newest first.",
        json!({"type": "array", "items": item}),
    )
}

/// One question's answer in a `QuestionsAnswer`: the ids of the answers picked (each an
/// `answer_id`, at most `max_picked`) and the user's own answer.
pub(super) fn question_answer(answer_id: Value, max_picked: usize) -> Value {
    strict(
        json!({
            "custom": bounded(ASK_LIMITS.questions.custom_max_length),
            "picked": {"type": "array", "items": answer_id, "maxItems": max_picked},
        }),
        &["picked"],
    )
}

/// Palaver's question sets: the ask as stored and sent (with the ids Palaver minted) and the
/// content of an answer to it.
fn question_set_document() -> Value {
    let q = &ASK_LIMITS.questions;
    let minted = |prefix: &str, what: &str| json!({"type": "string", "pattern": format!("^{prefix}[1-9][0-9]*$"), "description": format!("Minted by Palaver: {what}.")});
    let answer = strict(
        json!({
            "description": bounded(q.answer_description_max_length),
            "id": minted("a", "a1, a2, … within the question"),
            "label": bounded(q.answer_label_max_length),
        }),
        &["id", "label"],
    );
    let question = strict(
        json!({
            "allowCustom": {"type": "boolean", "description": "The user may add an answer of their own beside the answers."},
            "answers": {"type": "array", "minItems": q.answers_min, "maxItems": q.answers_max, "items": answer},
            "id": minted("q", "q1, q2, … in the set"),
            "multi": {"type": "boolean", "description": "More than one answer may be picked."},
            "title": bounded(q.question_title_max_length),
        }),
        &["answers", "id", "title"],
    );
    let set = with(
        strict(
            json!({
                "allowDecline": {"type": "boolean"},
                "locale": {"type": "string", "minLength": 2, "maxLength": ASK_LIMITS.locale_max_length, "description": "A BCP 47 language tag."},
                "prompt": bounded(ASK_LIMITS.prompt_max_length),
                "questions": {"type": "array", "minItems": q.questions_min, "maxItems": q.questions_max, "items": question},
                "title": bounded(ASK_LIMITS.title_max_length),
            }),
            &["prompt", "questions"],
        ),
        json!({"title": "QuestionSet"}),
    );
    let picked = question_answer(json!({"type": "string", "minLength": 1}), q.answers_max);
    let answer_content = with(
        strict(
            json!({"answers": {"type": "object", "propertyNames": {"pattern": "^q[1-9][0-9]*$"}, "additionalProperties": picked}}),
            &["answers"],
        ),
        json!({
            "title": "QuestionsAnswer",
            "description": "The content of an accept answer: every question's id with the ids of the answers picked, and the user's own answer where the question allows one. A single-pick question takes exactly one of the two.",
        }),
    );
    document(
        "QuestionSet",
        "Palaver's question-set ask (kind \"questions\") as pendingAsk.input carries it, and the content of an answer to it.",
        json!({"definitions": {"QuestionSet": set, "QuestionsAnswer": answer_content}, "$ref": "#/definitions/QuestionSet"}),
    )
}

/// The published documents keyed by file name (`askJsonSchemas`).
pub fn ask_json_schemas() -> Vec<(&'static str, Value)> {
    vec![
        ("simpleCard.schema.json", simple_card_document()),
        ("turnRequest.schema.json", turn_request_document()),
        ("turnResponse.schema.json", turn_response_document()),
        ("pendingAsksResponse.schema.json", pending_asks_response_document()),
        ("questionSet.schema.json", question_set_document()),
    ]
}
