//! The grants an approval card offers: "Allow in this conversation", "Always allow <tool>", and
//! the grant editor: a grant proposed from the call (its folder for a path,
//! its site for a URL, the value itself for the rest), each argument's pattern editable, with
//! a scope and a lifetime, and the grant in words as it stands. "Allow as described" is enabled
//! only while the grant is one the server takes: every pattern fits its argument and the grant
//! covers the call being approved.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::AnswerChannel;
use crate::grants::pattern_fields;
use palaver_wire::body::CallArgument;
use palaver_wire::grants::{
    ArgumentKind, ArgumentPattern, ArgumentPatterns, GrantRequest, GrantScope, LIFETIMES, covers_call,
};
use palaver_wire::words::Words;

/// What an approval that offers grants shows of them: its tool in words and the call's
/// arguments.
#[derive(Clone)]
pub(super) struct Grants {
    pub(super) tool: String,
    pub(super) arguments: Vec<CallArgument>,
}

/// The quick grants of a whole tool, then the editor of a narrower one.
#[component]
pub(super) fn GrantChoices(
    grants: Grants,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: Words,
) -> impl IntoView {
    let Grants { tool, arguments } = grants;
    let (allow_here, always) = (words.get("allow-in-conversation"), words.get("always-allow"));
    let grant_button = move |scope: &'static str, label: AnyView| {
        view! {
            <button
                type="button"
                class="ask-button"
                data-testid=format!("ask-grant-{scope}")
                disabled=move || channel.busy.get()
                on:click=move |_| {
                    answer.run(json!({"action": "accept", "content": {"confirmed": true}, "grant": scope}))
                }
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="ask-card__buttons" role="group" aria-label="Allow later calls">
            {grant_button("conversation", allow_here.into_any())}
            {grant_button(
                "always",
                view! {
                    {always}
                    " "
                    <bdi>{tool.clone()}</bdi>
                }
                    .into_any(),
            )}
        </div>
        <GrantEditor tool arguments answer channel />
    }
}

/// One argument's row: its options (the first proposed) and the pattern as edited.
#[derive(Clone)]
struct ArgumentRow {
    argument: CallArgument,
    options: Vec<ArgumentPattern>,
    chosen: RwSignal<ArgumentPattern>,
}

impl ArgumentRow {
    fn kind(&self) -> ArgumentKind {
        self.argument.kind.unwrap_or(ArgumentKind::Text)
    }
}

