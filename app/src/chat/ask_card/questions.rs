//! The question-set card: each question with its answers (radio buttons for one pick, check
//! boxes for several) and, where the question allows it, an answer of the user's own beside
//! them. One Submit sends every answer; it is enabled once each question has one.

use leptos::prelude::*;
use serde_json::{Map, Value, json};

use super::drafts::{QuestionsDraft, use_ask_draft};
use super::{AnswerChannel, SubmitRow};
use palaver_contract::asks::{Ask, Question, QuestionsInput};
use palaver_wire::words::Words;

/// The answer the card sends: every question's picks, and its own answer when one is written.
fn answer_of(answers: &Map<String, Value>) -> Value {
    let answers: Map<String, Value> = answers
        .iter()
        .map(|(id, answer)| {
            let mut sent = json!({"picked": answer["picked"].as_array().cloned().unwrap_or_default()});
            if let Some(custom) = answer["custom"].as_str().filter(|custom| !custom.trim().is_empty()) {
                sent["custom"] = json!(custom);
            }
            (id.clone(), sent)
        })
        .collect();
    json!({"action": "accept", "content": {"answers": answers}})
}

fn picked(answers: &Map<String, Value>, question: &str) -> Vec<String> {
    answers
        .get(question)
        .and_then(|answer| answer["picked"].as_array())
        .map_or_else(Vec::new, |picked| picked.iter().filter_map(Value::as_str).map(str::to_string).collect())
}

#[component]
pub(super) fn QuestionsBody(
    ask: Ask,
    input: QuestionsInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: Words,
) -> impl IntoView {
    let QuestionsDraft { answers, touched } = use_ask_draft(&tool_call_id, || QuestionsDraft {
        answers: RwSignal::new(Map::new()),
        touched: RwSignal::new(false),
    });
    let draft = Memo::new(move |_| answers.with(answer_of));
    let total = input.questions.len();
    let questions = input
        .questions
        .into_iter()
        .enumerate()
        .map(|(index, question)| {
            let name = format!("questions-{tool_call_id}-{}", question.id);
            let counter = (total > 1)
                .then(|| words.with("question-of", &[("number", (index + 1).into()), ("total", total.into())]));
            view! { <QuestionFieldset question name counter answers touched words=words.clone() /> }
        })
        .collect_view();
    view! {
        <div class="ask-card__questions">{questions}</div>
        <SubmitRow ask draft touched answer channel words />
    }
}

#[component]
fn QuestionFieldset(
    question: Question,
    name: String,
    counter: Option<String>,
    answers: RwSignal<Map<String, Value>>,
    touched: RwSignal<bool>,
    words: Words,
) -> impl IntoView {
    let multi = question.is_multi();
    let id = StoredValue::new(question.id.clone());
    let set = move |picked: Vec<String>, custom: Option<String>| {
        answers.update(|answers| {
            let mut answer = json!({"picked": picked});
            if let Some(custom) = custom {
                answer["custom"] = json!(custom);
            }
            answers.insert(id.get_value(), answer);
        });
        touched.set(true);
    };
    let custom = move || {
        answers.with(|answers| answers.get(&id.get_value()).and_then(|a| a["custom"].as_str().map(str::to_string)))
    };
    let choices = question
        .answers
        .iter()
        .map(|choice| {
            let (value, checked_value) = (choice.id.clone(), choice.id.clone());
            let checked = move || answers.with(|answers| picked(answers, &id.get_value()).contains(&checked_value));
            let on_change = move |event: leptos::ev::Event| {
                let on = event_target_checked(&event);
                if multi {
                    let mut now = answers.with_untracked(|answers| picked(answers, &id.get_value()));
                    now.retain(|picked| picked != &value);
                    if on {
                        now.push(value.clone());
                    }
                    set(now, custom());
                } else if on {
                    set(vec![value.clone()], None);
                }
            };
            view! {
                <label class="ask-option">
                    <input
                        type=if multi { "checkbox" } else { "radio" }
                        name=name.clone()
                        value=choice.id.clone()
                        prop:checked=checked
                        on:change=on_change
                    />
                    <bdi>{choice.label.clone()}</bdi>
                    {choice
                        .description
                        .clone()
                        .map(|description| {
                            view! {
                                " — "
                                <bdi class="ask-option__description">{description}</bdi>
                            }
                        })}
                </label>
            }
        })
        .collect_view();
    let own = question.allows_custom().then(|| {
        let own_label = words.get("your-own-answer");
        let text_input = move || {
            view! {
                <input
                    type="text"
                    class="ask-question__own"
                    data-testid="ask-question-own"
                    aria-label=own_label.clone()
                    prop:value=move || custom().unwrap_or_default()
                    on:input=move |event| {
                        let picked = if multi {
                            answers.with_untracked(|answers| picked(answers, &id.get_value()))
                        } else {
                            Vec::new()
                        };
                        set(picked, Some(event_target_value(&event)));
                    }
                />
            }
        };
        if multi {
            view! {
                <label class="ask-field">
                    <bdi>{words.get("your-own-answer")}</bdi>
                    {text_input()}
                </label>
            }
            .into_any()
        } else {
            view! {
                <label class="ask-option">
                    <input
                        type="radio"
                        name=name.clone()
                        value="own"
                        prop:checked=move || custom().is_some()
                        on:change=move |_| set(Vec::new(), Some(custom().unwrap_or_default()))
                    />
                    <bdi>{words.get("your-own-answer")}</bdi>
                    {text_input()}
                </label>
            }
            .into_any()
        }
    });
    let hint = if multi { words.get("choose-any") } else { words.get("choose-one") };
    view! {
        <fieldset class="ask-card__options ask-question" data-testid=format!("ask-question-{}", question.id)>
            <legend>
                {counter.map(|counter| view! { <span class="ask-question__counter">{counter}</span> })}
                <bdi class="ask-question__title">{question.title.clone()}</bdi>
                <span class="ask-question__hint">{hint}</span>
            </legend>
            {choices}
            {own}
        </fieldset>
    }
}
