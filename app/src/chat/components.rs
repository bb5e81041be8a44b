//! The chat page: conversation list, transcript and composer.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use serde_json::Value;

use super::api::{create_conversation, get_history, list_histories, stop_turn};
use super::ask_card::{AnswerChannel, AskCard, AskPreviewCard};
use super::conversation_list::ConversationList;
use super::model::HistoryView;
use super::page_state::{ChatState, LiveTurn, follow_running};
use super::transcript::{TranscriptItem, transcript};
use crate::components::{BlockActionsContext, BlocksReply, StreamingBlocks, textarea_text};
use crate::error::AppError;
use crate::grants::GrantScope;
use crate::live::{HistoryChange, LiveEvent};
use crate::markdown;
use crate::wire::{AskAnswer, PromptBody};
use palaver_contract::blocks::BlocksCheck;
use palaver_contract::blocks::reads_as_document;

#[component]
pub fn ChatPage() -> impl IntoView {
    let query = use_query_map();
    let state = ChatState::new(Memo::new(move |_| query.read().get("c").filter(|id| !id.is_empty())));
    let ChatState { history_id, version, list_version, live, busy, server_errors, notice } = state;
    let search = RwSignal::new(String::new());
    let histories = Resource::new(
        move || (version.get(), list_version.get(), search.get()),
        |(_, _, search)| list_histories(Some(search)),
    );
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
    super::ask_card::provide_ask_drafts(history_id.into());

    // Once the conversation has reloaded after a finished turn, the saved rows replace the live turn.
    Effect::new(move |_| {
        if let Some((loaded, _)) = history.get()
            && loaded == version.get_untracked()
            && !busy.get_untracked()
        {
            live.set(None);
        }
    });

    // A conversation opened (or reloaded) while a reply streams shows it streaming on.
    Effect::new(move |_| {
        if let Some(id) = history_id.get()
            && !busy.get_untracked()
        {
            leptos::task::spawn_local(follow_running(state, id));
        }
    });

    let navigate = leptos_router::hooks::use_navigate();
    // What another tab or device did shows here within a second. This tab's own turn reloads
    // when it ends: nothing reloads the transcript under a running turn.
    let leave_deleted = navigate.clone();
    Effect::new(move |_| {
        let leave_deleted = leave_deleted.clone();
        crate::browser::listen_live(move |event| {
            let shown = history_id.get_untracked();
            let about_shown = event.history_id().is_some() && event.history_id() == shown.as_deref();
            match event {
                LiveEvent::HistoryChanged(changed) => {
                    list_version.update(|version| *version += 1);
                    if about_shown && changed.change == HistoryChange::Deleted {
                        leave_deleted("/", Default::default());
                    }
                }
                // Another tab or device started a turn here: show it as it streams.
                LiveEvent::TurnStarted(started) if about_shown && !busy.get_untracked() => {
                    leptos::task::spawn_local(follow_running(state, started.history_id.clone()));
                }
                _ if (about_shown || matches!(event, LiveEvent::Resync(_))) && !busy.get_untracked() => state.reload(),
                _ => {}
            }
        });
    });

    let send = move |prompt: String| {
        let Some(id) = history_id.get_untracked() else {
            // A new chat: create the conversation first, so a running turn always has one.
            busy.set(true);
            live.set(Some(LiveTurn { prompt: Some(prompt.clone()), ..Default::default() }));
            let navigate = navigate.clone();
            leptos::task::spawn_local(async move {
                match create_conversation().await {
                    Ok(id) => {
                        navigate(&format!("/?c={id}"), Default::default());
                        state.start_turn(prompt_body(&id, &prompt), Some(prompt.clone()));
                    }
                    Err(err) => {
                        live.set(Some(LiveTurn {
                            prompt: Some(prompt),
                            error: Some(err.to_string()),
                            ..Default::default()
                        }));
                        busy.set(false);
                    }
                }
            });
            return;
        };
        state.start_turn(prompt_body(&id, &prompt), Some(prompt));
    };
    // Stop ends the turn this tab shows; another tab's turn on the conversation goes on.
    let stop = move || {
        if let Some(id) = history_id.get_untracked() {
            let stream = live.with_untracked(|turn| turn.as_ref().and_then(|turn| turn.stream.clone()));
            leptos::task::spawn_local(async move {
                let _ = stop_turn(id, stream).await;
            });
        }
    };
    let answer = Callback::new(move |(tool_call_id, response): (String, Value)| {
        let body = PromptBody {
            history_id: history_id.get_untracked(),
            ask_response: Some(AskAnswer { tool_call_id, response }),
            ..Default::default()
        };
        state.start_turn(body, None);
    });
    // Once per ask: a browser clock ahead of the server's must not reload again and again.
    let ran_out_of_time = StoredValue::new(Vec::<String>::new());
    let ran_out = Callback::new(move |tool_call_id: String| {
        if !ran_out_of_time.with_value(|asks| asks.contains(&tool_call_id)) {
            ran_out_of_time.update_value(|asks| asks.push(tool_call_id));
            state.reload();
        }
    });
    let channel = AnswerChannel { send: answer, server_errors, busy, ran_out };
    let leave = leptos_router::hooks::use_navigate();
    let list_changed = Callback::new(move |deleted: Option<String>| {
        if deleted.is_some() && deleted == history_id.get_untracked() {
            leave("/", Default::default());
        }
        state.reload();
    });
    let reply_send = send.clone();
    provide_context(BlockActionsContext {
        reply: Callback::new(move |text: String| {
            if !busy.get_untracked() {
                reply_send(text);
            }
        }),
        history_id: history_id.into(),
    });

    view! {
        <div class="chat">
            <ConversationList histories current=history_id changed=list_changed search />
            <main class="chat__main">
                {move || {
                    history_id
                        .get()
                        .map(|id| {
                            view! {
                                <nav class="transcript__tools" aria-label="This conversation">
                                    "Export: "
                                    <a href=format!("/gpt/histories/{id}/export?format=markdown") download>
                                        "Markdown"
                                    </a>
                                    " · "
                                    <a href=format!("/gpt/histories/{id}/export?format=json") download>
                                        "JSON"
                                    </a>
                                </nav>
                            }
                        })
                }} <section class="transcript" aria-label="Conversation" data-testid="transcript">
                    <Transition fallback=|| {
                        view! { <p class="transcript__empty">"Loading…"</p> }
                    }>
                        {move || Suspend::new(async move {
                            let (_, view) = history.await;
                            view! { <SavedRows view channel /> }
                        })}
                    </Transition>
                    {move || live.get().map(|turn| view! { <LiveTurnView turn busy /> })}
                    {move || {
                        notice
                            .get()
                            .map(|text| {
                                view! {
                                    <p class="error" role="status" data-testid="turn-error">
                                        {text}
                                    </p>
                                }
                            })
                    }}
                </section> <Composer busy on_send=send on_stop=stop />
            </main>
        </div>
    }
}