#[component]
fn GrantEditor(
    /// The tool in words.
    tool: String,
    arguments: Vec<CallArgument>,
    answer: Callback<Value>,
    channel: AnswerChannel,
) -> impl IntoView {
    let rows: Vec<ArgumentRow> = arguments
        .into_iter()
        .map(|argument| {
            let kind = argument.kind.unwrap_or(ArgumentKind::Text);
            let options = ArgumentPattern::options(kind, &argument.value, &argument.choices);
            let chosen = RwSignal::new(options[0].clone());
            ArgumentRow { argument, options, chosen }
        })
        .collect();
    let call: Value = rows.iter().map(|row| (row.argument.key.clone(), row.argument.value.clone())).collect();
    let scope = RwSignal::new(GrantScope::Conversation);
    let lifetime = RwSignal::new(Some(LIFETIMES[1].0));
    let rows = StoredValue::new(rows);
    let request = Memo::new(move |_| {
        let arguments: ArgumentPatterns =
            rows.with_value(|rows| rows.iter().map(|row| (row.argument.key.clone(), row.chosen.get())).collect());
        GrantRequest { scope: scope.get(), lifetime_seconds: lifetime.get(), arguments: Some(arguments) }
    });
    // Why the server would refuse the grant as it stands, in words.
    let problem = Memo::new(move |_| {
        let refused = rows.with_value(|rows| {
            rows.iter().find_map(|row| {
                row.chosen.with(|pattern| pattern.fits(row.kind()).err()).map(|why| (row.argument.key.clone(), why))
            })
        });
        if let Some((key, why)) = refused {
            return Some(format!("{key}: {why}"));
        }
        let covered =
            request.with(|request| request.arguments.as_ref().is_some_and(|patterns| covers_call(patterns, &call)));
        (!covered).then(|| "The grant must cover the call you are approving.".to_string())
    });
    let words = move || request.with(|request| request.words(&tool));
    let allow = move |_| {
        let grant = request.get_untracked();
        answer.run(json!({"action": "accept", "content": {"confirmed": true}, "grant": grant}));
    };
    view! {
        <details class="grant-editor" data-testid="grant-editor">
            <summary>"Allow calls like this…"</summary>
            <fieldset>
                <legend>"What it covers"</legend>
                {rows.get_value().into_iter().map(|row| view! { <ArgumentPatternRow row /> }).collect_view()}
            </fieldset>
            <label>
                "Where "
                <select
                    data-testid="grant-scope"
                    on:change=move |event| {
                        if let Some(chosen) = GrantScope::parse(&event_target_value(&event)) {
                            scope.set(chosen);
                        }
                    }
                    prop:value=move || scope.get().as_str()
                >
                    {[GrantScope::Turn, GrantScope::Conversation, GrantScope::Always]
                        .into_iter()
                        .map(|option| view! { <option value=option.as_str()>{option.reach_words()}</option> })
                        .collect_view()}
                </select>
            </label>
            <label>
                " How long "
                <select
                    data-testid="grant-lifetime"
                    on:change=move |event| lifetime.set(event_target_value(&event).parse().ok())
                    prop:value=move || lifetime.get().map(|seconds| seconds.to_string()).unwrap_or_default()
                >
                    {LIFETIMES
                        .into_iter()
                        .map(|(seconds, words)| {
                            view! { <option value=seconds.to_string()>{format!("for {words}")}</option> }
                        })
                        .collect_view()}
                    <option value="">"until I revoke it"</option>
                </select>
            </label>
            <p class="grant-editor__words" data-testid="grant-words" aria-live="polite">
                "Allows "
                <bdi>{words}</bdi>
                "."
            </p>
            {move || {
                problem
                    .get()
                    .map(|problem| {
                        view! {
                            <p class="field-error" data-testid="grant-problem">
                                {problem}
                            </p>
                        }
                    })
            }}
            <button
                type="button"
                class="ask-button"
                data-testid="ask-grant-custom"
                disabled=move || channel.busy.get() || problem.with(Option::is_some)
                on:click=allow
            >
                "Allow as described"
            </button>
        </details>
    }
}

/// One argument: which of its options, and the option's text or bounds where it has them.
#[component]
fn ArgumentPatternRow(row: ArgumentRow) -> impl IntoView {
    let ArgumentRow { argument, options, chosen } = row;
    let key = argument.key.clone();
    let labels: Vec<String> =
        options.iter().map(|option| option.words(&key).unwrap_or_else(|| format!("{key} any value"))).collect();
    let options = StoredValue::new(options);
    let selected = move || {
        options.with_value(|options| options.iter().position(|option| same_kind(option, &chosen.get())).unwrap_or(0))
    };
    // The fields are drawn again when another option is chosen, not on each keystroke.
    let variant = Memo::new(move |_| chosen.with(std::mem::discriminant));
    view! {
        <div class="grant-editor__argument" data-testid=format!("grant-argument-{}", argument.key)>
            <select
                aria-label=format!("What {key} may be")
                on:change=move |event| {
                    let index: usize = event_target_value(&event).parse().unwrap_or(0);
                    if let Some(option) = options.with_value(|options| options.get(index).cloned()) {
                        chosen.set(option);
                    }
                }
                prop:value=move || selected().to_string()
            >
                {labels
                    .into_iter()
                    .enumerate()
                    .map(|(index, label)| view! { <option value=index.to_string()>{label}</option> })
                    .collect_view()}
            </select>
            {move || {
                variant.track();
                pattern_fields(chosen)
            }}
        </div>
    }
}

/// Whether two patterns are the same option (the same variant), whatever their text.
fn same_kind(left: &ArgumentPattern, right: &ArgumentPattern) -> bool {
    std::mem::discriminant(left) == std::mem::discriminant(right)
}
