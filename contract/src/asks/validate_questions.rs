//! `ask_questions` (Palaver's addition): a set of quick questions in one card, its input and
//! the answer to it. The model writes titles and labels; Palaver mints every id, so an id the
//! model writes is refused.

use serde_json::{Map, Value};

use super::check::Checker;
use super::errors::{AskError, AskErrorCode, Loc};
use super::input::AskSurface;
use super::input::ChoiceOption;
use super::limits::ASK_LIMITS;
use super::question_set::{Question, QuestionsInput, minted_id};
use super::validate_common::{repeats, shared};
use crate::text::{js_trim, utf16_len};

const SET_KEYS: &[&str] = &["prompt", "title", "locale", "allowDecline", "questions"];
const QUESTION_KEYS: &[&str] = &["title", "multi", "allowCustom", "answers"];
/// The small screen offers one single-pick question: no `multi`, no free text.
const COMPACT_QUESTION_KEYS: &[&str] = &["title", "answers"];
const ANSWER_KEYS: &[&str] = &["label", "description"];

/// An object with only `allowed` keys, where an `id` gets its own explanation.
fn object_without_ids<'v>(
    ck: &mut Checker,
    value: &'v Value,
    at: Loc<'_>,
    allowed: &[&str],
    noun: &str,
) -> Option<&'v Map<String, Value>> {
    let mut with_id: Vec<&str> = allowed.to_vec();
    with_id.push("id");
    let object = ck.object(value, at, &with_id)?;
    if object.contains_key("id") {
        ck.push(
            at.key("id"),
            AskErrorCode::UNKNOWN_KEY,
            format!("{noun} ids are not written by the model: Palaver numbers them."),
            format!("Remove \"id\" from {}.", at.path().inline()),
        );
    }
    Some(object)
}

/// Texts of a list that must differ (ignoring spaces at either end): each repeat is reported
/// at `<list>[i].<key>` as `DUPLICATE_LABEL`.
struct Repeated {
    list: &'static str,
    key: &'static str,
    noun: &'static str,
    fix: &'static str,
}

impl Repeated {
    fn report(&self, ck: &mut Checker, list_at: Loc<'_>, texts: &[&str]) {
        for (index, first) in repeats(texts.iter().map(|text| js_trim(text))) {
            ck.push(
                list_at.index(index).key(self.key),
                AskErrorCode::DUPLICATE_LABEL,
                format!("{} \"{}\" is already used by {}[{first}].", self.noun, texts[index], self.list),
                self.fix,
            );
        }
    }
}

fn answer(ck: &mut Checker, value: &Value, at: Loc<'_>, index: usize, compact: bool) -> Option<ChoiceOption> {
    let limits = &ASK_LIMITS.questions;
    let object = object_without_ids(ck, value, at, ANSWER_KEYS, "Answer")?;
    let label_max =
        if compact { ASK_LIMITS.simple_card.button_label_max_length } else { limits.answer_label_max_length };
    let label = ck.required(object, at, "label").and_then(|value| ck.visible_text(value, at.key("label"), label_max));
    if compact
        && let Some(label) = &label
        && utf16_len(label) > label_max
    {
        ck.too_long_for_button(at.key("label"), label_max);
    }
    let description = ck.optional_text(object, at, "description", limits.answer_description_max_length);
    Some(ChoiceOption { id: minted_id('a', index), label: label?, description })
}

fn question(ck: &mut Checker, value: &Value, at: Loc<'_>, index: usize, compact: bool) -> Option<Question> {
    let limits = &ASK_LIMITS.questions;
    let keys = if compact { COMPACT_QUESTION_KEYS } else { QUESTION_KEYS };
    let object = object_without_ids(ck, value, at, keys, "Question")?;
    let title = ck
        .required(object, at, "title")
        .and_then(|value| ck.visible_text(value, at.key("title"), limits.question_title_max_length));
    let multi = ck.boolean(object, at, "multi");
    let allow_custom = ck.boolean(object, at, "allowCustom");
    let (min, max) = if compact {
        (ASK_LIMITS.choice.options_min, ASK_LIMITS.simple_card.buttons_max)
    } else {
        (limits.answers_min, limits.answers_max)
    };
    let answers_at = at.key("answers");
    let answers =
        ck.required(object, at, "answers").and_then(|value| ck.list(value, answers_at, min, max)).map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| answer(ck, item, answers_at.index(index), index, compact))
                .collect::<Vec<_>>()
        });
    let question = Question { id: minted_id('q', index), title: title?, multi, allow_custom, answers: answers? };
    let labels: Vec<&str> = question.answers.iter().map(|answer| answer.label.as_str()).collect();
    let repeated = Repeated {
        list: "answers",
        key: "label",
        noun: "Answer label",
        fix: "Give every answer of a question a different label.",
    };
    repeated.report(ck, answers_at, &labels);
    Some(question)
}

pub(super) fn questions(ck: &mut Checker, value: &Value, surface: AskSurface) -> Option<QuestionsInput> {
    let compact = surface == AskSurface::Compact;
    let root = Loc::Root;
    let limits = &ASK_LIMITS.questions;
    let object = ck.object(value, root, SET_KEYS)?;
    let shared = shared(ck, object, root, false);
    let max = if compact { 1 } else { limits.questions_max };
    let questions_at = root.key("questions");
    let questions = ck
        .required(object, root, "questions")
        .and_then(|value| ck.list(value, questions_at, limits.questions_min, max))
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| question(ck, item, questions_at.index(index), index, compact))
                .collect::<Vec<_>>()
        });
    if ck.aborted {
        return None;
    }
    let input = QuestionsInput {
        prompt: shared.prompt?,
        title: shared.title,
        locale: shared.locale,
        allow_decline: shared.allow_decline,
        questions: questions?,
    };
    let titles: Vec<&str> = input.questions.iter().map(|question| question.title.as_str()).collect();
    Repeated { list: "questions", key: "title", noun: "Question", fix: "Ask each question once." }.report(
        ck,
        questions_at,
        &titles,
    );
    Some(input)
}

