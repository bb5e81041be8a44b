//! Deciding several approvals of the inbox at once: the person ticks them, then approves or
//! denies them together. Each is its own answer on the server
//! (`POST /gpt/histories/pendingAsks/answers`), so the outcome says which were decided and why
//! any other could not be. Destructive approvals are not offered: those are decided one at a time.

use leptos::prelude::*;

use palaver_contract::asks::{AskKind, ButtonStyle};
use palaver_wire::batch::{BatchAnswer, BatchAnswers, BatchOutcome, BatchResults};
use palaver_wire::body::{Data, PendingAskEntry};
use palaver_wire::conversation::model::conversation_name;

/// The ids of one ask: its conversation's and its own.
pub(super) type AskKey = (String, String);

/// Whether the inbox offers `entry` for a batch decision: an approval (or a yes/no question)
/// answered by its card's two buttons, and not a destructive one.
pub(super) fn decidable_together(entry: &PendingAskEntry) -> bool {
    entry.kind == AskKind::Confirm
        && entry.routed.is_none()
        && !entry.simple.handoff
        && entry.simple.buttons.iter().any(|button| button.id == "approve" && button.style != ButtonStyle::Destructive)
        && entry.simple.buttons.iter().any(|button| button.id == "deny")
}

/// What the person reads after a batch: how many were decided, and each one that was not.
fn outcome_words(results: &[BatchOutcome], approve: bool, asks: &[PendingAskEntry]) -> String {
    let decided = results.iter().filter(|outcome| outcome.answered).count();
    let verb = if approve { "Approved" } else { "Denied" };
    let missed: Vec<String> = results
        .iter()
        .filter(|outcome| !outcome.answered)
        .map(|outcome| {
            let name = asks
                .iter()
                .find(|ask| ask.history_id == outcome.history_id)
                .map(|ask| ask.name.clone().unwrap_or_else(|| conversation_name(ask.title.as_deref(), None)))
                .unwrap_or_else(|| "A conversation".to_string());
            let why = match &outcome.problem {
                Some(problem) if problem.code.as_deref() == Some("ASK_EXPIRED") => "it had expired".to_string(),
                Some(problem) if problem.status == 409 => "it was already answered".to_string(),
                Some(problem) => problem.detail.clone().unwrap_or_else(|| problem.title.clone()),
                None => "no reason was given".to_string(),
            };
            format!("{name}: {why}")
        })
        .collect();
    match missed.len() {
        0 => format!("{verb} {decided}."),
        count => format!("{verb} {decided}. {count} could not be: {}.", missed.join("; ")),
    }
}

/// The bar that decides the ticked asks, and what the last decision came to.
#[component]
pub(super) fn BatchBar(
    asks: RwSignal<Vec<PendingAskEntry>>,
    selected: RwSignal<Vec<AskKey>>,
    busy: RwSignal<bool>,
    #[prop(into)] on_done: Callback<()>,
) -> impl IntoView {
    let outcome = RwSignal::new(None::<String>);
    let decide = move |approve: bool| {
        let button_id = if approve { "approve" } else { "deny" };
        let answers = selected
            .get_untracked()
            .into_iter()
            .map(|(history_id, tool_call_id)| BatchAnswer { history_id, tool_call_id, button_id: button_id.into() })
            .collect();
        let shown = asks.get_untracked();
        busy.set(true);
        leptos::task::spawn_local(async move {
            let body = BatchAnswers { answers };
            let sent = crate::http::send::<_, Data<BatchResults>>("POST", "/gpt/histories/pendingAsks/answers", &body);
            outcome.set(Some(match sent.await {
                Ok(Data { data }) => outcome_words(&data.results, approve, &shown),
                Err(message) => message,
            }));
            selected.set(Vec::new());
            busy.set(false);
            on_done.run(());
        });
    };
    view! {
        <Show when=move || !selected.with(Vec::is_empty)>
            <div class="inbox__batch" role="group" aria-label="Decide the ticked approvals">
                <span class="inbox__batch-count">{move || format!("{} ticked", selected.with(Vec::len))}</span>
                {[
                    (true, "ask-button ask-button--primary", "inbox-approve-ticked", "Approve ticked"),
                    (false, "ask-button", "inbox-deny-ticked", "Deny ticked"),
                ]
                    .into_iter()
                    .map(|(approve, class, testid, label)| {
                        view! {
                            <button
                                type="button"
                                class=class
                                data-testid=testid
                                disabled=move || busy.get()
                                on:click=move |_| decide(approve)
                            >
                                {label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </Show>
        {move || {
            outcome
                .get()
                .map(|text| {
                    view! {
                        <p class="inbox__outcome" role="status" data-testid="inbox-outcome">
                            {text}
                        </p>
                    }
                })
        }}
    }
}

/// The tick box of one ask the inbox offers for a batch decision.
#[component]
pub(super) fn BatchTick(key: AskKey, selected: RwSignal<Vec<AskKey>>, busy: RwSignal<bool>) -> impl IntoView {
    let ticked = {
        let key = key.clone();
        move || selected.with(|selected| selected.contains(&key))
    };
    let toggle = move |_| {
        selected.update(|selected| match selected.iter().position(|ticked| *ticked == key) {
            Some(at) => {
                selected.remove(at);
            }
            None => selected.push(key.clone()),
        })
    };
    view! {
        <label class="inbox__tick">
            <input
                type="checkbox"
                data-testid="inbox-tick"
                prop:checked=ticked
                disabled=move || busy.get()
                on:change=toggle
            />
            <span class="visually-hidden">"Tick to decide with the others"</span>
        </label>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_wire::batch::BatchProblem;

    fn outcome(history_id: &str, problem: Option<(u16, Option<&str>)>) -> BatchOutcome {
        BatchOutcome {
            history_id: history_id.into(),
            tool_call_id: "call".into(),
            answered: problem.is_none(),
            problem: problem.map(|(status, code)| BatchProblem {
                status,
                title: "This ask is no longer pending".into(),
                detail: None,
                code: code.map(str::to_owned),
            }),
        }
    }

    #[test]
    fn the_outcome_names_each_ask_that_could_not_be_decided_and_why() {
        let results =
            [outcome("a", None), outcome("b", Some((409, None))), outcome("c", Some((409, Some("ASK_EXPIRED"))))];
        assert_eq!(
            outcome_words(&results, true, &[]),
            "Approved 1. 2 could not be: A conversation: it was already answered; A conversation: it had expired."
        );
        assert_eq!(outcome_words(&results[..1], false, &[]), "Denied 1.");
    }
}
