//! The inbox's approvals routed to the reader by an admin's rule: others' calls, each with who
//! asked, in which conversation, the tool and every argument, and its approve and deny
//! buttons (`POST /gpt/approvals/answer`). The reader cannot open those conversations: the
//! answer is given here, and the person who asked sees it on their card.

use leptos::prelude::*;

use super::inbox_buttons::InboxButtons;
use crate::components::{ErrorLine, GuardedCallView, PalaverStrip, impact_lines};
use palaver_wire::batch::BatchAnswer;
use palaver_wire::body::{ApprovalDecision, Data, WaitingApproval};

/// The approvals waiting for the reader, fetched again on `refresh`.
pub(super) async fn fetch_waiting() -> Result<Vec<WaitingApproval>, String> {
    crate::http::get::<Data<Vec<WaitingApproval>>>("/gpt/approvals/waiting").await.map(|Data { data }| data)
}

#[component]
pub(super) fn RoutedApprovals(approvals: RwSignal<Vec<WaitingApproval>>, on_done: Callback<()>) -> impl IntoView {
    let (busy, error, told) = (RwSignal::new(false), RwSignal::new(None::<String>), RwSignal::new(None::<String>));
    let press = move |approval: &WaitingApproval, button_id: String| {
        let body = BatchAnswer {
            history_id: approval.history_id.clone(),
            tool_call_id: approval.tool_call_id.clone(),
            button_id: button_id.clone(),
        };
        busy.set(true);
        error.set(None);
        told.set(None);
        leptos::task::spawn_local(async move {
            match crate::http::send::<_, Data<ApprovalDecision>>("POST", "/gpt/approvals/answer", &body).await {
                Ok(Data { data }) if !data.decided => {
                    told.set(Some("Your approval is recorded: the call runs once a second approver approves.".into()));
                }
                Ok(_) if button_id == "deny" => told.set(Some("Denied: the call does not run.".into())),
                Ok(_) => told.set(Some("Approved: the call runs.".into())),
                Err(message) => error.set(Some(message)),
            }
            busy.set(false);
            on_done.run(());
        });
    };
    view! {
        <Show when=move || !approvals.with(Vec::is_empty) || told.with(Option::is_some)>
            <section class="inbox__routed" aria-label="Approvals for you" data-testid="inbox-routed">
                <h3>"Approvals for you"</h3>
                <ErrorLine message=error />
                {move || {
                    told.get()
                        .map(|told| {
                            view! {
                                <p role="status" data-testid="inbox-routed-told">
                                    {told}
                                </p>
                            }
                        })
                }}
                <ul class="inbox__list">
                    <For
                        each=move || approvals.get()
                        key=|approval| (approval.tool_call_id.clone(), approval.routed.first_approver.clone())
                        let(approval)
                    >
                        {
                            let words = crate::words::reader_words();
                            let said = (approval.impact.is_some() || approval.tool_hints.is_some())
                                .then(|| {
                                    let lines = impact_lines(
                                        approval.impact.as_ref(),
                                        approval.tool_hints.as_ref(),
                                        &words,
                                    );
                                    view! { <PalaverStrip>{lines}</PalaverStrip> }
                                });
                            let call = approval.call.clone().map(|call| view! { <GuardedCallView call words /> });
                            let waiting = approval
                                .routed
                                .first_approver_name
                                .is_some()
                                .then(|| {
                                    view! { <p class="inbox__meta">{approval.routed.waiting_words()}</p> }
                                });
                            let approval = StoredValue::new(approval);
                            view! {
                                <li class="inbox__item" data-testid="inbox-routed-item">
                                    <p>
                                        <bdi>{approval.with_value(|a| a.requester.clone())}</bdi>
                                        " asks: "
                                        <bdi>{approval.with_value(|a| a.prompt.clone())}</bdi>
                                    </p>
                                    <span class="inbox__meta">
                                        "In “" <bdi>{approval.with_value(|a| a.name.clone())}</bdi> "”"
                                    </span>
                                    {said}
                                    {call}
                                    {waiting}
                                    <InboxButtons
                                        buttons=approval.with_value(|a| a.simple.buttons.clone())
                                        testid="inbox-routed"
                                        busy
                                        on_press=Callback::new(move |id: String| approval.with_value(|a| press(a, id)))
                                    />
                                </li>
                            }
                        }
                    </For>
                </ul>
            </section>
        </Show>
    }
}
