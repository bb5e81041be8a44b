//! What the model is told of an answer. Most answers go as they came; a question set's answer
//! goes as the labels the user picked, each with its question, so the model reads what was
//! chosen rather than ids it never wrote.

use serde_json::{Value, json};

use super::input::AskKind;
use super::question_set::minted_id;

/// The result the model receives for `response` to an ask of `kind` whose input is `input`
/// (as the model wrote it or as stored: the ids are positional either way).
pub fn told_answer(kind: AskKind, input: &Value, response: &Value) -> Value {
    if kind != AskKind::Questions || response["action"] != "accept" {
        return response.clone();
    }
    let answers = &response["content"]["answers"];
    let lines: Vec<String> = input["questions"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(index, question)| {
            let answer = &answers[minted_id('q', index)];
            let offered = question["answers"].as_array().map(Vec::as_slice).unwrap_or_default();
            let mut chosen: Vec<String> = answer["picked"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter_map(|id| {
                    let index = (0..offered.len()).find(|index| minted_id('a', *index) == id)?;
                    offered[index]["label"].as_str().map(str::to_string)
                })
                .collect();
            if let Some(custom) = answer["custom"].as_str() {
                chosen.push(format!("their own answer \"{custom}\""));
            }
            format!("{} — {}", question["title"].as_str().unwrap_or_default(), chosen.join(", "))
        })
        .collect();
    json!({"action": "accept", "content": {"answers": lines}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_question_set_is_told_as_labels_with_their_questions() {
        let input = json!({"prompt": "Logo", "questions": [
            {"title": "Which shade?", "answers": [{"label": "#b49c54"}, {"label": "#000000"}]},
            {"title": "Which sizes?", "multi": true, "allowCustom": true, "answers": [{"label": "Small"}, {"label": "Large"}]},
        ]});
        let response = json!({"action": "accept", "content": {"answers": {
            "q1": {"picked": ["a1"]},
            "q2": {"picked": ["a2", "a1"], "custom": "XL"},
        }}});
        assert_eq!(
            told_answer(AskKind::Questions, &input, &response),
            json!({"action": "accept", "content": {"answers": [
                "Which shade? — #b49c54",
                "Which sizes? — Large, Small, their own answer \"XL\"",
            ]}})
        );
        let decline = json!({"action": "decline"});
        assert_eq!(told_answer(AskKind::Questions, &input, &decline), decline);
        let choice = json!({"action": "accept", "content": {"selected": ["a"]}});
        assert_eq!(told_answer(AskKind::Choice, &json!({}), &choice), choice);
    }
}
