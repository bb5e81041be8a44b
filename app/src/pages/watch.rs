//! `/watch`: a watch-sized frame that answers pending asks through the headless API only
//! (`GET /gpt/histories/pendingAsks`, `POST /gpt/histories/:id/turn`) and hears of new ones
//! from the live events (`GET /gpt/events`), as a native watch client would: no server
//! functions.

use leptos::prelude::*;

use crate::components::SimpleCardView;
use palaver_contract::asks::{AskSurface, SimpleCardButton};
use palaver_wire::body::{AskAdditions, Data, HeadlessTurnBody, PendingAskEntry, TurnResult};
use palaver_wire::conversation::deadline;
use palaver_wire::conversation::document::HistoryDocument;
use palaver_wire::conversation::plain::plain_text;
use palaver_wire::live::LiveEvent;

#[component]
pub fn WatchPage() -> impl IntoView {
    let asks = RwSignal::new(Vec::<PendingAskEntry>::new());
    let reply = RwSignal::new(None::<String>);
    // The MCP servers whose apps the last reply drew: the watch cannot draw them, and says so.
    let apps = RwSignal::new(Vec::<String>::new());
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let loaded = RwSignal::new(false);
    // The conversation the watch's own prompts go to, made on the first one.
    let conversation = RwSignal::new(None::<String>);

    let refresh = move || {
        leptos::task::spawn_local(async move {
            match crate::http::get::<Data<Vec<PendingAskEntry>>>(&AskAdditions::pending_asks_url()).await {
                Ok(Data { data }) => {
                    asks.set(data);
                    loaded.set(true);
                }
                Err(message) => error.set(Some(message)),
            }
        });
    };
    // Effects run only in the browser. New asks, and asks answered elsewhere, show without a
    // reload; the listening ends with the page.
    // The clock the time left is read against.
    let now = RwSignal::new(0_i64);
    Effect::new(move |_| {
        refresh();
        now.set(crate::browser::now_ms());
        if let Ok(handle) =
            set_interval_with_handle(move || now.set(crate::browser::now_ms()), std::time::Duration::from_secs(15))
        {
            on_cleanup(move || handle.clear());
        }
        crate::browser::listen_live(move |event| {
            if matches!(event, LiveEvent::AskCreated(_) | LiveEvent::AskResolved(_) | LiveEvent::Resync(_)) {
                refresh();
            }
        });
    });

    let run_turn = move |conversation_id: String, body: HeadlessTurnBody| {
        busy.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let url = format!("/gpt/histories/{conversation_id}/turn?include=apps");
            match crate::http::send::<_, Data<TurnResult>>("POST", &url, &body).await {
                Ok(Data { data }) => {
                    // A watch shows text: the reply's markdown is read as plain text.
                    reply.set(Some(plain_text(&data.text)).filter(|text| !text.is_empty()));
                    apps.set(data.apps);
                    error.set(data.error);
                }
                Err(message) => error.set(Some(message)),
            }
            busy.set(false);
            refresh();
        });
    };

    let draft = RwSignal::new(String::new());
    let send_prompt = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() {
            return;
        }
        draft.set(String::new());
        let body = HeadlessTurnBody { prompt: Some(prompt), surface: Some(AskSurface::Compact), ..Default::default() };
        match conversation.get_untracked() {
            Some(id) => run_turn(id, body),
            None => {
                leptos::task::spawn_local(async move {
                    let empty = serde_json::Map::new();
                    match crate::http::send::<_, Data<HistoryDocument>>("POST", "/gpt/histories", &empty).await {
                        Ok(Data { data }) => {
                            conversation.set(Some(data.id.clone()));
                            run_turn(data.id, body);
                        }
                        Err(message) => error.set(Some(message)),
                    }
                });
            }
        }
    };

    view! {
        <main class="watch-page">
            <h1 class="visually-hidden">"Watch preview"</h1>
            <div class="watch" data-testid="watch">
                {move || {
                    error
                        .get()
                        .map(|message| {
                            view! {
                                <p class="watch__error" role="alert">
                                    {message}
                                </p>
                            }
                        })
                }}
                {move || {
                    reply
                        .get()
                        .map(|text| {
                            view! {
                                <p class="watch__reply" data-testid="watch-reply" aria-live="polite">
                                    {text}
                                </p>
                            }
                        })
                }}
                {move || {
                    apps.get()
                        .into_iter()
                        .map(|server| {
                            view! {
                                <p class="watch__deadline" data-testid="watch-app">
                                    {format!(
                                        "The reply has an app of the MCP server \"{server}\": open Palaver on a larger screen to use it.",
                                    )}
                                </p>
                            }
                        })
                        .collect_view()
                }}
                {move || match asks.get().into_iter().next() {
                    Some(item) => {
                        let (conversation_id, tool_call_id) = (item.history_id.clone(), item.tool_call_id.clone());
                        let press = Callback::new(move |button: SimpleCardButton| run_turn(
                            conversation_id.clone(),
                            HeadlessTurnBody {
                                tool_call_id: Some(tool_call_id.clone()),
                                button_id: Some(button.id),
                                surface: Some(AskSurface::Compact),
                                ..Default::default()
                            },
                        ));
                        let expires_at = item.expires_at.as_deref().and_then(deadline::epoch_ms);
                        let words = palaver_wire::words::Words::for_ask(
                            item.locale.as_deref(),
                            &crate::words::reader_words(),
                        );
                        let time_left = move || {
                            expires_at.and_then(|deadline| deadline::time_left(deadline - now.get(), &words))
                        };
                        let mut card = item.simple;
                        let waiting_for = item
                            .routed
                            .map(|routed| {
                                card.buttons.clear();
                                // An approval routed to someone else is theirs to answer: no buttons here.
                                view! {
                                    <p class="watch__deadline" data-testid="watch-waiting-for">
                                        {routed.waiting_words()}
                                    </p>
                                }
                            });
                        view! {
                            {waiting_for}
                            <SimpleCardView
                                card
                                fallback_title=item.name.or(item.title)
                                on_press=press
                                disabled=busy
                                locale=item.locale
                                call=item.call
                            />
                            {move || {
                                time_left()
                                    .map(|text| {
                                        view! {
                                            <p class="watch__deadline" data-testid="watch-deadline">
                                                {text}
                                            </p>
                                        }
                                    })
                            }}
                        }
                            .into_any()
                    }
                    None => {
                        view! {
                            <p class="watch__empty">
                                {move || if loaded.get() { "Nothing to answer." } else { "Loading…" }}
                            </p>
                        }
                            .into_any()
                    }
                }}
                <form
                    class="watch__composer"
                    on:submit=move |event| {
                        event.prevent_default();
                        send_prompt();
                    }
                >
                    <label class="visually-hidden" for="watch-input">
                        "Message"
                    </label>
                    <input
                        id="watch-input"
                        type="text"
                        placeholder="Ask…"
                        prop:value=move || draft.get()
                        on:input=move |event| draft.set(event_target_value(&event))
                    />
                    <button type="submit" disabled=move || busy.get()>
                        "Send"
                    </button>
                </form>
            </div>
            <p>
                <a href="/">"Back to the chat"</a>
            </p>
        </main>
    }
}
