//! Field patterns (Palaver's addition): the regular expressions some text fields of a form ask
//! must match, beside the ask rather than in it (a form field has no `pattern` in the
//! contract). Palaver asks with them for a tool's arguments, whose schemas carry a `pattern`;
//! the card checks them before Submit, so "25:00" for an `HH:mm` time is refused at once. The
//! server checks the argument's whole schema when the answer arrives, so a pattern this engine
//! cannot read (look-around, back-references) is still checked there.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::errors::{AskError, AskErrorCode, Path, quote_str};
use super::form_values::is_blank;

/// A pattern one field's value must match (JSON Schema's `pattern`: found anywhere in the
/// value unless anchored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldPattern {
    /// The form field's id.
    pub field: String,
    pub pattern: String,
}

/// The values of an accepted form answer that do not match their field's pattern, as
/// `INVALID_FORMAT` errors at `content.values.<field>`. A blank value is the contract's to
/// judge (required or not); a pattern that does not compile here is skipped.
pub fn check_field_patterns(patterns: &[FieldPattern], response: &Value) -> Vec<AskError> {
    let values = &response["content"]["values"];
    patterns
        .iter()
        .filter_map(|FieldPattern { field, pattern }| {
            let text = values.get(field).filter(|value| !is_blank(value))?.as_str()?;
            let matches = regex_lite::Regex::new(pattern).ok()?.is_match(text);
            (!matches).then(|| {
                let path = Path::root().key("content").key("values").name(field);
                let shown = path.text();
                AskError::new(
                    path,
                    AskErrorCode::INVALID_FORMAT,
                    format!("{shown} {} does not match the pattern {}.", quote_str(text), quote_str(pattern)),
                    format!("Write {shown} so that it matches {}.", quote_str(pattern)),
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn time_pattern() -> Vec<FieldPattern> {
        vec![FieldPattern { field: "f1".into(), pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$".into() }]
    }

    fn answer(values: Value) -> Value {
        json!({"action": "accept", "content": {"values": values}})
    }

    #[test]
    fn a_value_that_does_not_match_is_an_invalid_format_at_its_field() {
        for unfit in ["25:00", "9am", "09:30 tomorrow"] {
            let errors = check_field_patterns(&time_pattern(), &answer(json!({"f1": unfit})));
            assert_eq!(errors.len(), 1, "{unfit}");
            assert_eq!(errors[0].code, AskErrorCode::INVALID_FORMAT);
            assert_eq!(errors[0].path.text(), "content.values.f1");
        }
        assert!(check_field_patterns(&time_pattern(), &answer(json!({"f1": "09:30"}))).is_empty());
    }

    #[test]
    fn blank_values_and_patterns_this_engine_cannot_read_are_left_to_others() {
        assert!(check_field_patterns(&time_pattern(), &answer(json!({"f1": " "}))).is_empty());
        assert!(check_field_patterns(&time_pattern(), &answer(json!({}))).is_empty());
        let lookahead = vec![FieldPattern { field: "f1".into(), pattern: "^(?=a)b".into() }];
        assert!(check_field_patterns(&lookahead, &answer(json!({"f1": "b"}))).is_empty());
    }
}
