//! Settings' list of the caller's grants: each with what it covers, where, until when and how
//! often it was used; what it covers and its lifetime can be changed, and it can be revoked.

use leptos::prelude::*;

use super::api::{EditGrantPatterns, RevokeGrant, SetGrantLifetime, list_grants};
use super::pattern_fields;
use crate::components::{LocalTime, error_paragraph};
use palaver_wire::grants::{ArgumentPattern, ArgumentPatterns, Grant, GrantScope, LIFETIMES, patterns_words};
use palaver_wire::words::tool_words;

#[component]
pub fn GrantsSection() -> impl IntoView {
    let revoke = ServerAction::<RevokeGrant>::new();
    let relife = ServerAction::<SetGrantLifetime>::new();
    let narrow = ServerAction::<EditGrantPatterns>::new();
    let versions = move || (revoke.version().get(), relife.version().get(), narrow.version().get());
    let grants = Resource::new(versions, |_| list_grants());
    let failed = move || {
        let failure = revoke.value().get().and_then(Result::err);
        let failure = failure.or_else(|| relife.value().get().and_then(Result::err));
        failure.or_else(|| narrow.value().get().and_then(Result::err)).map(|err| error_paragraph(&err))
    };
    view! {
        <section aria-labelledby="grants-heading" data-testid="grants">
            <h2 id="grants-heading">"Allowed tools"</h2>
            <p>
                "Tools you let run without asking, for the calls each grant covers. Revoking one makes its next call ask again."
            </p>
            {failed}
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match grants.await {
                        Ok(list) if list.is_empty() => {
                            view! { <p>"No tools are allowed without asking."</p> }.into_any()
                        }
                        Ok(list) => {
                            view! {
                                <ul class="grant-list">
                                    {list
                                        .into_iter()
                                        .map(|grant| view! { <GrantItem grant revoke relife narrow /> })
                                        .collect_view()}
                                </ul>
                            }
                                .into_any()
                        }
                        Err(err) => error_paragraph(&err),
                    }
                })}
            </Transition>
        </section>
    }
}

#[component]
fn GrantItem(
    grant: Grant,
    revoke: ServerAction<RevokeGrant>,
    relife: ServerAction<SetGrantLifetime>,
    narrow: ServerAction<EditGrantPatterns>,
) -> impl IntoView {
    let reach = match (grant.scope, &grant.history_id) {
        (GrantScope::Always, _) => view! { "in every conversation" }.into_any(),
        (scope, Some(history)) => {
            let title = grant.history_title.clone().unwrap_or_else(|| "a conversation".into());
            let words = if scope == GrantScope::Turn { "for the rest of a turn in " } else { "in " };
            view! {
                {words}
                <a href=format!("/?c={history}")>{title}</a>
            }
            .into_any()
        }
        (_, None) => view! { "in a conversation" }.into_any(),
    };
    let covers = grant.arguments.as_ref().map_or_else(|| "any arguments".into(), patterns_words);
    let until = match grant.expires.clone() {
        Some(expires) => view! {
            "until "
            <LocalTime iso=expires />
        }
        .into_any(),
        None => view! { "until revoked" }.into_any(),
    };
    let uses = match grant.uses {
        1 => "used once".to_string(),
        uses => format!("used {uses} times"),
    };
    let (id, relife_id, tool) = (grant.id.clone(), grant.id.clone(), grant.tool_name.clone());
    let editor = grant.arguments.clone().map(|patterns| {
        view! { <PatternsEditor id=grant.id.clone() patterns narrow /> }
    });
    view! {
        <li data-testid="grant">
            <bdi>{tool_words(&grant.tool_name, None)}</bdi>
            " ("
            <code>{grant.tool_name.clone()}</code>
            ") with "
            <bdi data-testid="grant-covers">{covers}</bdi>
            ", "
            {reach}
            ", "
            {until}
            " — "
            <span data-testid="grant-uses">{uses}</span>
            " "
            <label>
                <span class="visually-hidden">{format!("How long {tool} stays allowed")}</span>
                <select
                    data-testid="grant-relife"
                    on:change=move |event| {
                        let chosen = event_target_value(&event);
                        if chosen != "keep" {
                            let lifetime_seconds = chosen.parse().ok();
                            relife
                                .dispatch(SetGrantLifetime {
                                    id: relife_id.clone(),
                                    lifetime_seconds,
                                });
                        }
                    }
                >
                    <option value="keep" selected=true>
                        "Change how long…"
                    </option>
                    {LIFETIMES
                        .into_iter()
                        .map(|(seconds, words)| {
                            view! { <option value=seconds.to_string()>{format!("{words} from now")}</option> }
                        })
                        .collect_view()}
                    <option value="">"until I revoke it"</option>
                </select>
            </label>
            " "
            <button
                type="button"
                on:click=move |_| {
                    revoke.dispatch(RevokeGrant { id: id.clone() });
                }
            >
                "Revoke"
                <span class="visually-hidden">{format!(" {}", grant.tool_name)}</span>
            </button>
            {editor}
        </li>
    }
}

/// What a grant covers, editable: each pattern's folder, beginning or bounds, or any value.
#[component]
fn PatternsEditor(id: String, patterns: ArgumentPatterns, narrow: ServerAction<EditGrantPatterns>) -> impl IntoView {
    let rows: Vec<(String, RwSignal<ArgumentPattern>)> =
        patterns.into_iter().map(|(key, pattern)| (key, RwSignal::new(pattern))).collect();
    let rows = StoredValue::new(rows);
    let edited = move || -> ArgumentPatterns {
        rows.with_value(|rows| rows.iter().map(|(key, pattern)| (key.clone(), pattern.get())).collect())
    };
    let save = move |_| {
        let arguments = serde_json::to_string(&edited()).unwrap_or_default();
        narrow.dispatch(EditGrantPatterns { id: id.clone(), arguments });
    };
    view! {
        <details class="grant-edit" data-testid="grant-edit">
            <summary>"Edit what it covers"</summary>
            {rows
                .get_value()
                .into_iter()
                .map(|(key, pattern)| {
                    let variant = Memo::new(move |_| pattern.with(std::mem::discriminant));
                    let fields = move || {
                        variant.track();
                        pattern_fields(pattern)
                    };
                    // Drawn again when the pattern becomes another, not on each keystroke.
                    view! {
                        <p class="grant-edit__argument">
                            <code>{key}</code>
                            " "
                            {fields}
                            " "
                            <button type="button" on:click=move |_| pattern.set(ArgumentPattern::Any)>
                                "Any value"
                            </button>
                        </p>
                    }
                })
                .collect_view()}
            <p data-testid="grant-edit-words">{move || patterns_words(&edited())}</p>
            <button type="button" data-testid="grant-edit-save" on:click=save>
                "Save"
            </button>
        </details>
    }
}
