//! Ask cards: a pending ask as controls in the transcript, and an answered one as its summary.
//! Every answer is checked with the same contract the server runs, so Submit is enabled
//! exactly when the server would accept the answer.

use std::any::Any;

use leptos::prelude::*;
use serde_json::{Map, Value, json};

use super::summary::ask_summary;
use super::transcript::AskItem;
use crate::chat::model::{AskOrigin, AskStatus};
use crate::components::textarea_text;
use crate::error::FieldError;
use crate::markdown;
use palaver_contract::asks::{
    Ask, AskError, AskSurface, ButtonStyle, ChoiceInput, FilesInput, FormField, FormFieldType, FormInput,
    MarkdownInput, SelectMode, SimpleCardButton, accepted_file_mime_types, parse_ask_input, to_simple_card,
    validate_ask_response,
};
use palaver_contract::text::utf16_len;

/// Where an ask card sends its answer, and what the server said about the last one.
#[derive(Clone, Copy)]
pub struct AnswerChannel {
    /// Sends `{toolCallId, response}` as the answer.
    pub send: Callback<(String, Value)>,
    /// The `fields` of the server's last 400 for this conversation.
    pub server_errors: RwSignal<Vec<FieldError>>,
    /// A turn is running: answers wait.
    pub busy: RwSignal<bool>,
}

/// The answers being prepared in a page's pending ask cards, kept by the page. The transcript
/// is rebuilt when a turn ends (or another device answers), and its cards with it: a rebuilt
/// card carries on with what was picked, typed or uploaded, and an upload that finishes in
/// between lands in it.
#[derive(Clone)]
struct AskDrafts {
    owner: Owner,
    /// The conversation shown (tool call ids are only unique within one).
    conversation: Signal<Option<String>>,
    /// By conversation and tool call id (a page shows a handful).
    signals: StoredValue<Vec<(String, Box<dyn Any + Send + Sync>)>>,
}

/// Lets the ask cards under the current owner (a page showing `conversation`) keep their
/// drafts in it.
pub fn provide_ask_drafts(conversation: Signal<Option<String>>) {
    if let Some(owner) = Owner::current() {
        provide_context(AskDrafts { owner, conversation, signals: StoredValue::new(Vec::new()) });
    }
}

/// The signals of the draft answer to `tool_call_id`, made by `make`: the page's when it keeps
/// drafts (made on first use, under the page), else the card's own.
fn draft_signals<T: Copy + Send + Sync + 'static>(tool_call_id: &str, make: impl FnOnce() -> T) -> T {
    let Some(drafts) = use_context::<AskDrafts>() else { return make() };
    let key = format!("{}/{tool_call_id}", drafts.conversation.get_untracked().unwrap_or_default());
    let kept = drafts.signals.with_value(|kept| {
        kept.iter().find(|(kept_key, _)| *kept_key == key).and_then(|(_, signals)| signals.downcast_ref::<T>().copied())
    });
    kept.unwrap_or_else(|| {
        let signals = drafts.owner.with(make);
        drafts.signals.update_value(|kept| kept.push((key, Box::new(signals))));
        signals
    })
}

fn style_class(style: ButtonStyle) -> &'static str {
    match style {
        ButtonStyle::Primary => "ask-button ask-button--primary",
        ButtonStyle::Default => "ask-button",
        ButtonStyle::Destructive => "ask-button ask-button--destructive",
        ButtonStyle::Cancel => "ask-button ask-button--cancel",
    }
}

