//! What a person reads for a problem with their answer: a sentence about the field by its
//! label ("Seats can be at most 500."), in the card's words. The contract's codes and paths
//! stay on the wire for programs; the card words the problem from the ask's own definition
//! (bounds, types) and the draft, never from the contract's English message.

use palaver_contract::asks::{ASK_LIMITS, Ask, FormField, FormFieldType, Question};
use palaver_contract::path::Path;
use palaver_contract::text::js_number;
use serde_json::Value;

use super::{Arg, Words};

/// One problem with an answer, as a card shows it. `draft` is the answer the card holds
/// (`{action, content}`), `path` and `code` the contract's (`content.values.seats`,
/// `OUT_OF_RANGE`).
pub fn answer_problem(ask: &Ask, draft: &Value, path: &str, code: &str, words: &Words) -> String {
    match ask {
        Ask::Form(input) => match input.fields.iter().find(|field| is_under(path, &field_path(&field.id))) {
            Some(field) => field_problem(field, &draft["content"]["values"][&field.id], code, words),
            None => misfit(&words.get("question"), words),
        },
        Ask::Questions(input) => match input.questions.iter().find(|q| is_under(path, &question_path(&q.id))) {
            Some(question) => question_problem(question, path, code, words),
            None => misfit(&words.get("question"), words),
        },
        Ask::Choice(input) => {
            let label = input.title.clone().unwrap_or_else(|| words.get("question"));
            match code {
                "SELECTION_COUNT" => {
                    let bounds = input.selection_bounds();
                    let picked = draft["content"]["selected"].as_array().map_or(0, Vec::len)
                        + usize::from(draft["content"]["other"].is_string());
                    pick_count(bounds.min, bounds.max, picked, words)
                }
                "TOO_LONG" if path.ends_with("other") => {
                    too_long(&words.get("your-own-answer"), ASK_LIMITS.choice.other_max_length, words)
                }
                "TOO_SHORT" if path.ends_with("other") => needed(&words.get("your-own-answer"), words),
                _ => misfit(&label, words),
            }
        }
        Ask::Markdown(input) => {
            let label = words.get("draft");
            let bounds = input.length_bounds();
            match code {
                "TOO_LONG" => too_long(&label, usize::try_from(bounds.max).unwrap_or(usize::MAX), words),
                "TOO_SHORT" if bounds.min > 0 => {
                    too_short(&label, usize::try_from(bounds.min).unwrap_or(usize::MAX), words)
                }
                "TOO_SHORT" => needed(&label, words),
                _ => misfit(&label, words),
            }
        }
        Ask::Files(input) => {
            let name = file_field(draft, path, "filename").unwrap_or_else(|| words.get("files"));
            match code {
                "FILE_COUNT" => {
                    let bounds = input.count_bounds();
                    if bounds.min == bounds.max {
                        words.with("pick-files", &[("count", Arg::from(bounds.min))])
                    } else {
                        words
                            .with("pick-files-range", &[("min", Arg::from(bounds.min)), ("max", Arg::from(bounds.max))])
                    }
                }
                "FILE_TOO_LARGE" => words.with_text("answer-file-too-large", "name", name),
                "FILE_TYPE_NOT_ACCEPTED" => words.with_text("answer-file-type", "name", name),
                "MIME_MISMATCH" => {
                    let declared = file_field(draft, path, "mimeType").unwrap_or_default();
                    words.with("answer-file-contents", &[("name", Arg::from(name)), ("type", Arg::from(declared))])
                }
                _ => misfit(&name, words),
            }
        }
        Ask::Confirm(input) => misfit(input.title.as_deref().unwrap_or(&words.get("question")), words),
    }
}

fn field_path(id: &str) -> String {
    Path::root().key("content").key("values").name(id).text()
}

fn question_path(id: &str) -> String {
    Path::root().key("content").key("answers").name(id).text()
}

