//! The one-line summary of an ask that is no longer pending, as the transcript shows it, in
//! the card's words (see `crate::words`).

use serde_json::Value;

use crate::conversation::model::AskStatus;
use crate::words::{Arg, Words};
use palaver_contract::asks::{AskKind, option_labels};
use palaver_contract::text::utf16_len;

/// `1240` → `1,240`, with the catalog's digit-group separator.
fn format_count(count: usize, words: &Words) -> String {
    let separator = words.get("digit-group");
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push_str(&separator);
        }
        out.push(digit);
    }
    out
}

/// A message whose `$count` picks the plural form and whose `$shown` is the count as written.
fn counted(words: &Words, id: &str, count: usize, extra: &[(&'static str, Arg)]) -> String {
    let mut args = vec![("count", Arg::from(count)), ("shown", Arg::from(format_count(count, words)))];
    args.extend(extra.iter().cloned());
    words.with(id, &args)
}

/// The labels a question set's answer picked, question by question: `Which shade? #b49c54`.
fn question_answers(input: &Value, content: &Value, words: &Words) -> Vec<String> {
    let questions = input["questions"].as_array().map(Vec::as_slice).unwrap_or_default();
    questions
        .iter()
        .filter_map(|question| {
            let answer = &content["answers"][question["id"].as_str()?];
            let chosen = option_labels(
                &serde_json::json!({"options": question["answers"]}),
                answer["picked"].as_array().map(Vec::as_slice).unwrap_or_default(),
            );
            let mut chosen: Vec<String> = chosen.iter().map(|label| words.isolate(label)).collect();
            if let Some(custom) = answer["custom"].as_str() {
                chosen.push(words.with_text("own-answer", "text", custom));
            }
            let title = question["title"].as_str()?;
            let args = [("question", Arg::from(title)), ("answers", chosen.join(", ").into())];
            Some(words.with("question-answered", &args))
        })
        .collect()
}

fn accepted(kind: AskKind, input: &Value, content: &Value, words: &Words) -> String {
    let answered = || words.get("you-answered");
    match kind {
        AskKind::Choice => {
            let labels = option_labels(input, content["selected"].as_array().map(Vec::as_slice).unwrap_or_default());
            let mut parts = Vec::new();
            if !labels.is_empty() {
                let labels: Vec<String> = labels.iter().map(|label| words.isolate(label)).collect();
                parts.push(words.with_text("you-chose", "choices", labels.join(", ")));
            }
            if let Some(other) = content["other"].as_str().filter(|other| !other.is_empty()) {
                let label = input["otherLabel"].as_str().map_or_else(|| words.get("other"), str::to_string);
                parts.push(format!("{label}: {other}"));
            }
            match (parts.is_empty(), content["selected"].is_array()) {
                (false, _) => parts.join(". "),
                (true, true) => words.get("you-chose-none"),
                (true, false) => answered(),
            }
        }
        AskKind::Confirm => match content["confirmed"].as_bool() {
            Some(true) => {
                let label = input["confirmLabel"].as_str().map_or_else(|| words.get("confirm"), str::to_string);
                words.with_text("you-confirmed", "label", label)
            }
            Some(false) => {
                let label = input["denyLabel"].as_str().map_or_else(|| words.get("cancel"), str::to_string);
                words.with_text("you-declined", "label", label)
            }
            None => answered(),
        },
        AskKind::Markdown => match content["markdown"].as_str() {
            None => answered(),
            Some(_) if content["changed"] == false => words.get("draft-as-is"),
            Some(text) => counted(words, "draft-edited", utf16_len(text), &[]),
        },
        AskKind::Form => match content["values"].as_object() {
            Some(values) => counted(words, "form-sent", values.len(), &[]),
            None => answered(),
        },
        AskKind::Files => match content["files"].as_array() {
            Some(files) => {
                let names: Vec<&str> = files.iter().map(|file| file["filename"].as_str().unwrap_or("file")).collect();
                counted(words, "files-sent", files.len(), &[("names", Arg::from(names.join(", ")))])
            }
            None => answered(),
        },
        AskKind::Questions => {
            let lines = question_answers(input, content, words);
            if lines.is_empty() {
                return answered();
            }
            format!("{}: {}", counted(words, "answers-sent", lines.len(), &[]), lines.join("; "))
        }
    }
}

/// The summary line of an ask with its stored answer (`askSummary`).
pub fn ask_summary(kind: AskKind, input: &Value, status: AskStatus, response: Option<&Value>, words: &Words) -> String {
    let id = match response.map(|response| (response["action"].as_str(), response)) {
        Some((Some("accept"), response)) => return accepted(kind, input, &response["content"], words),
        Some((Some("decline"), _)) => "you-skipped",
        Some((Some("cancel"), response)) => match response["reason"].as_str() {
            Some("user_sent_message") => "not-answered-message",
            Some("one_ask_at_a_time") => "not-asked",
            Some("user_stopped") => "not-answered-stopped",
            Some("server_withdrew") => "not-answered-withdrawn",
            Some("expired") => "expired-nothing-done",
            Some("server_request_gone") => "not-answered-restart",
            _ => "cancelled",
        },
        _ => match status {
            AskStatus::Answered => "you-answered",
            AskStatus::Cancelled => "cancelled",
            AskStatus::Expired => "expired",
            AskStatus::Pending => "waiting",
        },
    };
    words.get(id)
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
        let en = Words::default();
        let s = |kind, input: &Value, response: Value| {
            ask_summary(kind, input, AskStatus::Answered, Some(&response), &Words::default())
        };
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
                Some(&json!({"action": "cancel", "reason": "expired"})),
                &en,
            ),
            "Expired: nobody answered in time, so nothing was done."
        );
        assert_eq!(ask_summary(AskKind::Choice, &plan, AskStatus::Pending, None, &en), "Waiting for your answer.");
    }

    #[test]
    fn a_question_set_reads_as_its_questions_and_the_labels_picked() {
        let input = json!({"prompt": "Logo", "questions": [
            {"id": "q1", "title": "Which shade?", "answers": [{"id": "a1", "label": "#b49c54"}, {"id": "a2", "label": "#000"}]},
            {"id": "q2", "title": "Sizes?", "answers": [{"id": "a1", "label": "Small"}, {"id": "a2", "label": "Large"}]},
        ]});
        let answer = accept(json!({"answers": {"q1": {"picked": ["a1"]}, "q2": {"picked": ["a2"], "custom": "XL"}}}));
        assert_eq!(
            ask_summary(AskKind::Questions, &input, AskStatus::Answered, Some(&answer), &Words::default()),
            "You answered 2 questions: Which shade? #b49c54; Sizes? Large, your own: XL"
        );
        let german = Words::for_tag("de").unwrap();
        assert_eq!(
            ask_summary(
                AskKind::Markdown,
                &json!({}),
                AskStatus::Answered,
                Some(&accept(json!({"markdown": "x".repeat(1240), "changed": true}))),
                &german
            ),
            "Du hast den Entwurf bearbeitet (1.240 Zeichen)"
        );
        assert_eq!(
            ask_summary(AskKind::Choice, &input, AskStatus::Answered, Some(&json!({"action": "decline"})), &german),
            "Du hast diese Frage übersprungen."
        );
        // Right to left, each left-to-right label is isolated, so "#b49c54" keeps its "#" first.
        let arabic = Words::for_tag("ar").unwrap();
        let one = json!({"prompt": "p", "questions": [input["questions"][0]]});
        let answer = accept(json!({"answers": {"q1": {"picked": ["a1"]}}}));
        let summary = ask_summary(AskKind::Questions, &one, AskStatus::Answered, Some(&answer), &arabic);
        assert!(summary.starts_with("أجبت عن سؤال واحد"), "{summary}");
        assert!(summary.contains("\u{2068}#b49c54\u{2069}"), "{summary}");
    }
}