#[component]
pub fn AskCard(item: AskItem, channel: AnswerChannel) -> impl IntoView {
    if !item.waiting {
        let summary = ask_summary(item.kind, &item.input, item.status, item.response.as_ref());
        let answered = matches!(item.response.as_ref().and_then(|r| r["action"].as_str()), Some("accept"))
            || (item.response.is_none() && item.status == AskStatus::Answered);
        let markdown_answer = (item.kind == palaver_contract::asks::AskKind::Markdown && answered)
            .then(|| item.response.as_ref().and_then(|r| r["content"]["markdown"].as_str()).map(str::to_string))
            .flatten()
            .filter(|_| item.response.as_ref().is_some_and(|r| r["content"]["changed"] == true));
        return view! {
            <div class="ask-card ask-card--done" data-testid="ask-summary">
                <p class="ask-card__summary">
                    <span aria-hidden="true">{if answered { "✓ " } else { "– " }}</span>
                    {summary}
                </p>
                {markdown_answer
                    .map(|text| {
                        view! {
                            <details class="ask-card__answer">
                                <summary>"Show the text you sent"</summary>
                                <div class="markdown" inner_html=markdown::to_html(&text)></div>
                            </details>
                        }
                    })}
            </div>
        }
        .into_any();
    }
    let Ok(ask) = parse_ask_input(item.kind, &item.input, AskSurface::Full) else {
        return view! {
            <div class="ask-card" data-testid="ask-invalid">
                <p>"This question cannot be shown. Send a message to continue."</p>
            </div>
        }
        .into_any();
    };
    let tool_call_id = item.tool_call_id.clone();
    let answer = {
        let tool_call_id = tool_call_id.clone();
        Callback::new(move |response: Value| channel.send.run((tool_call_id.clone(), response)))
    };
    let guard = match (item.origin, &item.tool_name) {
        (Some(AskOrigin::Approval), tool) => Some(tool.clone()),
        _ => None,
    };
    let title = ask.title().map(str::to_string);
    let label = title.clone().unwrap_or_else(|| "Question".into());
    let prompt = ask.prompt().to_string();
    let body = match &ask {
        Ask::Choice(input) => view! { <ChoiceBody ask=ask.clone() input=input.clone() tool_call_id=tool_call_id.clone() answer channel /> }.into_any(),
        Ask::Confirm(_) => view! { <ButtonsBody ask=ask.clone() tool_call_id=tool_call_id.clone() answer channel /> }.into_any(),
        Ask::Markdown(input) => view! { <MarkdownBody ask=ask.clone() input=input.clone() tool_call_id=tool_call_id.clone() answer channel /> }.into_any(),
        Ask::Form(input) => view! { <FormBody ask=ask.clone() input=input.clone() tool_call_id=tool_call_id.clone() answer channel /> }.into_any(),
        Ask::Files(input) => view! { <FilesBody ask=ask.clone() input=input.clone() tool_call_id=tool_call_id.clone() answer channel /> }.into_any(),
    };
    // A newly shown ask takes the focus, so keyboard and screen-reader users land on it.
    let card = NodeRef::<leptos::html::Section>::new();
    Effect::new(move |_| {
        if let Some(section) = card.get() {
            let _ = section.focus();
        }
    });
    view! {
        <section node_ref=card class="ask-card ask-card--pending" data-testid="ask-card" aria-label=label tabindex="-1">
            {guard
                .map(|tool| {
                    view! {
                        <p class="ask-card__guard" data-testid="approval-tool">
                            "Approval needed for "
                            <code>{tool}</code>
                        </p>
                    }
                })}
            {title.map(|title| view! { <h3 class="ask-card__title">{title}</h3> })}
            <p class="ask-card__prompt">{prompt}</p>
            {body}
        </section>
    }
    .into_any()
}

