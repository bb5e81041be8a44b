//! The one-line summary of an ask that is no longer pending, as the transcript shows it.

use serde_json::Value;

use crate::chat::model::AskStatus;
use palaver_contract::asks::{AskKind, option_labels};
use palaver_contract::text::utf16_len;

/// `1240` → `1,240`.
fn format_count(count: usize) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{} {}", format_count(count), if count == 1 { one } else { many })
}

const ANSWERED: &str = "You answered this question.";

fn accepted(kind: AskKind, input: &Value, content: &Value) -> String {
    match kind {
        AskKind::Choice => {
            let labels = option_labels(input, content["selected"].as_array().map(Vec::as_slice).unwrap_or_default());
            let mut parts = Vec::new();
            if !labels.is_empty() {
                parts.push(format!("You chose: {}", labels.join(", ")));
            }
            if let Some(other) = content["other"].as_str().filter(|other| !other.is_empty()) {
                parts.push(format!("{}: {other}", input["otherLabel"].as_str().unwrap_or("Other")));
            }
            match (parts.is_empty(), content["selected"].is_array()) {
                (false, _) => parts.join(". "),
                (true, true) => "You chose none of the options.".to_string(),
                (true, false) => ANSWERED.to_string(),
            }
        }
        AskKind::Confirm => match content["confirmed"].as_bool() {
            Some(true) => format!("You confirmed: {}", input["confirmLabel"].as_str().unwrap_or("Confirm")),
            Some(false) => format!("You declined: {}", input["denyLabel"].as_str().unwrap_or("Cancel")),
            None => ANSWERED.to_string(),
        },
        AskKind::Markdown => match content["markdown"].as_str() {
            None => ANSWERED.to_string(),
            Some(_) if content["changed"] == false => "You approved the draft as is".to_string(),
            Some(text) => format!("You edited the draft ({})", plural(utf16_len(text), "character", "characters")),
        },
        AskKind::Form => match content["values"].as_object() {
            Some(values) => format!("You sent the form ({})", plural(values.len(), "field", "fields")),
            None => ANSWERED.to_string(),
        },
        AskKind::Files => match content["files"].as_array() {
            Some(files) if files.is_empty() => "You sent 0 files".to_string(),
            Some(files) => {
                let names: Vec<&str> = files.iter().map(|file| file["filename"].as_str().unwrap_or("file")).collect();
                format!("You sent {}: {}", plural(files.len(), "file", "files"), names.join(", "))
            }
            None => ANSWERED.to_string(),
        },
    }
}

/// The summary line of an ask with its stored answer (`askSummary`).
pub fn ask_summary(kind: AskKind, input: &Value, status: AskStatus, response: Option<&Value>) -> String {
    match response.map(|response| (response["action"].as_str(), response)) {
        Some((Some("accept"), response)) => accepted(kind, input, &response["content"]),
        Some((Some("decline"), _)) => "You skipped this question.".to_string(),
        Some((Some("cancel"), response)) => match response["reason"].as_str() {
            Some("user_sent_message") => "Not answered: you sent a message instead.".to_string(),
            Some("one_ask_at_a_time") => "Not asked: the assistant asked another question first.".to_string(),
            Some("user_stopped") => "Not answered: you stopped the reply.".to_string(),
            Some("server_withdrew") => "Not answered: the server withdrew its question.".to_string(),
            Some("expired") => "Expired: nobody answered in time, so nothing was done.".to_string(),
            Some("server_request_gone") => {
                "Not answered in time: Palaver restarted, and the server's question ended with it.".to_string()
            }
            _ => "This question was cancelled.".to_string(),
        },
        _ => match status {
            AskStatus::Answered => ANSWERED.to_string(),
            AskStatus::Cancelled => "This question was cancelled.".to_string(),
            AskStatus::Expired => "Expired: nobody answered in time.".to_string(),
            AskStatus::Pending => "Waiting for your answer.".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn accept(content: Value) -> Value {
        json!({"action": "accept", "content": content})
    }

    #[test]
    fn summaries_follow_the_reference_texts() {
        let plan = json!({"options": [{"id": "team", "label": "Team"}, {"id": "cheese", "label": "Cheese"}, {"id": "olives", "label": "Olives"}], "otherLabel": "Another topping"});
        let s = |kind, input: &Value, response: Value| ask_summary(kind, input, AskStatus::Answered, Some(&response));
        assert_eq!(s(AskKind::Choice, &plan, accept(json!({"selected": ["team"]}))), "You chose: Team");
        assert_eq!(s(AskKind::Choice, &plan, accept(json!({"selected": ["gold"]}))), "You chose: gold");
        assert_eq!(
            s(AskKind::Choice, &plan, accept(json!({"selected": ["cheese", "olives"], "other": "anchovies"}))),
            "You chose: Cheese, Olives. Another topping: anchovies"
        );
        assert_eq!(s(AskKind::Choice, &plan, accept(json!({"selected": []}))), "You chose none of the options.");
        assert_eq!(
            s(AskKind::Confirm, &json!({"confirmLabel": "Delete"}), accept(json!({"confirmed": true}))),
            "You confirmed: Delete"
        );
        assert_eq!(s(AskKind::Confirm, &json!({}), accept(json!({"confirmed": false}))), "You declined: Cancel");
        assert_eq!(
            s(AskKind::Markdown, &json!({}), accept(json!({"markdown": "x".repeat(1240), "changed": true}))),
            "You edited the draft (1,240 characters)"
        );
        assert_eq!(
            s(AskKind::Markdown, &json!({}), accept(json!({"markdown": "x", "changed": false}))),
            "You approved the draft as is"
        );
        assert_eq!(s(AskKind::Form, &json!({}), accept(json!({"values": {"a": 1}}))), "You sent the form (1 field)");
        assert_eq!(
            s(AskKind::Files, &json!({}), accept(json!({"files": [{"filename": "a.png"}, {}]}))),
            "You sent 2 files: a.png, file"
        );
        assert_eq!(s(AskKind::Choice, &plan, json!({"action": "decline"})), "You skipped this question.");
        assert_eq!(
            s(AskKind::Choice, &plan, json!({"action": "cancel", "reason": "user_sent_message"})),
            "Not answered: you sent a message instead."
        );
        assert_eq!(
            s(AskKind::Choice, &plan, json!({"action": "cancel", "reason": "one_ask_at_a_time"})),
            "Not asked: the assistant asked another question first."
        );
        assert_eq!(
            ask_summary(
                AskKind::Confirm,
                &plan,
                AskStatus::Expired,
                Some(&json!({"action": "cancel", "reason": "expired"}))
            ),
            "Expired: nobody answered in time, so nothing was done."
        );
        assert_eq!(ask_summary(AskKind::Choice, &plan, AskStatus::Pending, None), "Waiting for your answer.");
    }
}
