//! The interactive blocks: steppers and checklists keep their state and call host actions.

use leptos::prelude::*;

use palaver_wire::body::{Data, HostActionBody, HostActionResult};
use serde_json::{Map, Value, json};

use super::state::DocState;
use palaver_contract::blocks::model::{Block, Stepper};
use palaver_contract::blocks::{
    checklist_element_id, is_stepper_value_allowed, scale_stepper_block, stepper_element_ids,
};

/// What the last host action of a stepper or checklist said, announced to screen readers.
#[component]
pub(super) fn ActionStatus(status: RwSignal<Option<String>>) -> impl IntoView {
    move || {
        status.get().map(|status| {
            view! {
                <p class="blocks-status" role="status">
                    {status}
                </p>
            }
        })
    }
}

#[component]
pub(super) fn StepperView(original: Stepper, live: RwSignal<Block>, state: DocState) -> impl IntoView {
    let busy = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let current = move || match live.get() {
        Block::Stepper(stepper) => stepper,
        _ => unreachable!("a stepper's slot holds a stepper"),
    };
    let [decrease_id, increase_id] = stepper_element_ids(&original.id);
    let step = original.step.unwrap_or(1.0);
    let original = StoredValue::new(original);
    let change = move |delta: f64| {
        let next = current().value + delta;
        original.with_value(|original| {
            if !is_stepper_value_allowed(original, next) {
                return;
            }
            match state.actions.and_then(|actions| actions.history_id.get_untracked()) {
                Some(_) => {
                    let mut payload = original.callback.payload.clone().unwrap_or_default();
                    payload.insert("value".into(), json!(next));
                    call_host(
                        state,
                        original.callback.name.clone(),
                        Value::Object(payload),
                        Some(original.id.clone()),
                        busy,
                        status,
                    );
                }
                // Outside a conversation (the storybook) the device scales it the way the host would.
                None => live.set(Block::Stepper(scale_stepper_block(original, next))),
            }
        });
    };
    let can =
        move |delta: f64| original.with_value(|original| is_stepper_value_allowed(original, current().value + delta));
    let label = original.with_value(|original| original.label.clone());
    view! {
        <div class="stepper" data-testid="stepper">
            <div class="stepper__control" role="group" aria-label=label.clone()>
                <span class="stepper__label">{label.clone()}</span>
                <button
                    type="button"
                    data-element-id=decrease_id
                    class="stepper__button"
                    aria-label=format!("Decrease {label}")
                    disabled=move || busy.get() || !can(-step)
                    on:click=move |_| change(-step)
                >
                    "−"
                </button>
                <output class="stepper__value" aria-live="polite" data-testid="stepper-value">
                    {move || {
                        let stepper = current();
                        let value = palaver_contract::text::js_number(stepper.value);
                        stepper.unit.map_or(value.clone(), |unit| format!("{value} {unit}"))
                    }}
                </output>
                <button
                    type="button"
                    data-element-id=increase_id
                    class="stepper__button"
                    aria-label=format!("Increase {label}")
                    disabled=move || busy.get() || !can(step)
                    on:click=move |_| change(step)
                >
                    "+"
                </button>
            </div>
            {move || {
                let stepper = current();
                (!stepper.items.is_empty())
                    .then(|| {
                        view! {
                            <div class="stepper__items">
                                {stepper
                                    .items_title
                                    .clone()
                                    .map(|title| view! { <p class="stepper__items-title">{title}</p> })}
                                <ul>
                                    {stepper
                                        .items
                                        .iter()
                                        .map(|item| {
                                            let amount = palaver_contract::text::js_to_fixed(
                                                item.amount,
                                                usize::from(item.decimals.unwrap_or(0)),
                                            );
                                            let amount = item
                                                .unit
                                                .as_ref()
                                                .map_or(amount.clone(), |unit| format!("{amount} {unit}"));
                                            view! {
                                                <li>
                                                    <span>{item.label.clone()}</span>
                                                    <strong>{amount}</strong>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            </div>
                        }
                    })
            }}
            {original
                .with_value(|original| original.note.clone())
                .map(|note| view! { <p class="blocks-context">{note}</p> })}
            <ActionStatus status />
        </div>
    }
}

#[component]
pub(super) fn ChecklistView(live: RwSignal<Block>, state: DocState) -> impl IntoView {
    let busy = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let current = move || match live.get() {
        Block::Checklist(checklist) => checklist,
        _ => unreachable!("a checklist's slot holds a checklist"),
    };
    let tick = move |item_id: String, checked: bool| {
        let Block::Checklist(mut checklist) = live.get_untracked() else { return };
        for item in &mut checklist.items {
            if item.id == item_id {
                item.checked = Some(checked);
            }
        }
        let ticks: Map<String, Value> =
            checklist.items.iter().map(|item| (item.id.clone(), json!(item.checked == Some(true)))).collect();
        let callback = checklist.callback.clone();
        let id = checklist.id.clone();
        live.set(Block::Checklist(checklist));
        let in_conversation = state.actions.and_then(|actions| actions.history_id.get_untracked()).is_some();
        if let Some(callback) = callback.filter(|_| in_conversation) {
            let mut payload = callback.payload.unwrap_or_default();
            payload.insert("itemId".into(), json!(item_id));
            payload.insert("checked".into(), json!(checked));
            payload.insert("state".into(), Value::Object(ticks));
            call_host(state, callback.name, Value::Object(payload), Some(id), busy, status);
        }
    };
    view! {
        {move || {
            let checklist = current();
            let done = checklist.items.iter().filter(|item| item.checked == Some(true)).count();
            let total = checklist.items.len();
            let title = checklist.title.clone().unwrap_or_else(|| "Checklist".into());
            let label = title.clone();
            view! {
                <section class="checklist" data-testid="checklist" aria-label=label>
                    <p class="checklist__header">
                        <span class="checklist__title">{title}</span>
                        <span class="checklist__count" data-testid="checklist-count">
                            {format!("{done} of {total}")}
                        </span>
                    </p>
                    <ul>
                        {checklist
                            .items
                            .iter()
                            .map(|item| {
                                let element_id = checklist_element_id(&checklist.id, &item.id);
                                let item_id = item.id.clone();
                                view! {
                                    <li class="checklist__item">
                                        // Element ids go in data attributes: a transcript can show one document twice.
                                        <label>
                                            <input
                                                type="checkbox"
                                                data-element-id=element_id
                                                prop:checked=item.checked == Some(true)
                                                disabled=move || busy.get()
                                                on:change=move |event| tick(
                                                    item_id.clone(),
                                                    event_target_checked(&event),
                                                )
                                            />
                                            <span class="checklist__text">{item.text.clone()}</span>
                                            {item
                                                .meta
                                                .clone()
                                                .map(|meta| {
                                                    view! {
                                                        " "
                                                        <span class="checklist__meta">{meta}</span>
                                                    }
                                                })}
                                        </label>
                                        {item
                                            .detail
                                            .clone()
                                            .map(|detail| view! { <p class="checklist__detail">{detail}</p> })}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </section>
            }
        }}
        <ActionStatus status />
    }
}

/// Calls a host action through `POST /gpt/actions`; blocks it returns replace their namesakes.
pub(super) fn call_host(
    state: DocState,
    name: String,
    payload: Value,
    block_id: Option<String>,
    busy: RwSignal<bool>,
    status: RwSignal<Option<String>>,
) {
    let Some(history_id) = state.actions.and_then(|actions| actions.history_id.get_untracked()) else {
        status.set(Some("This action works inside a conversation.".into()));
        return;
    };
    let body = HostActionBody { history_id, name, payload, block_id };
    busy.set(true);
    status.set(None);
    leptos::task::spawn_local(async move {
        match crate::http::send::<_, Data<HostActionResult>>("POST", "/gpt/actions", &body).await {
            Ok(Data { data }) => {
                state.replace(data.blocks);
                status.set(data.message);
            }
            Err(error) => status.set(Some(error)),
        }
        busy.set(false);
    });
}
