//! The model picker: shown when the server offers several models (`PALAVER_MODELS`). A new
//! conversation is created on its choice before the first message; an open conversation stores a change at once.

use leptos::prelude::*;

use super::api::{choose_model, list_models};

/// The picker's choice: the open conversation's model, or what a new conversation will start on
/// (`None`: the server's default).
#[derive(Clone, Copy)]
pub(super) struct ModelChoice(pub RwSignal<Option<String>>);

#[component]
pub(super) fn ModelPicker(choice: ModelChoice, conversation_id: Memo<Option<String>>) -> impl IntoView {
    let ModelChoice(chosen) = choice;
    let models = OnceResource::new(list_models());
    let failed = RwSignal::new(None::<String>);
    let choose = move |model: String| {
        chosen.set(Some(model.clone()));
        failed.set(None);
        if let Some(id) = conversation_id.get_untracked() {
            leptos::task::spawn_local(async move {
                if let Err(err) = choose_model(id, model).await {
                    failed.set(Some(err.to_string()));
                }
            });
        }
    };
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                let models = models.await.unwrap_or_default();
                (models.len() > 1)
                    .then(|| {
                        let default = models.iter().find(|model| model.default).map(|model| model.id.clone());
                        let selected = move || chosen.get().or_else(|| default.clone()).unwrap_or_default();
                        view! {
                            <label class="model-picker">
                                <span class="model-picker__label">"Model"</span>
                                <select
                                    data-testid="model-picker"
                                    prop:value=selected
                                    on:change=move |event| choose(event_target_value(&event))
                                >
                                    {models
                                        .into_iter()
                                        .map(|model| view! { <option value=model.id>{model.label}</option> })
                                        .collect_view()}
                                </select>
                            </label>
                            {move || {
                                failed
                                    .get()
                                    .map(|error| {
                                        view! {
                                            <span class="error" role="alert">
                                                {error}
                                            </span>
                                        }
                                    })
                            }}
                        }
                    })
            })}
        </Transition>
    }
}
