//! The chat page: conversation list, transcript and composer.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::api::{get_history, list_histories};
use super::model::{HistoryRow, HistorySummary, HistoryView};
use crate::error::AppError;
use crate::markdown;

/// A message of the running turn, shown until the reloaded conversation replaces it.
#[derive(Clone, Debug, PartialEq)]
struct LiveTurn {
    prompt: String,
    reply: String,
    error: Option<String>,
}

#[component]
pub fn ChatPage() -> impl IntoView {
    let query = use_query_map();
    let history_id = Memo::new(move |_| query.read().get("c").filter(|id| !id.is_empty()));
    // Bumped after each turn so the list and the transcript load what the turn saved.
    let version = RwSignal::new(0_u32);
    let histories = Resource::new(move || version.get(), |_| list_histories());
    let history = Resource::new(
        move || (history_id.get(), version.get()),
        |(id, version)| async move {
            let view = match id {
                Some(id) => get_history(id).await.map(Some),
                None => Ok(None),
            };
            (version, view)
        },
    );
    let live = RwSignal::new(None::<LiveTurn>);
    let busy = RwSignal::new(false);

    // Once the conversation has reloaded after a finished turn, the saved rows replace the live turn.
    Effect::new(move |_| {
        if let Some((loaded, _)) = history.get()
            && loaded == version.get_untracked()
            && !busy.get_untracked()
        {
            live.set(None);
        }
    });

    let send = move |prompt: String| {
        busy.set(true);
        live.set(Some(LiveTurn { prompt: prompt.clone(), reply: String::new(), error: None }));
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(run_turn(history_id.get_untracked(), prompt, live, busy, version));
    };

    view! {
        <div class="chat">
            <ConversationList histories current=history_id />
            <main class="chat__main">
                <section class="transcript" aria-label="Conversation" data-testid="transcript">
                    <Transition fallback=|| view! { <p class="transcript__empty">"Loading…"</p> }>
                        {move || Suspend::new(async move {
                            let (_, view) = history.await;
                            view! { <SavedRows view /> }
                        })}
                    </Transition>
                    {move || live.get().map(|turn| view! { <LiveTurnView turn busy /> })}
                </section>
                <Composer busy on_send=send />
            </main>
        </div>
    }
}

#[cfg(feature = "hydrate")]
async fn run_turn(
    history_id: Option<String>,
    prompt: String,
    live: RwSignal<Option<LiveTurn>>,
    busy: RwSignal<bool>,
    version: RwSignal<u32>,
) {
    use super::model::TurnEvent;
    let new_conversation = history_id.is_none();
    let mut body = serde_json::json!({ "prompt": prompt });
    if let Some(id) = history_id {
        body["historyId"] = id.into();
    }
    let mut finished_in = None;
    let result = super::stream::send_prompt(&body, |event| match event {
        TurnEvent::Text { text } => live.update(|turn| {
            if let Some(turn) = turn {
                turn.reply.push_str(&text);
            }
        }),
        TurnEvent::Error { error } => live.update(|turn| {
            if let Some(turn) = turn {
                turn.error = Some(error);
            }
        }),
        TurnEvent::Done { history_id, .. } => finished_in = Some(history_id),
    })
    .await;
    if let Err(error) = result {
        live.update(|turn| {
            if let Some(turn) = turn {
                turn.error = Some(error);
            }
        });
    }
    busy.set(false);
    if let Some(id) = finished_in.filter(|_| new_conversation) {
        let navigate = leptos_router::hooks::use_navigate();
        navigate(&format!("/?c={id}"), Default::default());
    }
    version.update(|version| *version += 1);
}

