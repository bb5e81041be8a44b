//! The choice card: buttons for a few short options, a list (searchable when long) for more,
//! one or many picks, and an optional "other" answer.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AnswerChannel;
use super::drafts::{ChoiceDraft, use_ask_draft};
use super::{ErrorList, SubmitRow, card_buttons, server_errors};
use palaver_contract::asks::{Ask, ButtonStyle, ChoiceInput, SelectMode, SimpleCardButton, to_simple_card};
use palaver_contract::text::utf16_len;
use palaver_wire::words::Words;

#[component]
pub(super) fn ChoiceBody(
    ask: Ask,
    input: ChoiceInput,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: Words,
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
                label: words.get("skip"),
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
            {card_buttons(buttons, ask.kind(), answer, channel, &words)}
            <ErrorList errors=server_errors(ask.clone(), channel, words.clone()) />
        }
        .into_any();
    }
    let defaults = input.default.clone().unwrap_or_default();
    // The search text of a long list is part of the draft: a rebuilt card keeps its filter.
    let ChoiceDraft { selected, other, search, touched } = use_ask_draft(&tool_call_id, || ChoiceDraft {
        selected: RwSignal::new(defaults),
        other: RwSignal::new(String::new()),
        search: RwSignal::new(String::new()),
        touched: RwSignal::new(false),
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
    let (choose_one, search_label) = (words.get("choose-one"), words.get("search-options"));
    let controls = match input.select {
        SelectMode::One if options.len() <= 8 => view! {
            <fieldset class="ask-card__options">
                <legend>{words.get("choose-one")}</legend>
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
                                <bdi>{label}</bdi>
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
                        {search_label}
                        <input
                            type="search"
                            prop:value=move || search.get()
                            on:input=move |event| search.set(event_target_value(&event))
                        />
                    </label>
                    <label class="ask-field">
                        {choose_one}
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
                words.with_count("choose-exactly", "count", usize::try_from(bounds.max).unwrap_or_default())
            } else {
                words.with("choose-range", &[("min", bounds.min.into()), ("max", bounds.max.into())])
            };
            let other_label = input.other_label.clone().unwrap_or_else(|| words.get("other"));
            // A pick past the most the ask takes is refused at the box (Other, once written,
            // counts as one): the rest are disabled while the answer is full.
            let full = Memo::new(move |_| {
                let picked = selected.with(Vec::len) + usize::from(other.with(|other| !other.trim().is_empty()));
                i64::try_from(picked).unwrap_or(i64::MAX) >= bounds.max
            });
            view! {
                <fieldset class="ask-card__options">
                    <legend>{hint}</legend>
                    {options
                        .into_iter()
                        .map(|option| {
                            let id = option.id.clone();
                            let checked_id = id.clone();
                            let picked = Memo::new(move |_| selected.with(|s| s.contains(&checked_id)));
                            view! {
                                <label class="ask-option">
                                    <input
                                        type="checkbox"
                                        value=id.clone()
                                        prop:checked=move || picked.get()
                                        prop:disabled=move || full.get() && !picked.get()
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
                                    <bdi>{option.label.clone()}</bdi>
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
                                        prop:disabled=move || full.get() && other.with(|other| other.trim().is_empty())
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
        <SubmitRow ask draft touched answer channel words />
    }
    .into_any()
}
