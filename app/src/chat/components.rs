//! The chat page: conversation list, transcript and composer.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use serde_json::Value;

use super::announcer::{AskAnnouncer, announce_asks};
use super::api::{create_conversation, get_history, list_histories, stop_turn};
use super::ask_card::AnswerChannel;
use super::attachments::{AttachButton, PendingFiles, PendingList};
use super::conversation_list::ConversationList;
use super::drawer::{ConversationsDrawer, DrawerBackdrop};
use super::follow::follow_newest;
use super::messages::{LastExchange, LiveTurnView, RedoChannel, SavedRows};
use super::model::Attachment;
use super::model_picker::{ModelChoice, ModelPicker};
use super::page_state::{ChatState, LiveTurn, follow_running};
use crate::components::{BlockActionsContext, textarea_text};
use crate::live::{HistoryChange, LiveEvent};
use crate::wire::{AskAnswer, FileRef, PromptBody};

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
    // The picker shows the open conversation's model; a new chat starts on the default.
    let model = ModelChoice(RwSignal::new(None));
    // Whether a turn ran on the conversation when it was read.
    let read_running = RwSignal::new(false);
    Effect::new(move |_| {
        let shown = history.get().and_then(|(_, view)| view.ok().flatten());
        read_running.set(shown.as_ref().is_some_and(|view| view.running));
        model.0.set(shown.and_then(|view| view.model));
    });

    // A notice speaks of the conversation it came from.
    Effect::new(move |_| {
        history_id.track();
        notice.set(None);
    });

    // Once the conversation has reloaded after a finished turn, the saved rows replace the live turn.
    Effect::new(move |_| {
        if let Some((loaded, _)) = history.get()
            && loaded == version.get_untracked()
            && !busy.get_untracked()
        {
            live.set(None);
        }
    });

    // A conversation opened (or reloaded) while a reply streams shows it streaming on. One read
    // while a turn ran, whose turn ended before it could be attached to, loads what it saved.
    Effect::new(move |_| {
        if let Some(id) = history_id.get()
            && !busy.get_untracked()
        {
            leptos::task::spawn_local(async move {
                if !follow_running(state, id).await && read_running.get_untracked() {
                    state.reload();
                }
            });
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
                    let history_id = started.history_id.clone();
                    leptos::task::spawn_local(async move {
                        follow_running(state, history_id).await;
                    });
                }
                _ if (about_shown || matches!(event, LiveEvent::Resync(_))) && !busy.get_untracked() => state.reload(),
                _ => {}
            }
        });
    });

    let send = move |prompt: String, files: Vec<Attachment>| {
        let Some(id) = history_id.get_untracked() else {
            // A new chat: create the conversation first, so a running turn always has one.
            busy.set(true);
            let shown = LiveTurn { prompt: Some(prompt.clone()), attachments: files.clone(), ..Default::default() };
            live.set(Some(shown));
            let navigate = navigate.clone();
            leptos::task::spawn_local(async move {
                match create_conversation(model.0.get_untracked()).await {
                    Ok(id) => {
                        navigate(&format!("/?c={id}"), Default::default());
                        state.start_turn(prompt_body(&id, &prompt, &files), Some(prompt.clone()), files);
                    }
                    Err(err) => {
                        live.set(Some(LiveTurn {
                            prompt: Some(prompt),
                            attachments: files,
                            error: Some(err.to_string()),
                            ..Default::default()
                        }));
                        busy.set(false);
                    }
                }
            });
            return;
        };
        state.start_turn(prompt_body(&id, &prompt, &files), Some(prompt), files);
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
        state.start_turn(body, None, Vec::new());
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
    let redo = RedoChannel {
        busy,
        send: Callback::new(move |(last, edited): (LastExchange, Option<String>)| {
            let Some(id) = history_id.get_untracked() else { return };
            if busy.get_untracked() {
                return;
            }
            let body = PromptBody {
                history_id: Some(id),
                prompt: edited.clone(),
                replace_last: true,
                seen_rows: Some(last.seen_rows),
                ..Default::default()
            };
            state.start_redo(body, edited.unwrap_or(last.text), last.starts_at);
        }),
    };
    let keep = Memo::new(move |_| live.with(|turn| turn.as_ref().and_then(|turn| turn.keeps_rows)));
    let ConversationsDrawer(drawer) = ConversationsDrawer::expect();
    // Choosing a conversation (or a new chat) closes the drawer.
    Effect::new(move |_| {
        history_id.track();
        drawer.set(false);
    });
    let said = announce_asks(move || {
        let view = history.get().and_then(|(_, view)| view.ok().flatten())?;
        view.pending_ask.map(|pending| (pending.ask.tool_call_id, pending.ask.simple.text))
    });
    let transcript_box = NodeRef::<leptos::html::Section>::new();
    let behind = follow_newest(transcript_box, move || {
        live.track();
        history.track();
    });
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
                reply_send(text, Vec::new());
            }
        }),
        history_id: history_id.into(),
    });

    view! {
        <div class="chat" class:chat--drawer-open=move || drawer.get()>
            <ConversationList histories current=history_id changed=list_changed search />
            <DrawerBackdrop />
            <AskAnnouncer said />
            <main class="chat__main">
                <div class="chat__bar">
                    <ModelPicker choice=model history_id />
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
                    }}
                </div>
                <section
                    class="transcript"
                    aria-label="Conversation"
                    data-testid="transcript"
                    node_ref=transcript_box
                    on:scroll=move |_| behind.scrolled()
                >
                    <Transition fallback=|| {
                        view! { <p class="transcript__empty">"Loading…"</p> }
                    }>
                        {move || Suspend::new(async move {
                            let (_, view) = history.await;
                            view! { <SavedRows view channel redo keep /> }
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
                    <Show when=move || behind.shown()>
                        <button
                            type="button"
                            class="transcript__pill"
                            data-testid="new-messages"
                            on:click=move |_| behind.catch_up()
                        >
                            "New messages ↓"
                        </button>
                    </Show>
                </section> <Composer busy on_send=send on_stop=stop />
            </main>
        </div>
    }
}

/// A message for the conversation (its model is stored already: with the new chat, or by the
/// picker).
fn prompt_body(history_id: &str, prompt: &str, files: &[Attachment]) -> PromptBody {
    PromptBody {
        history_id: Some(history_id.into()),
        prompt: Some(prompt.into()),
        attachments: files.iter().map(|file| FileRef { file_id: file.file_id.clone() }).collect(),
        ..Default::default()
    }
}

#[component]
fn Composer(
    busy: RwSignal<bool>,
    on_send: impl Fn(String, Vec<Attachment>) + Clone + Send + Sync + 'static,
    on_stop: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let files = PendingFiles::new();
    let submit = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() || files.uploading() {
            return;
        }
        draft.set(String::new());
        on_send(prompt, files.take());
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
            <PendingList pending=files />
            <AttachButton pending=files busy />
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
                disabled=move || busy.get() || files.uploading() || draft.with(|text| text.trim().is_empty())
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