#[component]
fn ConversationList(
    histories: Resource<Result<Vec<HistorySummary>, AppError>>,
    current: Memo<Option<String>>,
) -> impl IntoView {
    view! {
        <nav class="conversations" aria-label="Conversations">
            <a class="conversations__new" href="/" data-testid="new-chat">"New chat"</a>
            <Transition fallback=|| ()>
                {move || Suspend::new(async move {
                    match histories.await {
                        Ok(list) => view! {
                            <ul class="conversations__list">
                                {list.into_iter().map(|history| {
                                    let id = history.id.clone();
                                    let is_current = move || current.get().as_deref() == Some(id.as_str());
                                    view! {
                                        <li>
                                            <a
                                                href=format!("/?c={}", history.id)
                                                class="conversations__item"
                                                aria-current=move || is_current().then_some("page")
                                            >
                                                {history.title.unwrap_or_else(|| "New conversation".to_string())}
                                            </a>
                                        </li>
                                    }
                                }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(err) => view! { <p class="error">{err.to_string()}</p> }.into_any(),
                    }
                })}
            </Transition>
        </nav>
    }
}

#[component]
fn SavedRows(view: Result<Option<HistoryView>, AppError>) -> impl IntoView {
    match view {
        Ok(Some(history)) => history
            .rows
            .into_iter()
            .map(|row| match row {
                HistoryRow::User { text } => view! { <UserMessage text /> }.into_any(),
                HistoryRow::Assistant { text } => view! { <AssistantMessage text /> }.into_any(),
                HistoryRow::ToolCall { tool_name, ask, .. } => {
                    view! { <ToolLine tool_name asked=ask.is_some() /> }.into_any()
                }
                HistoryRow::ToolResult { .. } => ().into_any(),
            })
            .collect_view()
            .into_any(),
        Ok(None) => view! {
            <p class="transcript__empty">"Start a conversation: type a message below. Try “help”."</p>
        }
        .into_any(),
        Err(err) => view! { <p class="error" role="alert">{err.to_string()}</p> }.into_any(),
    }
}

/// A compact line for a tool the agent used (asks get their own cards in the chat UI).
#[component]
fn ToolLine(tool_name: String, asked: bool) -> impl IntoView {
    let label = if asked { "Asked you" } else { "Used" };
    view! { <p class="tool-line" data-testid="tool-line">{label} " " <code>{tool_name}</code></p> }
}

#[component]
fn UserMessage(text: String) -> impl IntoView {
    view! {
        <article class="message message--user" data-testid="user-message">
            <p class="message__text">{text}</p>
        </article>
    }
}

#[component]
fn AssistantMessage(text: String) -> impl IntoView {
    view! {
        <article class="message message--assistant" data-testid="assistant-message">
            <div class="markdown" inner_html=markdown::to_html(&text)></div>
        </article>
    }
}

#[component]
fn LiveTurnView(turn: LiveTurn, busy: RwSignal<bool>) -> impl IntoView {
    view! {
        <UserMessage text=turn.prompt />
        <article
            class="message message--assistant"
            class:message--streaming=move || busy.get()
            data-testid="assistant-message"
            aria-live="polite"
            aria-busy=move || busy.get().to_string()
        >
            <div class="markdown" inner_html=markdown::to_html(&turn.reply)></div>
            {turn.error.map(|error| view! { <p class="error" role="alert" data-testid="turn-error">{error}</p> })}
        </article>
    }
}

#[component]
fn Composer(busy: RwSignal<bool>, on_send: impl Fn(String) + Copy + Send + Sync + 'static) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let submit = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() {
            return;
        }
        draft.set(String::new());
        on_send(prompt);
    };
    view! {
        <form
            class="composer"
            on:submit=move |event| {
                event.prevent_default();
                submit();
            }
        >
            <label class="visually-hidden" for="composer-input">"Message"</label>
            <textarea
                id="composer-input"
                class="composer__input"
                rows="2"
                placeholder="Message Palaver…"
                prop:value=move || draft.get()
                on:input=move |event| draft.set(event_target_value(&event))
                on:keydown=move |event| {
                    if event.key() == "Enter" && !event.shift_key() {
                        event.prevent_default();
                        submit();
                    }
                }
            ></textarea>
            <button
                type="submit"
                class="composer__send"
                disabled=move || busy.get() || draft.with(|text| text.trim().is_empty())
            >
                {move || if busy.get() { "Replying…" } else { "Send" }}
            </button>
        </form>
    }
}