/// The card's buttons, each sending its stored answer (confirm, and choices that fit).
fn card_buttons(buttons: Vec<SimpleCardButton>, answer: Callback<Value>, channel: AnswerChannel) -> impl IntoView {
    view! {
        <div class="ask-card__buttons" role="group" aria-label="Answers">
            {buttons
                .into_iter()
                .map(|button| {
                    let response = button.response.to_value();
                    view! {
                        <button
                            type="button"
                            class=style_class(button.style)
                            data-testid=format!("ask-button-{}", button.id)
                            disabled=move || channel.busy.get()
                            on:click=move |_| answer.run(response.clone())
                        >
                            {button.label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

#[component]
fn ButtonsBody(ask: Ask, tool_call_id: String, answer: Callback<Value>, channel: AnswerChannel) -> impl IntoView {
    let card = to_simple_card(&ask, &tool_call_id);
    let skip = ask.allows_decline();
    view! {
        {card_buttons(card.buttons, answer, channel)}
        {skip.then(|| view! { <SkipButton answer channel /> })}
        <ErrorList errors=Signal::derive(move || {
            channel.server_errors.get().into_iter().map(|e| e.message).collect()
        }) />
    }
}

#[component]
fn SkipButton(answer: Callback<Value>, channel: AnswerChannel) -> impl IntoView {
    view! {
        <button
            type="button"
            class="ask-button ask-button--cancel"
            data-testid="ask-skip"
            disabled=move || channel.busy.get()
            on:click=move |_| answer.run(json!({"action": "decline"}))
        >
            "Skip"
        </button>
    }
}

#[component]
fn ErrorList(#[prop(into)] errors: Signal<Vec<String>>) -> impl IntoView {
    view! {
        <Show when=move || !errors.get().is_empty()>
            <ul class="ask-card__errors" role="alert" data-testid="ask-errors">
                {move || errors.get().into_iter().map(|error| view! { <li>{error}</li> }).collect_view()}
            </ul>
        </Show>
    }
}

/// The errors under one path prefix: the draft's own (once the user has touched it) and the
/// server's for the last answer sent.
fn errors_at(ask: &Ask, draft: &Value, touched: bool, server: &[FieldError], prefix: &str) -> Vec<String> {
    let client: Vec<AskError> = if touched {
        validate_ask_response(ask, draft, palaver_contract::asks::ASK_LIMITS.files.default_max_file_size_bytes)
    } else {
        Vec::new()
    };
    let mut messages: Vec<String> =
        client.iter().filter(|e| e.path.to_string().starts_with(prefix)).map(|e| e.message.clone()).collect();
    messages.extend(server.iter().filter(|e| e.path.starts_with(prefix)).map(|e| e.message.clone()));
    messages.dedup();
    messages
}

/// Submit (enabled only for a valid answer), Skip when allowed, and the errors.
#[component]
fn SubmitRow(
    ask: Ask,
    draft: Memo<Value>,
    touched: RwSignal<bool>,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    let label = match &ask {
        Ask::Choice(i) => i.submit_label.clone(),
        Ask::Markdown(i) => i.submit_label.clone(),
        Ask::Form(i) => i.submit_label.clone(),
        Ask::Files(i) => i.submit_label.clone(),
        Ask::Confirm(_) => None,
    }
    .unwrap_or_else(|| "Submit".into());
    let skip = ask.allows_decline();
    let checked = ask.clone();
    let valid = Memo::new(move |_| validate_ask_response(&checked, &draft.get(), u64::MAX).is_empty());
    let shown = ask.clone();
    let errors =
        Signal::derive(move || errors_at(&shown, &draft.get(), touched.get(), &channel.server_errors.get(), ""));
    view! {
        <div class="ask-card__actions">
            <button
                type="button"
                class="ask-button ask-button--primary"
                data-testid="ask-submit"
                disabled=move || !valid.get() || channel.busy.get()
                on:click=move |_| answer.run(draft.get_untracked())
            >
                {label}
            </button>
            {skip.then(|| view! { <SkipButton answer channel /> })}
        </div>
        <ErrorList errors />
    }
}

#[component]
fn ChoiceBody(
    ask: Ask,
    input: ChoiceInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    let card = to_simple_card(&ask, &tool_call_id);
    let fits = input.options.iter().all(|option| utf16_len(&option.label) <= 20);
    if input.select == SelectMode::One && !card.handoff && fits {
        let described: Vec<String> = input
            .options
            .iter()
            .filter_map(|option| option.description.as_ref().map(|d| format!("{} — {d}", option.label)))
            .collect();
        let mut buttons = card.buttons;
        if ask.allows_decline() && !buttons.iter().any(|button| button.id == "skip") {
            buttons.push(SimpleCardButton {
                id: "skip".into(),
                label: "Skip".into(),
                style: ButtonStyle::Cancel,
                response: palaver_contract::asks::AskResponse::Decline,
            });
        }
        return view! {
            {(!described.is_empty())
                .then(|| {
                    view! {
                        <ul class="ask-card__descriptions">
                            {described.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}
                        </ul>
                    }
                })}
            {card_buttons(buttons, answer, channel)}
            <ErrorList errors=Signal::derive(move || {
                channel.server_errors.get().into_iter().map(|e| e.message).collect()
            }) />
        }
        .into_any();
    }
    let defaults = input.default.clone().unwrap_or_default();
    // The search text of a long list is part of the draft: a rebuilt card keeps its filter.
    let (selected, other, search, touched) = draft_signals(&tool_call_id, || {
        (RwSignal::new(defaults), RwSignal::new(String::new()), RwSignal::new(String::new()), RwSignal::new(false))
    });
    let allow_other = input.allow_other == Some(true);
    let draft = Memo::new(move |_| {
        let mut content = json!({"selected": selected.get()});
        if allow_other && !other.with(|o| o.trim().is_empty()) {
            content["other"] = json!(other.get());
        }
        json!({"action": "accept", "content": content})
    });
    let name = format!("choice-{tool_call_id}");
    let options = input.options.clone();
    let controls = match input.select {
        SelectMode::One if options.len() <= 8 => view! {
            <fieldset class="ask-card__options">
                <legend>"Choose one"</legend>
                {options
                    .into_iter()
                    .map(|option| {
                        let id = option.id.clone();
                        let checked_id = id.clone();
                        let label = match &option.description {
                            Some(d) => format!("{} — {d}", option.label),
                            None => option.label.clone(),
                        };
                        view! {
                            <label class="ask-option">
                                <input
                                    type="radio"
                                    name=name.clone()
                                    value=id.clone()
                                    prop:checked=move || selected.with(|s| s.first() == Some(&checked_id))
                                    on:change=move |_| {
                                        selected.set(vec![id.clone()]);
                                        touched.set(true);
                                    }
                                />
                                {label}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
        }
        .into_any(),
        SelectMode::One => {
            // Many options: a search box narrows the list, the list box picks one.
            let options = StoredValue::new(options);
            let shown = move || {
                let needle = search.get().to_lowercase();
                options.with_value(|options| {
                    options
                        .iter()
                        .filter(|option| needle.is_empty() || option.label.to_lowercase().contains(&needle))
                        .cloned()
                        .collect::<Vec<_>>()
                })
            };
            view! {
                <div class="ask-card__options">
                    <label class="ask-field">
                        "Search the options"
                        <input
                            type="search"
                            prop:value=move || search.get()
                            on:input=move |event| search.set(event_target_value(&event))
                        />
                    </label>
                    <label class="ask-field">
                        "Choose one"
                        <select
                            size="6"
                            on:change=move |event| {
                                selected.set(vec![event_target_value(&event)]);
                                touched.set(true);
                            }
                            prop:value=move || selected.with(|s| s.first().cloned().unwrap_or_default())
                        >
                            {move || {
                                shown()
                                    .into_iter()
                                    .map(|option| {
                                        view! { <option value=option.id.clone()>{option.label.clone()}</option> }
                                    })
                                    .collect_view()
                            }}
                        </select>
                    </label>
                </div>
            }
            .into_any()
        }
        SelectMode::Many => {
            let bounds = input.selection_bounds();
            let hint = if bounds.min == bounds.max {
                format!("Choose {}", bounds.max)
            } else {
                format!("Choose {} to {}", bounds.min, bounds.max)
            };
            let other_label = input.other_label.clone().unwrap_or_else(|| "Other".into());
            view! {
                <fieldset class="ask-card__options">
                    <legend>{hint}</legend>
                    {options
                        .into_iter()
                        .map(|option| {
                            let id = option.id.clone();
                            let checked_id = id.clone();
                            view! {
                                <label class="ask-option">
                                    <input
                                        type="checkbox"
                                        value=id.clone()
                                        prop:checked=move || selected.with(|s| s.contains(&checked_id))
                                        on:change=move |event| {
                                            let on = event_target_checked(&event);
                                            selected
                                                .update(|s| {
                                                    s.retain(|x| x != &id);
                                                    if on {
                                                        s.push(id.clone());
                                                    }
                                                });
                                            touched.set(true);
                                        }
                                    />
                                    {option.label.clone()}
                                </label>
                            }
                        })
                        .collect_view()}
                    {allow_other
                        .then(|| {
                            view! {
                                <label class="ask-field">
                                    {other_label}
                                    <input
                                        type="text"
                                        prop:value=move || other.get()
                                        on:input=move |event| {
                                            other.set(event_target_value(&event));
                                            touched.set(true);
                                        }
                                    />
                                </label>
                            }
                        })}
                </fieldset>
            }
            .into_any()
        }
    };
    view! {
        {controls}
        <SubmitRow ask draft touched answer channel />
    }
    .into_any()
}

#[component]
fn MarkdownBody(
    ask: Ask,
    input: MarkdownInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    let initial = input.initial.clone().unwrap_or_default();
    let (text, touched) = draft_signals(&tool_call_id, || (RwSignal::new(initial.clone()), RwSignal::new(false)));
    let draft = Memo::new(move |_| {
        let markdown = text.get();
        let changed = markdown != initial;
        json!({"action": "accept", "content": {"markdown": markdown, "changed": changed}})
    });
    let max = input.length_bounds().max;
    let placeholder = input.placeholder.clone().unwrap_or_default();
    view! {
        <div class="ask-markdown">
            <label class="ask-field">
                "Draft"
                <textarea
                    rows="8"
                    placeholder=placeholder
                    prop:value=move || text.get()
                    on:input=move |event| {
                        text.set(event_target_value(&event));
                        touched.set(true);
                    }
                >
                    {textarea_text(&text.get_untracked())}
                </textarea>
            </label>
            <p class="ask-markdown__count" aria-live="polite">
                {move || format!("{} / {max} characters", text.with(|t| utf16_len(t)))}
            </p>
            <div class="ask-markdown__preview" aria-label="Preview">
                <div class="markdown" inner_html=move || markdown::to_html(&text.get())></div>
            </div>
        </div>
        <SubmitRow ask draft touched answer channel />
    }
}

/// A form field's value as the browser's control gives it.
fn field_value(field: &FormField, raw: &str, checked: bool) -> Option<Value> {
    match field.field_type {
        FormFieldType::Boolean => Some(json!(checked)),
        FormFieldType::Number => raw.trim().parse::<f64>().ok().map(|n| json!(n)),
        FormFieldType::Datetime if !raw.is_empty() => Some(json!(format!("{raw}{}", browser_offset()))),
        _ if raw.is_empty() => None,
        _ => Some(json!(raw)),
    }
}

/// The browser's UTC offset as `+02:00`, so a datetime never leaves without its zone.
fn browser_offset() -> String {
    #[cfg(feature = "hydrate")]
    let minutes = -(js_sys::Date::new_0().get_timezone_offset() as i64);
    #[cfg(not(feature = "hydrate"))]
    let minutes = 0_i64;
    let sign = if minutes < 0 { '-' } else { '+' };
    format!("{sign}{:02}:{:02}", minutes.abs() / 60, minutes.abs() % 60)
}

#[component]
fn FormBody(
    ask: Ask,
    input: FormInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    let (values, touched) = draft_signals(&tool_call_id, || {
        (RwSignal::<Map<String, Value>>::new(input.default_values()), RwSignal::new(false))
    });
    // Booleans are always sent: off is an answer.
    values.update(|v| {
        for field in input.fields.iter().filter(|f| f.field_type == FormFieldType::Boolean) {
            v.entry(field.id.clone()).or_insert(json!(false));
        }
    });
    let draft = Memo::new(move |_| json!({"action": "accept", "content": {"values": values.get()}}));
    let fields = input.fields.clone();
    let checked_ask = ask.clone();
    view! {
        <div class="ask-form">
            {fields
                .into_iter()
                .map(|field| {
                    let id = field.id.clone();
                    let input_id = format!("field-{id}");
                    let prefix = format!("content.values.{id}");
                    let ask = checked_ask.clone();
                    let errors = Signal::derive(move || errors_at(
                        &ask,
                        &draft.get(),
                        touched.get(),
                        &channel.server_errors.get(),
                        &prefix,
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
                    let initial = match &field.default {
                        Some(Value::String(text)) if field.field_type == FormFieldType::Datetime => {
                            text.get(..16).unwrap_or(text).to_string()
                        }
                        Some(Value::String(text)) => text.clone(),
                        Some(Value::Number(number)) => number.to_string(),
                        _ => String::new(),
                    };
                    let required = field.is_required();
                    let label = view! {
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
                                    <option value="">"Choose…"</option>
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
        <SubmitRow ask draft touched answer channel />
    }
}

#[component]
fn FilesBody(
    ask: Ask,
    input: FilesInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    // Uploads in flight are part of the draft: (file name, progress from 0 to 1).
    let (picked, touched, uploading, upload_errors) = draft_signals(&tool_call_id, || {
        (
            RwSignal::<Vec<Value>>::new(Vec::new()),
            RwSignal::new(false),
            RwSignal::<Vec<(String, f64)>>::new(Vec::new()),
            RwSignal::<Vec<String>>::new(Vec::new()),
        )
    });
    let draft = Memo::new(move |_| json!({"action": "accept", "content": {"files": picked.get()}}));
    let accept = accepted_file_mime_types(&input.accept).join(",");
    let bounds = input.count_bounds();
    let many = bounds.max > 1;
    let hint = if bounds.min == bounds.max {
        format!("Pick {} file(s)", bounds.max)
    } else {
        format!("Pick {} to {} files", bounds.min, bounds.max)
    };
    let on_change = move |event: leptos::ev::Event| {
        touched.set(true);
        #[cfg(feature = "hydrate")]
        {
            use super::files::{Uploaded, data_url_ref, upload};
            use wasm_bindgen::JsCast;
            let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
                return;
            };
            let Some(list) = element.files() else { return };
            let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
            element.set_value("");
            leptos::task::spawn_local(async move {
                for file in files {
                    let name = file.name();
                    uploading.update(|u| u.push((name.clone(), 0.0)));
                    let progress_name = name.clone();
                    let result = upload(&file, move |done| {
                        uploading
                            .update(|u| u.iter_mut().filter(|(n, _)| *n == progress_name).for_each(|(_, p)| *p = done))
                    })
                    .await;
                    uploading.update(|u| u.retain(|(n, _)| *n != name));
                    match result {
                        Uploaded::Stored(reference) => picked.update(|p| p.push(reference)),
                        Uploaded::StorageOff => {
                            if let Some(reference) = data_url_ref(&file).await {
                                picked.update(|p| p.push(reference));
                            }
                        }
                        Uploaded::Failed(error) => upload_errors.update(|e| e.push(format!("{name}: {error}"))),
                    }
                }
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = event;
    };
    view! {
        <div class="ask-files">
            <label class="ask-field">
                {hint}
                <input type="file" multiple=many accept=accept data-testid="ask-file-input" on:change=on_change />
            </label>
            {move || {
                uploading
                    .get()
                    .into_iter()
                    .map(|(name, done)| {
                        view! {
                            <label class="ask-files__progress">
                                {format!("Uploading {name}")} <progress max="1" value=done.to_string()></progress>
                            </label>
                        }
                    })
                    .collect_view()
            }}
            <ErrorList errors=Signal::derive(move || upload_errors.get()) />
            <ul class="ask-files__list">
                {move || {
                    picked
                        .get()
                        .into_iter()
                        .enumerate()
                        .map(|(index, file)| {
                            view! {
                                <li>
                                    {format!(
                                        "{} ({}, {} bytes)",
                                        file["filename"].as_str().unwrap_or("file"),
                                        file["mimeType"].as_str().unwrap_or("?"),
                                        file["size"],
                                    )} " "
                                    <button
                                        type="button"
                                        class="ask-button ask-button--cancel"
                                        on:click=move |_| {
                                            picked
                                                .update(|p| {
                                                    p.remove(index);
                                                })
                                        }
                                    >
                                        "Remove"
                                    </button>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </div>
        <SubmitRow ask draft touched answer channel />
    }
}
