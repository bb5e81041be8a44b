//! What the two turn routes (`POST /gpt/prompt` and `POST /gpt/histories/{id}/turn`) read the
//! same way: the surface and an answer to the pending ask. Each route words its own errors, as
//! the spec has them.

use serde_json::Value;

use palaver_contract::asks::AskSurface;

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