/// Whether `path` is `prefix` itself or inside it (`content.values.tags[1]`).
fn is_under(path: &str, prefix: &str) -> bool {
    path.strip_prefix(prefix).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

fn field_problem(field: &FormField, value: &Value, code: &str, words: &Words) -> String {
    let label = field.label.as_str();
    match code {
        "REQUIRED_FIELD" | "MISSING_REQUIRED" => needed(label, words),
        "OUT_OF_RANGE" => {
            let below = value.as_f64().zip(field.min).is_some_and(|(value, min)| value < min);
            match (field.min, field.max) {
                (Some(min), _) if below || field.max.is_none() => bound(label, "answer-at-least", "min", min, words),
                (_, Some(max)) => bound(label, "answer-at-most", "max", max, words),
                _ => misfit(label, words),
            }
        }
        "FIELD_TYPE_MISMATCH" => {
            let id = match field.field_type {
                FormFieldType::Number if field.integer == Some(true) && value.is_number() => "answer-whole",
                FormFieldType::Number => "answer-number",
                FormFieldType::Email => "answer-email",
                FormFieldType::Url => "answer-url",
                FormFieldType::Phone => "answer-phone",
                _ => return misfit(label, words),
            };
            words.with_text(id, "label", label)
        }
        "INVALID_DATE" => {
            let id = match field.field_type {
                FormFieldType::Time => "answer-time",
                FormFieldType::Datetime => "answer-datetime",
                _ => "answer-date",
            };
            words.with_text(id, "label", label)
        }
        "TOO_LONG" => too_long(label, field.text_max_length(), words),
        "TOO_SHORT" => match field.min_length.and_then(|min| usize::try_from(min).ok()).filter(|min| *min > 1) {
            Some(min) => too_short(label, min, words),
            None => needed(label, words),
        },
        "INVALID_FORMAT" => match &field.helper_text {
            Some(helper) => words
                .with("answer-pattern-helped", &[("label", Arg::from(label)), ("helper", Arg::from(helper.as_str()))]),
            None => words.with_text("answer-pattern", "label", label),
        },
        "OPTION_NOT_OFFERED" | "INVALID_ENUM" => words.with_text("answer-option", "label", label),
        _ => misfit(label, words),
    }
}

fn question_problem(question: &Question, path: &str, code: &str, words: &Words) -> String {
    let label = question.title.as_str();
    match code {
        "MISSING_REQUIRED" => needed(label, words),
        "SELECTION_COUNT" if question.is_multi() => words.with_text("answer-at-least-one", "label", label),
        "SELECTION_COUNT" => words.with_text("answer-just-one", "label", label),
        "TOO_LONG" if path.ends_with("custom") => too_long(label, ASK_LIMITS.questions.custom_max_length, words),
        "TOO_SHORT" => needed(label, words),
        _ => misfit(label, words),
    }
}

/// A field (`filename`, `mimeType`) of the file a `content.files[i]…` path is about, from the
/// draft.
fn file_field(draft: &Value, path: &str, key: &str) -> Option<String> {
    let index: usize = path.strip_prefix("content.files[")?.split(']').next()?.parse().ok()?;
    draft["content"]["files"][index][key].as_str().map(str::to_string)
}

fn needed(label: &str, words: &Words) -> String {
    words.with_text("answer-needed", "label", label)
}

fn misfit(label: &str, words: &Words) -> String {
    words.with_text("answer-misfit", "label", label)
}

fn bound(label: &str, id: &str, name: &'static str, limit: f64, words: &Words) -> String {
    words.with(id, &[("label", Arg::from(label)), (name, Arg::from(js_number(limit)))])
}

fn too_long(label: &str, max: usize, words: &Words) -> String {
    words.with("answer-too-long", &[("label", Arg::from(label)), ("count", Arg::from(max))])
}

fn too_short(label: &str, min: usize, words: &Words) -> String {
    words.with("answer-too-short", &[("label", Arg::from(label)), ("count", Arg::from(min))])
}

fn pick_count(min: i64, max: i64, picked: usize, words: &Words) -> String {
    let picked = i64::try_from(picked).unwrap_or(i64::MAX);
    if min == max {
        words.with("answer-pick-exactly", &[("count", Arg::from(max))])
    } else if picked > max {
        words.with("answer-pick-at-most", &[("count", Arg::from(max))])
    } else {
        words.with("answer-pick-at-least", &[("count", Arg::from(min))])
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn ask(kind: &str, input: Value) -> Ask {
        serde_json::from_value(json!({"kind": kind, "input": input})).expect("an ask")
    }

    fn form() -> Ask {
        ask(
            "form",
            json!({"prompt": "Invoice", "fields": [
                {"id": "seats", "type": "number", "label": "Seats", "min": 1, "max": 500, "integer": true},
                {"id": "mail", "type": "email", "label": "Billing email", "required": true},
                {"id": "at", "type": "time", "label": "Time"},
                {"id": "note", "type": "text", "label": "Note", "maxLength": 20}
            ]}),
        )
    }

    fn values(values: Value) -> Value {
        json!({"action": "accept", "content": {"values": values}})
    }

    fn english(ask: &Ask, draft: &Value, path: &str, code: &str) -> String {
        answer_problem(ask, draft, path, code, &Words::default())
    }

    #[test]
    fn a_form_field_is_named_by_its_label_with_its_own_bounds() {
        let form = form();
        let seats = |n: f64| values(json!({"seats": n}));
        assert_eq!(english(&form, &seats(9999.0), "content.values.seats", "OUT_OF_RANGE"), "Seats can be at most 500.");
        assert_eq!(english(&form, &seats(0.0), "content.values.seats", "OUT_OF_RANGE"), "Seats must be at least 1.");
        assert_eq!(
            english(&form, &seats(2.5), "content.values.seats", "FIELD_TYPE_MISMATCH"),
            "Seats takes whole numbers only."
        );
        assert_eq!(
            english(&form, &values(json!({})), "content.values.mail", "REQUIRED_FIELD"),
            "Billing email is needed."
        );
        assert_eq!(
            english(&form, &values(json!({"mail": "ada"})), "content.values.mail", "FIELD_TYPE_MISMATCH"),
            "Billing email needs an email address, such as ada@example.com."
        );
        assert_eq!(
            english(&form, &values(json!({"at": "25:00"})), "content.values.at", "INVALID_DATE"),
            "Time needs a time between 00:00 and 23:59, such as 09:30."
        );
        assert_eq!(
            english(&form, &values(json!({"note": "x"})), "content.values.note", "TOO_LONG"),
            "Note can be at most 20 characters."
        );
        assert_eq!(
            english(&form, &values(json!({})), "content.values.gone", "UNKNOWN_KEY"),
            "Question: this answer does not fit."
        );
    }

    #[test]
    fn choices_questions_drafts_and_files_have_their_own_sentences() {
        let many = ask(
            "choice",
            json!({"prompt": "Toppings?", "select": "many", "maxSelected": 2,
            "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}]}),
        );
        let three = json!({"action": "accept", "content": {"selected": ["a", "b", "c"]}});
        assert_eq!(english(&many, &three, "content.selected", "SELECTION_COUNT"), "Pick at most 2.");

        let set = ask(
            "questions",
            json!({"prompt": "Quick ones", "questions": [
            {"id": "q1", "title": "Which day?", "answers": [{"id": "a1", "label": "Monday"}]}]}),
        );
        let none = json!({"action": "accept", "content": {"answers": {}}});
        assert_eq!(english(&set, &none, "content.answers.q1", "MISSING_REQUIRED"), "Which day? is needed.");

        let draft = ask("markdown", json!({"prompt": "Edit", "initial": "x", "maxLength": 10}));
        let long = json!({"action": "accept", "content": {"markdown": "x".repeat(11), "changed": true}});
        assert_eq!(english(&draft, &long, "content.markdown", "TOO_LONG"), "Draft can be at most 10 characters.");

        let files = ask("files", json!({"prompt": "Receipts", "accept": ["image"]}));
        let pdf = json!({"action": "accept", "content": {"files": [
            {"fileId": "f1", "filename": "tax.pdf", "mimeType": "application/pdf", "size": 3}]}});
        assert_eq!(
            english(&files, &pdf, "content.files[0].mimeType", "FILE_TYPE_NOT_ACCEPTED"),
            "tax.pdf is not a type this question accepts."
        );
    }

    #[test]
    fn a_card_in_german_words_the_problem_in_german() {
        let german = Words::for_tag("de").expect("a German catalog");
        let draft = values(json!({"seats": 9999}));
        assert_eq!(
            answer_problem(&form(), &draft, "content.values.seats", "OUT_OF_RANGE", &german),
            "Seats darf höchstens 500 sein."
        );
    }
}
