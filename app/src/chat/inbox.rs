//! "Needs your input": the header's count of the asks waiting across every conversation (also
//! in the tab's title), opening a list of them — title, conversation, age, time left, and for
//! an approval its tool and every argument — that jumps to each card. A simple card's buttons
//! answer from the list (the headless turn, as the watch does); approvals can be ticked and
//! decided together (`inbox_batch`). Approvals an admin routed to the reader come first
//! (`inbox_routed`). Kept current by the live events, and every half minute for the routed
//! ones (they are on others' conversations, whose events the reader does not get).

use leptos::prelude::*;

use super::inbox_batch::{AskKey, BatchBar, BatchTick, decidable_together};
use super::inbox_buttons::InboxButtons;
use super::inbox_routed::{RoutedApprovals, fetch_waiting};
use crate::components::{ErrorLine, GuardedCallView, VisibleText};
use palaver_contract::asks::AskSurface;
use palaver_contract::visible::Layout;
use palaver_wire::body::{AskAdditions, Data, HeadlessTurnBody, PendingAskEntry, TurnResult};
use palaver_wire::conversation::deadline;
use palaver_wire::conversation::model::conversation_name;
use palaver_wire::live::LiveEvent;

/// The inbox, for a signed-in user (the header shows it only then).
#[component]
pub fn Inbox() -> impl IntoView {
    let asks = RwSignal::new(Vec::<PendingAskEntry>::new());
    let routed = RwSignal::new(Vec::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    // The asks ticked for a batch decision, as long as they wait.
    let selected = RwSignal::new(Vec::<AskKey>::new());
    let now = RwSignal::new(0_i64);
    // Live events can start refreshes that overlap: only the newest one's answer is shown, so
    // an older answer arriving last (a title not set yet) cannot undo it.
    let newest = StoredValue::new(0_u64);
    let refresh = move || {
        let this = newest.get_value() + 1;
        newest.set_value(this);
        leptos::task::spawn_local(async move {
            let fetched = crate::http::get::<Data<Vec<PendingAskEntry>>>(&AskAdditions::pending_asks_url()).await;
            let routed_fetched = fetch_waiting().await;
            if newest.get_value() != this {
                return;
            }
            match routed_fetched {
                Ok(waiting) => routed.set(waiting),
                Err(message) => error.set(Some(message)),
            }
            match fetched {
                Ok(Data { data }) => {
                    now.set(crate::browser::now_ms());
                    selected.update(|ticked| {
                        ticked.retain(|(history, call)| {
                            data.iter().any(|ask| &ask.history_id == history && &ask.tool_call_id == call)
                        })
                    });
                    asks.set(data);
                }
                Err(message) => error.set(Some(message)),
            }
        });
    };
    // Effects run only in the browser.
    Effect::new(move |_| {
        refresh();
        crate::browser::listen_live(move |event| {
            if matches!(
                event,
                LiveEvent::AskCreated(_)
                    | LiveEvent::AskResolved(_)
                    | LiveEvent::HistoryChanged(_)
                    | LiveEvent::Resync(_)
            ) {
                refresh();
            }
        });
        let tick = move || {
            now.set(crate::browser::now_ms());
            refresh();
        };
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_secs(30)) {
            on_cleanup(move || handle.clear());
        }
    });
    if let Some(title) = crate::page_title::PageTitle::get() {
        Effect::new(move |_| title.waiting.set(asks.with(Vec::len) + routed.with(Vec::len)));
    }
    let details = NodeRef::<leptos::html::Details>::new();
    let close = move || {
        if let Some(details) = details.get_untracked() {
            details.set_open(false);
        }
    };
    let press = move |conversation_id: String, tool_call_id: String, button_id: String| {
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let body = HeadlessTurnBody {
                tool_call_id: Some(tool_call_id),
                button_id: Some(button_id),
                surface: Some(AskSurface::Full),
                ..Default::default()
            };
            let url = format!("/gpt/histories/{conversation_id}/turn");
            if let Err(message) = crate::http::send::<_, Data<TurnResult>>("POST", &url, &body).await {
                error.set(Some(message));
            }
            busy.set(false);
            refresh();
        });
    };
    let waiting = move || asks.with(Vec::len) + routed.with(Vec::len);
    view! {
        <details class="inbox" data-testid="inbox" node_ref=details>
            <summary class="inbox__toggle">
                <span class="inbox__label">"Needs your input"</span>
                // The count shows only when something waits; a screen reader hears it either way.
                <span class="visually-hidden">
                    {move || match waiting() {
                        0 => ", nothing waiting".to_string(),
                        count => format!(", {count} waiting"),
                    }}
                </span>
                <Show when=move || waiting() != 0>
                    <span class="inbox__count" data-testid="inbox-count" aria-hidden="true">
                        {waiting}
                    </span>
                </Show>
            </summary>
            <div class="inbox__panel">
                <ErrorLine message=error />
                <RoutedApprovals approvals=routed on_done=Callback::new(move |()| refresh()) />
                <BatchBar asks selected busy on_done=move |()| refresh() />
                <Show
                    when=move || !asks.with(Vec::is_empty)
                    fallback=move || {
                        routed
                            .with(Vec::is_empty)
                            .then(|| view! { <p class="inbox__empty">"Nothing waits for you."</p> })
                    }
                >
                    <ul class="inbox__list">
                        <For
                            each=move || asks.get()
                            key=|ask| (ask.history_id.clone(), ask.tool_call_id.clone())
                            let(ask)
                        >
                            {
                                let heading = ask.simple.title.clone().unwrap_or_else(|| ask.simple.text.clone());
                                let conversation_title = ask
                                    .name
                                    .clone()
                                    .unwrap_or_else(|| conversation_name(ask.title.as_deref(), None));
                                let asked = deadline::epoch_ms(&ask.created);
                                let expires = ask.expires_at.as_deref().and_then(deadline::epoch_ms);
                                let words = crate::words::reader_words();
                                let when = move || {
                                    let age = asked.map(|asked| format!("asked {}", deadline::age(now.get() - asked)));
                                    let left = expires
                                        .and_then(|expires| deadline::time_left(expires - now.get(), &words));
                                    [age, left].into_iter().flatten().collect::<Vec<_>>().join(" · ")
                                };
                                let routed = ask
                                    .routed
                                    .as_ref()
                                    .map(|routed| {
                                        // An approval routed to someone else is theirs to answer.
                                        view! {
                                            <span class="inbox__meta" data-testid="inbox-waiting-for">
                                                {routed.waiting_words()}
                                            </span>
                                        }
                                    });
                                let buttons = if ask.simple.handoff || ask.routed.is_some() {
                                    Vec::new()
                                } else {
                                    ask.simple.buttons.clone()
                                };
                                let card_words = palaver_wire::words::Words::for_ask(
                                    ask.locale.as_deref(),
                                    &crate::words::reader_words(),
                                );
                                let call = ask
                                    .call
                                    .clone()
                                    .map(|call| view! { <GuardedCallView call words=card_words /> });
                                let (conversation_id, tool_call_id) = (
                                    ask.history_id.clone(),
                                    ask.tool_call_id.clone(),
                                );
                                let tick = decidable_together(&ask)
                                    .then(|| {
                                        let key = (conversation_id.clone(), tool_call_id.clone());
                                        view! { <BatchTick key selected busy /> }
                                    });
                                view! {
                                    <li class="inbox__item" data-testid="inbox-item">
                                        {tick}
                                        <a
                                            class="inbox__open"
                                            href=format!("/?c={}", ask.history_id)
                                            on:click=move |_| close()
                                        >
                                            <VisibleText text=heading layout=Layout::Prose />
                                        </a>
                                        <span class="inbox__meta">{conversation_title} " · " {when}</span>
                                        {call}
                                        {routed}
                                        <InboxButtons
                                            buttons
                                            testid="inbox-button"
                                            busy
                                            on_press=Callback::new(move |id: String| press(
                                                conversation_id.clone(),
                                                tool_call_id.clone(),
                                                id,
                                            ))
                                        />
                                    </li>
                                }
                            }
                        </For>
                    </ul>
                </Show>
            </div>
        </details>
    }
}