fn prompt_body(history_id: &str, prompt: &str) -> PromptBody {
    PromptBody { history_id: Some(history_id.into()), prompt: Some(prompt.into()), ask_response: None }
}

#[component]
fn SavedRows(view: Result<Option<HistoryView>, AppError>, channel: AnswerChannel) -> impl IntoView {
    match view {
        Ok(Some(history)) => transcript(&history)
            .into_iter()
            .map(|item| match item {
                TranscriptItem::User(text) => view! { <UserMessage text /> }.into_any(),
                TranscriptItem::Assistant { text, blocks } => view! { <AssistantMessage text blocks /> }.into_any(),
                TranscriptItem::Tool { tool_name, args, result, allowed_by, .. } => {
                    view! { <ToolLine tool_name args result allowed_by /> }.into_any()
                }
                TranscriptItem::Ask(item) => view! { <AskCard item=*item channel /> }.into_any(),
            })
            .collect_view()
            .into_any(),
        Ok(None) => {
            view! { <p class="transcript__empty">"Start a conversation: type a message below. Try “help”."</p> }
                .into_any()
        }
        Err(err) => view! {
            <p class="error" role="alert">
                {err.to_string()}
            </p>
        }
        .into_any(),
    }
}

/// A compact, expandable line for a host tool the agent used, with its input and result.
#[component]
fn ToolLine(tool_name: String, args: Value, result: Option<Value>, allowed_by: Option<GrantScope>) -> impl IntoView {
    let pretty = |value: &Value| serde_json::to_string_pretty(value).unwrap_or_default();
    let summary = match allowed_by {
        // A guarded call that ran without asking says which grant let it.
        Some(scope) => view! {
            "Ran "
            <code>{tool_name}</code>
            {format!(" — {}", scope.words())}
        }
        .into_any(),
        None => view! {
            "Used "
            <code>{tool_name}</code>
        }
        .into_any(),
    };
    view! {
        <details class="tool-line" data-testid="tool-line">
            <summary>{summary}</summary>
            <pre>{pretty(&args)}</pre>
            {result.map(|result| view! { <pre>{pretty(&result)}</pre> })}
        </details>
    }
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
fn AssistantMessage(text: String, blocks: Option<Box<BlocksCheck>>) -> impl IntoView {
    let copied = RwSignal::new(false);
    let markdown = text.clone();
    view! {
        <article class="message message--assistant" data-testid="assistant-message">
            <ReplyBody text blocks />
        </article>
        // The reply as the model wrote it: markdown (or the block document).
        <div class="message__actions">
            <button
                type="button"
                class="message__copy"
                data-testid="copy-message"
                on:click=move |_| crate::browser::copy_text(markdown.clone(), copied)
            >
                {move || if copied.get() { "Copied" } else { "Copy" }}
            </button>
        </div>
    }
}

/// A reply's text as markdown, or as blocks once it checked as a document.
#[component]
fn ReplyBody(text: String, blocks: Option<Box<BlocksCheck>>) -> impl IntoView {
    match blocks {
        Some(check) => view! { <BlocksReply check=*check raw=text /> }.into_any(),
        None => view! { <div class="markdown" inner_html=markdown::to_html(&text)></div> }.into_any(),
    }
}

#[component]
fn LiveTurnView(turn: LiveTurn, busy: RwSignal<bool>) -> impl IntoView {
    view! {
        {turn.prompt.map(|text| view! { <UserMessage text /> })}
        {turn.tools.into_iter().map(|tool| view! { <p class="tool-line" data-testid="tool-line">"Using " <code>{tool}</code></p> }).collect_view()}
        <article
            class="message message--assistant"
            class:message--streaming=move || busy.get()
            data-testid="assistant-message"
            aria-live="polite"
            aria-busy=move || busy.get().to_string()
        >
            // A reply that reads as a document shows the blocks complete so far until it is
            // checked, rather than half a document as text.
            {if turn.blocks.is_none() && reads_as_document(&turn.reply) {
                view! { <StreamingBlocks text=turn.reply /> }.into_any()
            } else {
                view! { <ReplyBody text=turn.reply blocks=turn.blocks /> }.into_any()
            }}
            {turn.error.map(|error| view! { <p class="error" role="alert" data-testid="turn-error">{error}</p> })}
        </article>
        {turn.preview.map(|preview| view! { <AskPreviewCard preview /> })}
    }
}

#[component]
fn Composer(
    busy: RwSignal<bool>,
    on_send: impl Fn(String) + Clone + Send + Sync + 'static,
    on_stop: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let submit = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() {
            return;
        }
        draft.set(String::new());
        on_send(prompt);
    };
    let submit_on_enter = submit.clone();
    view! {
        <form
            class="composer"
            on:submit=move |event| {
                event.prevent_default();
                submit();
            }
        >
            <label class="visually-hidden" for="composer-input">
                "Message"
            </label>
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
                        submit_on_enter();
                    } else if event.key() == "Escape" && busy.get_untracked() {
                        event.prevent_default();
                        on_stop();
                    }
                }
            >
                {textarea_text(&draft.get_untracked())}
            </textarea>
            <button
                type="submit"
                class="composer__send"
                disabled=move || busy.get() || draft.with(|text| text.trim().is_empty())
            >
                {move || if busy.get() { "Replying…" } else { "Send" }}
            </button>
            <Show when=move || busy.get()>
                <button type="button" class="composer__stop" data-testid="stop" on:click=move |_| on_stop()>
                    "Stop"
                </button>
            </Show>
        </form>
    }
}
