//! The turn bodies: what the two turn routes (`POST /gpt/prompt` and
//! `POST /gpt/histories/{id}/turn`) read the same way (the surface and an answer to the pending
//! ask), and the headless route's whole body. Each route words its own errors, as the spec has
//! them.

use serde_json::{Map, Value, json};

use crate::asks::AskSurface;

/// The turn's surface: `full` when absent or null; `None` for anything but a known name.
pub fn surface(value: Option<&Value>) -> Option<AskSurface> {
    match value {
        None | Some(Value::Null) => Some(AskSurface::Full),
        Some(Value::String(name)) => AskSurface::parse(name),
        Some(_) => None,
    }
}

/// Why an `askResponse` cannot be an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerProblem {
    NotAnObject,
    NoToolCallId,
}

/// An `askResponse`: the pending ask's tool call id, and the answer envelope without it.
pub fn ask_answer(value: &Value) -> Result<(String, Value), AnswerProblem> {
    let Value::Object(object) = value else { return Err(AnswerProblem::NotAnObject) };
    let tool_call_id = match object.get("toolCallId") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        _ => return Err(AnswerProblem::NoToolCallId),
    };
    let mut envelope = object.clone();
    envelope.remove("toolCallId");
    Ok((tool_call_id, Value::Object(envelope)))
}

/// The headless turn body: exactly one of `prompt`, `askResponse`, or `toolCallId` with `buttonId`.
pub enum HeadlessTurn {
    Prompt(String),
    Answer { tool_call_id: String, response: Value },
    Button { tool_call_id: String, button_id: String },
}

const SHAPES: &str = "prompt, askResponse, or toolCallId with buttonId";

/// Reads the headless turn body; its field errors (field → message) when it is not one.
pub fn parse_headless_turn(body: &[u8]) -> Result<(HeadlessTurn, AskSurface), Map<String, Value>> {
    let object: Map<String, Value> = match serde_json::from_slice(body) {
        Ok(Value::Object(object)) => object,
        _ => return Err(Map::from_iter([("body".into(), json!("Send a JSON object."))])),
    };
    let mut fields = Map::new();
    for key in object.keys() {
        if !["prompt", "askResponse", "toolCallId", "buttonId", "surface"].contains(&key.as_str()) {
            fields.insert(key.clone(), json!(format!("\"{key}\" is not a field of the turn body.")));
        }
    }
    let text = |key: &str, fields: &mut Map<String, Value>| match object.get(key) {
        None => None,
        Some(Value::String(value)) if !value.is_empty() => Some(value.clone()),
        Some(_) => {
            fields.insert(key.into(), json!(format!("{key} must be a non-empty string.")));
            None
        }
    };
    let prompt = text("prompt", &mut fields);
    let tool_call_id = text("toolCallId", &mut fields);
    let button_id = text("buttonId", &mut fields);
    let surface = surface(object.get("surface")).unwrap_or_else(|| {
        fields.insert("surface".into(), json!("Invalid option: expected one of \"full\"|\"compact\""));
        AskSurface::Full
    });
    let answer = match object.get("askResponse").map(ask_answer) {
        None => None,
        Some(Ok(answer)) => Some(answer),
        Some(Err(_)) => {
            fields.insert("askResponse".into(), json!("askResponse must be an answer envelope with a toolCallId."));
            None
        }
    };
    let sent: Vec<&str> = [
        ("prompt", object.contains_key("prompt")),
        ("askResponse", object.contains_key("askResponse")),
        ("toolCallId", object.contains_key("toolCallId") || object.contains_key("buttonId")),
    ]
    .into_iter()
    .filter_map(|(key, sent)| sent.then_some(key))
    .collect();
    match sent.len() {
        0 => {
            fields.insert("prompt".into(), json!(format!("Send one of {SHAPES}.")));
        }
        1 => {
            if object.contains_key("buttonId") && !object.contains_key("toolCallId") {
                fields.insert("toolCallId".into(), json!("Send toolCallId with buttonId."));
            }
            if object.contains_key("toolCallId") && !object.contains_key("buttonId") {
                fields.insert("buttonId".into(), json!("Send buttonId with toolCallId."));
            }
        }
        _ => {
            for key in
                ["prompt", "askResponse", "toolCallId", "buttonId"].into_iter().filter(|key| object.contains_key(*key))
            {
                fields.insert(key.into(), json!(format!("Send only one of {SHAPES}.")));
            }
        }
    }
    if !fields.is_empty() {
        return Err(fields);
    }
    let body = match (prompt, answer, tool_call_id, button_id) {
        (Some(prompt), None, None, None) => HeadlessTurn::Prompt(prompt),
        (None, Some((tool_call_id, response)), None, None) => HeadlessTurn::Answer { tool_call_id, response },
        (None, None, Some(tool_call_id), Some(button_id)) => HeadlessTurn::Button { tool_call_id, button_id },
        _ => {
            return Err(Map::from_iter([("prompt".into(), json!(format!("Send one of {SHAPES}.")))]));
        }
    };
    Ok((body, surface))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn surfaces_and_answers() {
        assert_eq!(surface(None), Some(AskSurface::Full));
        assert_eq!(surface(Some(&json!(null))), Some(AskSurface::Full));
        assert_eq!(surface(Some(&json!("compact"))), Some(AskSurface::Compact));
        assert_eq!(surface(Some(&json!("watch"))), None);
        assert_eq!(surface(Some(&json!(1))), None);
        let answer = json!({"toolCallId": "call_1", "action": "decline"});
        assert_eq!(ask_answer(&answer), Ok(("call_1".into(), json!({"action": "decline"}))));
        assert_eq!(ask_answer(&json!([])), Err(AnswerProblem::NotAnObject));
        assert_eq!(ask_answer(&json!({"toolCallId": "", "action": "decline"})), Err(AnswerProblem::NoToolCallId));
    }
}
