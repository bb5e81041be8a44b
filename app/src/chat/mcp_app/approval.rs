//! Palaver's card for an app's call of a tool that needs the person's approval: drawn by the
//! page (never by the app), under the app, naming the server whose app asks and the call with
//! every argument. Its answer goes to `POST /apps/approvals/{id}`, which runs the call once.

use leptos::prelude::*;

use crate::components::GuardedCallView;
use crate::words::reader_words;
use palaver_wire::apps::AppApproval;

#[component]
pub fn AppCallApproval(
    approval: AppApproval,
    /// The MCP server whose app makes the call.
    server: String,
    /// Called once with the person's answer: `true` to run the call.
    on_answer: Callback<bool>,
) -> impl IntoView {
    let words = reader_words();
    let answered = RwSignal::new(false);
    // The buttons wait a moment: an app that resized itself under the pointer just as the card
    // came cannot have its click land on them.
    let ready = RwSignal::new(false);
    Effect::new(move |_| {
        set_timeout(move || _ = ready.try_set(true), std::time::Duration::from_millis(600));
    });
    let answer = move |approve: bool| {
        if !answered.get_untracked() {
            answered.set(true);
            on_answer.run(approve);
        }
    };
    let title = words.with_text("app-call", "server", &server);
    let label = title.clone();
    view! {
        <section class="ask-card ask-card--pending mcp-app__approval" data-testid="app-call-approval" aria-label=label>
            <h3 class="ask-card__title">{title}</h3>
            <GuardedCallView call=approval.call words=words.clone() />
            <div class="ask-card__buttons" role="group" aria-label="Answers">
                {[(true, "primary", "approve", "allow-once"), (false, "cancel", "deny", "deny")]
                    .into_iter()
                    .map(|(approve, style, id, label)| {
                        view! {
                            <button
                                type="button"
                                class=format!("ask-button ask-button--{style}")
                                data-testid=format!("app-call-{id}")
                                disabled=move || answered.get() || !ready.get()
                                on:click=move |_| answer(approve)
                            >
                                {words.get(label)}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </section>
    }
}
