//! The form card: a short form of typed fields, each checked as it is filled.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AnswerChannel;
use super::drafts::{FormDraft, use_ask_draft};
use super::{AnswerRules, ErrorList, SubmitRow, errors_at};
use crate::components::textarea_text;
use palaver_contract::asks::{Ask, FieldPattern, FormField, FormFieldType, FormInput, number_value};

/// A form field's value as the browser's control gives it.
fn field_value(field: &FormField, raw: &str, checked: bool) -> Option<Value> {
    match field.field_type {
        FormFieldType::Boolean => Some(json!(checked)),
        FormFieldType::Number => raw.trim().parse::<f64>().ok().map(number_value),
        FormFieldType::Datetime if !raw.is_empty() => Some(json!(format!("{raw}{}", browser_offset()))),
        _ if raw.is_empty() => None,
        _ => Some(json!(raw)),
    }
}

/// The browser's UTC offset as `+02:00`, so a datetime never leaves without its zone.
fn browser_offset() -> String {
    let minutes = crate::browser::utc_offset_minutes();
    let sign = if minutes < 0 { '-' } else { '+' };
    format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60)
}

#[component]
pub(super) fn FormBody(
    ask: Ask,
    input: FormInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: palaver_wire::words::Words,
    /// An argument form's field patterns.
    #[prop(optional)]
    patterns: Vec<FieldPattern>,
) -> impl IntoView {
    let FormDraft { values, touched } = use_ask_draft(&tool_call_id, || FormDraft {
        values: RwSignal::new(input.default_values()),
        touched: RwSignal::new(false),
    });
    // Booleans are always sent: off is an answer.
    values.update(|v| {
        for field in input.fields.iter().filter(|f| f.field_type == FormFieldType::Boolean) {
            v.entry(field.id.clone()).or_insert(json!(false));
        }
    });
    let draft = Memo::new(move |_| json!({"action": "accept", "content": {"values": values.get()}}));
    let fields = input.fields.clone();
    let rules = AnswerRules { ask: ask.clone(), patterns: patterns.clone() };
    let choose = words.get("choose-placeholder");
    view! {
        <div class="ask-form">
            {fields
                .into_iter()
                .map(|field| {
                    let id = field.id.clone();
                    let input_id = format!("field-{id}");
                    let at = palaver_contract::path::Path::root().key("content").key("values").name(&id).text();
                    let rules = rules.clone();
                    let field_words = words.clone();
                    let errors = Signal::derive(move || errors_at(
                        &rules,
                        &draft.get(),
                        touched.get(),
                        &channel.server_errors.get(),
                        &at,
                        &field_words,
                    ));
                    let set = {
                        let field = field.clone();
                        move |raw: String, checked: bool| {
                            let id = field.id.clone();
                            match field_value(&field, &raw, checked) {
                                Some(value) => {
                                    values
                                        .update(|v| {
                                            v.insert(id, value);
                                        })
                                }
                                None => {
                                    values
                                        .update(|v| {
                                            v.remove(&id);
                                        })
                                }
                            }
                            touched.set(true);
                        }
                    };
                    let current = values
                        .with_untracked(|v| v.get(&field.id).cloned())
                        .or_else(|| field.default.clone());
                    let initial = match &current {
                        Some(Value::String(text)) if field.field_type == FormFieldType::Datetime => {
                            text.get(..16).unwrap_or(text).to_string()
                        }
                        Some(Value::String(text)) => text.clone(),
                        Some(Value::Number(number)) => number.to_string(),
                        _ => String::new(),
                    };
                    let required = field.is_required();
                    let label = // What the draft holds (a card made again, or after a reload), else the default.
                    view! {
                        {field.label.clone()}
                        {required
                            .then(|| {
                                view! {
                                    <span class="ask-field__required" aria-hidden="true">
                                        " *"
                                    </span>
                                }
                            })}
                    };
                    let control = match field.field_type {
                        FormFieldType::Boolean => {
                            let id2 = id.clone();
                            view! {
                                <input
                                    id=input_id.clone()
                                    type="checkbox"
                                    role="switch"
                                    prop:checked=move || values.with(|v| v.get(&id2) == Some(&json!(true)))
                                    on:change=move |e| set(String::new(), event_target_checked(&e))
                                />
                            }
                                .into_any()
                        }
                        FormFieldType::Textarea => {
                            let id = id.clone();
                            let text = move || {
                                values.with(|v| v.get(&id).and_then(Value::as_str).unwrap_or_default().to_string())
                            };
                            let shown = text();
                            view! {
                                <textarea
                                    id=input_id.clone()
                                    rows="4"
                                    required=required
                                    prop:value=text
                                    on:input=move |e| set(event_target_value(&e), false)
                                >
                                    {textarea_text(&shown)}
                                </textarea>
                            }
                                .into_any()
                        }
                        FormFieldType::Select => {
                            let options = field.options().to_vec();
                            view! {
                                <select
                                    id=input_id.clone()
                                    required=required
                                    prop:value=initial
                                    on:change=move |e| set(event_target_value(&e), false)
                                >
                                    <option value="">{choose.clone()}</option>
                                    {options
                                        .into_iter()
                                        .map(|o| view! { <option value=o.id.clone()>{o.label.clone()}</option> })
                                        .collect_view()}
                                </select>
                            }
                                .into_any()
                        }
                        FormFieldType::Multiselect => {
                            let options = field.options().to_vec();
                            view! {
                                <span class="ask-form__multi" id=input_id.clone()>
                                    {options
                                        .into_iter()
                                        .map(|o| {
                                            let (id_on, id_check, option_id) = (id.clone(), id.clone(), o.id.clone());
                                            let check_option = option_id.clone();
                                            let is_checked = move || {
                                                values
                                                    .with(|v| {
                                                        v.get(&id_check)
                                                            .and_then(Value::as_array)
                                                            .is_some_and(|a| a.contains(&json!(check_option)))
                                                    })
                                            };
                                            view! {
                                                <label class="ask-option">
                                                    <input
                                                        type="checkbox"
                                                        prop:checked=is_checked
                                                        on:change=move |e| {
                                                            let on = event_target_checked(&e);
                                                            values
                                                                .update(|v| {
                                                                    let mut list: Vec<Value> = v
                                                                        .get(&id_on)
                                                                        .and_then(Value::as_array)
                                                                        .cloned()
                                                                        .unwrap_or_default();
                                                                    list.retain(|x| x != &json!(option_id));
                                                                    if on {
                                                                        list.push(json!(option_id));
                                                                    }
                                                                    if list.is_empty() {
                                                                        v.remove(&id_on);
                                                                    } else {
                                                                        v.insert(id_on.clone(), Value::Array(list));
                                                                    }
                                                                });
                                                            touched.set(true);
                                                        }
                                                    />
                                                    {o.label.clone()}
                                                </label>
                                            }
                                        })
                                        .collect_view()}
                                </span>
                            }
                                .into_any()
                        }
                        other => {
                            let kind = match other {
                                FormFieldType::Email => "email",
                                FormFieldType::Url => "url",
                                FormFieldType::Phone => "tel",
                                FormFieldType::Number => "number",
                                FormFieldType::Date => "date",
                                FormFieldType::Time => "time",
                                FormFieldType::Datetime => "datetime-local",
                                _ => "text",
                            };
                            // Uncontrolled: writing a parsed value back would fight the typing ("12" → "1.02").
                            view! {
                                <input
                                    id=input_id.clone()
                                    type=kind
                                    required=required
                                    value=initial
                                    on:input=move |e| set(event_target_value(&e), false)
                                />
                            }
                                .into_any()
                        }
                    };
                    view! {
                        <div class="ask-field" data-testid=format!("form-field-{id}")>
                            <label for=input_id>{label}</label>
                            {control}
                            {field.helper_text.clone().map(|text| view! { <p class="ask-field__help">{text}</p> })}
                            <ErrorList errors />
                        </div>
                    }
                })
                .collect_view()}
        </div>
        <SubmitRow ask draft touched answer channel words patterns />
    }
}
