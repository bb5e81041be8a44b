//! The chat page: the conversation list, the open conversation's transcript and the composer,
//! composed of hooks that each own one concern. Their order is the order their effects run in.

mod composer;
mod conversation_export;
mod use_answer_channel;
mod use_conversation_list;
mod use_drawer;
mod use_live_events;
mod use_open_conversation;
mod use_redo_channel;
mod use_running_turn;
mod use_send;
mod use_stop;

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::announcer::{AskAnnouncer, use_ask_announcements};
use super::ask_card::provide_ask_drafts;
use super::conversation_list::ConversationList;
use super::drawer::DrawerBackdrop;
use super::follow::use_follow_newest;
use super::mcp_app::AppMessages;
use super::messages::{LiveApps, LiveTurnView};
use super::model_picker::ModelPicker;
use super::page_state::ChatState;
use super::saved_rows::{EarlierRows, SavedRows};
use super::shortcuts::ShortcutsHelp;
use crate::components::BlockActionsContext;
use composer::Composer;
pub use composer::SkipToComposer;
use conversation_export::ConversationExport;
use palaver_wire::conversation::model::Attachment;
use use_answer_channel::use_answer_channel;
use use_conversation_list::{ConversationListData, use_conversation_list};
use use_drawer::use_drawer;
use use_live_events::use_live_events;
use use_open_conversation::{OpenConversation, use_open_conversation};
use use_redo_channel::use_redo_channel;
use use_running_turn::use_running_turn;
use use_send::use_send;
use use_stop::use_stop;

#[component]
pub fn ChatPage() -> impl IntoView {
    let query = use_query_map();
    let state = ChatState::new(Memo::new(move |_| query.read().get("c").filter(|id| !id.is_empty())));
    let ChatState { conversation_id, live, busy, notice, .. } = state;
    let ConversationListData { conversations, search, changed } = use_conversation_list(state);
    let open = use_open_conversation(state);
    provide_ask_drafts(conversation_id.into());
    use_running_turn(state, open);
    use_live_events(state, open, conversations);
    let send = use_send(state, open.model);
    let stop = use_stop(state);
    let channel = use_answer_channel(state);
    let redo = use_redo_channel(state, open);
    // While a redo runs, how many saved rows stay shown.
    let keep = Memo::new(move |_| live.with(|turn| turn.as_ref().and_then(|turn| turn.keeps_rows)));
    let drawer = use_drawer(conversation_id);
    let said = use_ask_announcements(move || {
        let view = open.read()?;
        view.pending_ask.map(|pending| (pending.ask.tool_call_id, pending.ask.simple.text))
    });
    // The tab names the conversation shown (and nothing once the page is left).
    if let Some(title) = crate::page_title::PageTitle::get() {
        Effect::new(move |_| title.name.set(open.read().map(|view| view.name())));
        on_cleanup(move || title.name.set(None));
    }
    // Kept by an effect (an effect may read the conversation's resource while the page hydrates;
    // the view may not): the server renders the box as if nothing waits.
    let waiting = RwSignal::new(false);
    Effect::new(move |_| waiting.set(open.read().is_some_and(|view| view.pending_ask.is_some())));
    use_composer_focus(conversation_id, waiting);
    let transcript_box = NodeRef::<leptos::html::Section>::new();
    let behind = use_follow_newest(transcript_box, move || {
        live.track();
        open.loaded.track();
        open.grew.track();
    });
    let earlier = EarlierRows {
        read: Callback::new(move |()| read_earlier_in_place(open, transcript_box)),
        reading: open.reading_earlier,
    };
    provide_replies(state, send.clone());
    super::mcp_app::AppToolNames::provide();
    // What one sends is shown: the transcript follows the new turn, even from up the page.
    let send_and_follow = move |text: String, attachments: Vec<Attachment>| {
        behind.follow_again();
        send(text, attachments, None)
    };

    view! {
        <div class="chat" class:chat--drawer-open=move || drawer.get()>
            <ConversationList conversations current=conversation_id changed search />
            <DrawerBackdrop />
            <AskAnnouncer said />
            <main class="chat__main">
                <div class="chat__bar">
                    <ModelPicker choice=open.model conversation_id />
                    <ConversationExport conversation_id />
                    <ShortcutsHelp busy on_stop=stop />
                </div>
                <section
                    class="transcript"
                    aria-label="Conversation"
                    data-testid="transcript"
                    node_ref=transcript_box
                    on:scroll=move |_| {
                        behind.scrolled();
                        if transcript_box.get_untracked().is_some_and(|shown| crate::browser::shows_start(&shown)) {
                            earlier.read.run(());
                        }
                    }
                >
                    <Transition fallback=|| {
                        view! { <p class="transcript__empty">"Loading…"</p> }
                    }>
                        {move || Suspend::new(async move {
                            let (version, view) = open.loaded.await;
                            view! { <SavedRows view version joined=open.joined earlier channel redo keep /> }
                        })}
                    </Transition>
                    {move || live.get().map(|turn| view! { <LiveTurnView turn busy /> })}
                    <LiveApps live conversation_id />
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
                </section>
                // Outside the scrolled box: the pill takes its own room and never covers a card.
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
                <Composer busy waiting on_send=send_and_follow on_stop=stop />
            </main>
        </div>
    }
}

/// Reads the rows before the transcript's window and puts them in front, the reader's place
/// kept where it was (what they read stays where it shows).
fn read_earlier_in_place(open: OpenConversation, transcript_box: NodeRef<leptos::html::Section>) {
    let Some(shown) = transcript_box.get_untracked() else { return };
    open.read_earlier(move || {
        let distance = crate::browser::distance_to_end(&shown);
        // Once the browser has laid the new rows out, before it paints them.
        request_animation_frame(move || crate::browser::keep_distance_to_end(&shown, distance));
    });
}

/// What a block's reply button and an MCP App's `ui/message` send: a message into the open
/// conversation (an app's shown as its server's), refused with why while a reply is being
/// written.
fn provide_replies(state: ChatState, send: impl Fn(String, Vec<Attachment>, Option<String>) + Send + Sync + 'static) {
    let ChatState { conversation_id, busy, .. } = state;
    let reply = Callback::new(move |(text, from_app): (String, Option<String>)| {
        if busy.get_untracked() {
            return Err("A reply is being written: the message was not sent.".to_string());
        }
        send(text, Vec::new(), from_app);
        Ok(())
    });
    provide_context(BlockActionsContext {
        reply: Callback::new(move |text: String| _ = reply.run((text, None))),
        history_id: conversation_id.into(),
    });
    // An app speaks only into the conversation it is drawn in.
    provide_context(AppMessages(Callback::new(move |(text, server, drawn_in): (String, String, String)| {
        if conversation_id.get_untracked().as_deref() != Some(drawn_in.as_str()) {
            return Err("The app's conversation is not the one open: the message was not sent.".to_string());
        }
        reply.run((text, Some(server)))
    })));
}

/// The message box has the focus when a conversation opens (the page loads, New chat) and when
/// the question it waited on ends (answered, here or elsewhere) — unless the person is typing
/// in another field.
fn use_composer_focus(conversation_id: Memo<Option<String>>, waiting: RwSignal<bool>) {
    Effect::new(move |_| {
        conversation_id.track();
        crate::browser::focus_if_free(crate::chat::COMPOSER);
    });
    Effect::new(move |was_waiting: Option<bool>| {
        let waiting = waiting.get();
        if was_waiting == Some(true) && !waiting {
            crate::browser::focus_if_free(crate::chat::COMPOSER);
        }
        waiting
    });
}