/// A stored question set: the ids must be the ones Palaver mints (`q1`…, `a1`…), in order.
/// They are checked and taken off, so the set is then checked as the model's input was.
pub(super) fn unmint(stored: &Value) -> Result<Value, AskError> {
    let mut written = stored.clone();
    let mismatch = |path: crate::path::Path, expected: &str| {
        AskError::new(
            path,
            AskErrorCode::INVALID_FORMAT,
            format!("A stored question set has an id other than \"{expected}\"."),
            "Store the question set as Palaver minted it.",
        )
    };
    let root = crate::path::Path::root();
    let questions = written.get_mut("questions").and_then(Value::as_array_mut);
    for (index, question) in questions.into_iter().flatten().enumerate() {
        let at = root.key("questions").index(index);
        let expected = minted_id('q', index);
        if question.get("id").and_then(Value::as_str) != Some(expected.as_str()) {
            return Err(mismatch(at.key("id"), &expected));
        }
        if let Some(object) = question.as_object_mut() {
            object.remove("id");
        }
        let answers = question.get_mut("answers").and_then(Value::as_array_mut);
        for (index, answer) in answers.into_iter().flatten().enumerate() {
            let expected = minted_id('a', index);
            if answer.get("id").and_then(Value::as_str) != Some(expected.as_str()) {
                return Err(mismatch(at.key("answers").index(index).key("id"), &expected));
            }
            if let Some(object) = answer.as_object_mut() {
                object.remove("id");
            }
        }
    }
    Ok(written)
}

/// `{answers: {"q1": {picked: ["a2"], custom?: "…"}}}`: every question answered, a single-pick
/// question once (an answer or its own text), a multi question at least once.
pub(super) fn questions_answer(ck: &mut Checker, input: &QuestionsInput, content: &Value, at: Loc<'_>) {
    let Some(object) = ck.object(content, at, &["answers"]) else { return };
    let answers_at = at.key("answers");
    let answers = ck.required(object, at, "answers").and_then(|answers| ck.any_object(answers, answers_at));
    let Some(Value::Object(answers)) = answers.filter(|_| ck.errors.is_empty()) else {
        return;
    };
    for key in answers.keys().filter(|key| !input.questions.iter().any(|question| &question.id == *key)) {
        ck.push(
            answers_at.name(key),
            AskErrorCode::UNKNOWN_KEY,
            format!("\"{key}\" is not the id of any question in this set."),
            format!("Remove \"{key}\" from content.answers."),
        );
    }
    let limits = &ASK_LIMITS.questions;
    for question in &input.questions {
        let question_at = answers_at.name(&question.id);
        let Some(value) = answers.get(&question.id) else {
            ck.push(
                question_at,
                AskErrorCode::MISSING_REQUIRED,
                format!("\"{}\" has no answer.", question.title),
                format!("Answer it in content.answers.{}, or decline the whole set.", question.id),
            );
            continue;
        };
        let Some([picked, custom]) = ck.fields(value, question_at, ["picked", "custom"]) else { continue };
        let picked_at = question_at.key("picked");
        let errors_before = ck.errors.len();
        let picked = ck
            .present(picked, question_at, "picked")
            .and_then(|value| ck.string_list(value, picked_at, 0, question.answers.len().max(1)));
        let custom =
            custom.and_then(|value| ck.visible_text(value, question_at.key("custom"), limits.custom_max_length));
        if ck.errors.len() > errors_before {
            continue;
        }
        let Some(picked) = picked else { continue };
        if custom.is_some() && !question.allows_custom() {
            ck.push(
                question_at.key("custom"),
                AskErrorCode::OTHER_NOT_ALLOWED,
                format!("\"{}\" takes only its answers, not one of the user's own.", question.title),
                format!("Remove content.answers.{}.custom and pick from its answers.", question.id),
            );
        }
        let count = picked.len() + usize::from(custom.is_some());
        let fits = if question.is_multi() { count >= 1 } else { count == 1 };
        if !fits {
            let (wanted, fix) = if question.is_multi() {
                ("at least one answer", "Pick one or more of its answers")
            } else {
                ("exactly one answer", "Pick one of its answers")
            };
            let own = if question.allows_custom() { ", or write one of your own" } else { "" };
            ck.push(
                picked_at,
                AskErrorCode::SELECTION_COUNT,
                format!("\"{}\" takes {wanted}; the answer gives {count}.", question.title),
                format!("{fix} in content.answers.{}.picked{own}.", question.id),
            );
        }
        for (index, id) in picked.iter().filter_map(Value::as_str).enumerate() {
            if let Some(first) = picked[..index].iter().position(|earlier| earlier.as_str() == Some(id)) {
                ck.push(
                    picked_at.index(index),
                    AskErrorCode::DUPLICATE_ID,
                    format!("\"{id}\" is already picked at picked[{first}]."),
                    "List each answer id once.",
                );
            } else if question.answer_label(id).is_none() {
                ck.push(
                    picked_at.index(index),
                    AskErrorCode::OPTION_NOT_OFFERED,
                    format!("{} is not one of the answers to \"{}\".", super::errors::quote_str(id), question.title),
                    "Use the id of one of the question's answers.",
                );
            }
        }
    }
}
