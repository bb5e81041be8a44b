//! The transcript's parts: messages (copy, regenerate a reply, edit a message, flip between the
//! versions those kept), tool lines and the running turn; `saved_rows` lays out the saved ones.

use leptos::prelude::*;
use serde_json::Value;

use super::ask_card::AskPreviewCard;
use super::attachments::AttachmentList;
use super::mcp_app::WrittenApp;
use super::page_state::LiveTurn;
use super::rating::RateReply;
use crate::components::{BlocksReply, LocalTime, StreamingBlocks, VisibleText, textarea_text};
use crate::markdown;
use palaver_contract::blocks::{ShownCheck, reads_as_document};
use palaver_contract::visible::Layout;
use palaver_wire::conversation::model::{Attachment, Branches, Rating};
use palaver_wire::conversation::transcript::{INTERRUPTED, TranscriptItem};
use palaver_wire::grants::AllowedBy;
use palaver_wire::words::tool_words;

/// A message of the user's and what followed it, which a regenerate or an edit replaces (kept
/// as a version): where it starts in the saved rows, and the message. (How many rows the client
/// shows is counted when it is sent: rows may have joined the window since.)
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Exchange {
    pub(super) starts_at: usize,
    pub(super) text: String,
}

/// Sends a redo of an exchange (with a text, the edited message; without, the same message
/// again), or shows another version of one.
#[derive(Clone, Copy)]
pub(super) struct RedoChannel {
    pub(super) send: Callback<(Exchange, Option<String>)>,
    pub(super) show: Callback<(Exchange, usize)>,
    pub(super) busy: RwSignal<bool>,
}

/// An exchange, and where to send its redo.
#[derive(Clone)]
pub(super) struct RedoTarget {
    pub(super) channel: RedoChannel,
    pub(super) exchange: Exchange,
}

/// The replies that end an exchange of a message: the last reply before the next message
/// (the one Regenerate is offered under).
pub(super) fn replies_ending_exchanges(items: &[TranscriptItem]) -> Vec<usize> {
    let mut ending = Vec::new();
    let mut last_reply = None;
    for (n, item) in items.iter().enumerate() {
        match item {
            TranscriptItem::User { .. } => ending.extend(last_reply.take()),
            TranscriptItem::Assistant { .. } => last_reply = Some(n),
            _ => {}
        }
    }
    ending.extend(last_reply);
    ending
}

/// A compact, expandable line for a host tool the agent used, with its input and result: the
/// tool in words, its exact name inside.
#[component]
pub(super) fn ToolLine(
    tool_name: String,
    args: Value,
    result: Option<Value>,
    allowed_by: Option<AllowedBy>,
) -> impl IntoView {
    let pretty = |value: &Value| serde_json::to_string_pretty(value).unwrap_or_default();
    let tool = tool_words(&tool_name, None);
    let summary = match allowed_by {
        // A guarded call that ran without asking says which grant let it.
        Some(grant) => format!("Ran {tool} — {}", grant.words()),
        None => format!("Used {tool}"),
    };
    view! {
        <details class="tool-line" data-testid="tool-line">
            <summary>{summary}</summary>
            <p class="tool-line__name">
                <code>{tool_name}</code>
            </p>
            // The arguments as they ran: no character in them hides or reorders the others.
            <pre>
                <VisibleText text=pretty(&args) layout=Layout::Prose />
            </pre>
            {result.map(|result| view! { <pre>{pretty(&result)}</pre> })}
        </details>
    }
}

/// A message of the user's, with when it was sent (`at`; none while its turn runs); with `redo`
/// it can be edited and sent in its place, and with `branches` its versions can be shown.
#[component]
pub(super) fn UserMessage(
    text: String,
    attachments: Vec<Attachment>,
    /// The MCP server whose app sent it for the person.
    #[prop(default = None)]
    from_app: Option<String>,
    #[prop(default = None)] at: Option<String>,
    redo: Option<RedoTarget>,
    #[prop(default = None)] branches: Option<Branches>,
) -> impl IntoView {
    let editing = RwSignal::new(false);
    let shown = text.clone();
    let sender = from_app.map(|server| format!("Sent by the app of the MCP server \"{server}\""));
    let message = move || {
        view! {
            {sender
                .clone()
                .map(|sender| {
                    view! {
                        <p class="message__sender" data-testid="message-from-app">
                            {sender}
                        </p>
                    }
                })}
            <p class="message__text">{shown.clone()}</p>
            <AttachmentList files=attachments.clone() />
        }
    };
    view! {
        <article class="message message--user" data-testid="user-message">
            {match redo.clone() {
                Some(target) => {
                    view! {
                        <Show when=move || editing.get() fallback=message.clone()>
                            <EditMessage target=target.clone() editing />
                        </Show>
                    }
                        .into_any()
                }
                None => message().into_any(),
            }}
        </article>
        {(at.is_some() || redo.is_some())
            .then(|| {
                let switch = redo.clone().zip(branches);
                view! {
                    <div class="message__actions message__actions--user" hidden=move || editing.get()>
                        {switch.map(|(target, branches)| view! { <BranchSwitch target branches /> })}
                        {at.map(|iso| view! { <MessageTime iso /> })}
                        {redo
                            .map(|RedoTarget { channel, .. }| {
                                view! {
                                    <button
                                        type="button"
                                        class="message__action"
                                        data-testid="edit-message"
                                        disabled=move || channel.busy.get()
                                        on:click=move |_| editing.set(true)
                                    >
                                        "Edit"
                                    </button>
                                }
                            })}
                    </div>
                }
            })}
    }
}

/// When a message was sent or a reply written, small beside its actions.
#[component]
fn MessageTime(iso: String) -> impl IntoView {
    view! {
        <span class="message__time" data-testid="message-time">
            <LocalTime iso />
        </span>
    }
}

/// `< 2/3 >` beside a message with versions: shows the one before or after.
#[component]
fn BranchSwitch(target: RedoTarget, branches: Branches) -> impl IntoView {
    let RedoTarget { channel, exchange } = target;
    let Branches { shown, count } = branches;
    let step = move |position: Option<usize>, label: &'static str, symbol: &'static str, testid: &'static str| {
        let exchange = exchange.clone();
        view! {
            <button
                type="button"
                class="message__action message__branch-step"
                data-testid=testid
                aria-label=label
                title=label
                disabled=move || position.is_none() || channel.busy.get()
                on:click=move |_| {
                    if let Some(position) = position {
                        channel.show.run((exchange.clone(), position));
                    }
                }
            >
                {symbol}
            </button>
        }
    };
    view! {
        <span class="message__branches" role="group" aria-label="Versions of this message" data-testid="branches">
            {step(shown.checked_sub(1), "Previous version", "‹", "branch-previous")}
            <span class="message__branch-position" data-testid="branch-position">
                {format!("{}/{}", shown + 1, count)}
            </span>
            {step(Some(shown + 1).filter(|next| *next < count), "Next version", "›", "branch-next")}
        </span>
    }
}

/// A message in a text box: Enter (or Send) sends it in place of the old one (which is kept as
/// a version), Escape (or Cancel) leaves it as it was.
#[component]
fn EditMessage(target: RedoTarget, editing: RwSignal<bool>) -> impl IntoView {
    let RedoTarget { channel, exchange } = target;
    let draft = RwSignal::new(exchange.text.clone());
    let input_id = format!("edit-message-{}", exchange.starts_at);
    let send = move || {
        let edited = draft.get_untracked().trim().to_string();
        if !edited.is_empty() && !channel.busy.get_untracked() {
            editing.set(false);
            channel.send.run((exchange.clone(), Some(edited)));
        }
    };
    let send_on_enter = send.clone();
    view! {
        <form
            class="message__edit"
            aria-label="Edit your message"
            on:submit=move |event| {
                event.prevent_default();
                send();
            }
        >
            <label class="visually-hidden" for=input_id.clone()>
                "Your message"
            </label>
            <textarea
                id=input_id
                class="composer__input"
                rows="3"
                autofocus
                prop:value=move || draft.get()
                on:input=move |event| draft.set(event_target_value(&event))
                on:keydown=move |event| {
                    if event.key() == "Enter" && !event.shift_key() {
                        event.prevent_default();
                        send_on_enter();
                    } else if event.key() == "Escape" {
                        event.prevent_default();
                        editing.set(false);
                    }
                }
            >
                {textarea_text(&draft.get_untracked())}
            </textarea>
            <div class="message__actions">
                <button type="submit" disabled=move || draft.with(|text| text.trim().is_empty())>
                    "Send"
                </button>
                <button type="button" on:click=move |_| editing.set(false)>
                    "Cancel"
                </button>
            </div>
        </form>
    }
}

#[component]
pub(super) fn AssistantMessage(
    text: String,
    blocks: Option<Box<ShownCheck>>,
    /// Cut off before it finished: said so, and offered again as Retry.
    interrupted: bool,
    /// When it was stored.
    at: Option<String>,
    /// Which row of which conversation it is, and how it is rated.
    rate: RateTarget,
    /// Set on the reply that ends its exchange: it can be written again.
    regenerate: Option<RedoTarget>,
) -> impl IntoView {
    let RateTarget { conversation_id, row, rating } = rate;
    let copied = RwSignal::new(false);
    let markdown = text.clone();
    view! {
        <article class="message message--assistant" data-testid="assistant-message">
            <ReplyBody text blocks />
            {interrupted
                .then(|| {
                    view! {
                        <p class="message__interrupted" data-testid="interrupted">
                            {INTERRUPTED}
                        </p>
                    }
                })}
        </article>
        // The reply as the model wrote it: markdown (or the block document).
        <div class="message__actions">
            // A reply cut off before its first word has nothing to copy.
            {(!markdown.is_empty())
                .then(|| {
                    view! {
                        <button
                            type="button"
                            class="message__action"
                            data-testid="copy-message"
                            on:click=move |_| crate::browser::copy_text(markdown.clone(), copied)
                        >
                            {move || if copied.get() { "Copied" } else { "Copy" }}
                        </button>
                    }
                })}
            {regenerate
                .map(|target| {
                    let label = if interrupted { "Retry" } else { "Regenerate" };
                    view! { <RedoButton target label /> }
                })} <RateReply conversation_id row rating /> {at.map(|iso| view! { <MessageTime iso /> })}
        </div>
    }
}

/// Sends a message again in its place (what followed it is kept as a version).
#[component]
fn RedoButton(target: RedoTarget, label: &'static str) -> impl IntoView {
    let RedoTarget { channel, exchange } = target;
    view! {
        <button
            type="button"
            class="message__action"
            data-testid="regenerate"
            disabled=move || channel.busy.get()
            on:click=move |_| channel.send.run((exchange.clone(), None))
        >
            {label}
        </button>
    }
}

/// Under a last message whose reply failed: Retry sends it again in its place.
#[component]
pub(super) fn NoReply(retry: RedoTarget) -> impl IntoView {
    view! {
        <div class="message__actions" data-testid="no-reply">
            <span class="message__interrupted">"No reply was saved."</span>
            <RedoButton target=retry label="Retry" />
        </div>
    }
}

/// A saved reply's place, for rating it.
pub(super) struct RateTarget {
    pub(super) conversation_id: String,
    pub(super) row: usize,
    pub(super) rating: Option<Rating>,
}

/// A reply's text as markdown, or as blocks once it checked as a document.
#[component]
fn ReplyBody(text: String, blocks: Option<Box<ShownCheck>>) -> impl IntoView {
    match blocks {
        Some(check) => view! { <BlocksReply check=*check raw=text /> }.into_any(),
        None => view! { <div class="markdown" inner_html=markdown::to_html(&text)></div> }.into_any(),
    }
}

/// The apps of the running turn's calls of tools with an MCP App, drawn while the model writes
/// them: kept apart from the rest of the running turn, which is drawn anew with each event, so
/// each app's frame lives as long as its call shows.
#[component]
pub(super) fn LiveApps(live: RwSignal<Option<LiveTurn>>, conversation_id: Memo<Option<String>>) -> impl IntoView {
    // Which calls have an app, read apart from their arguments: a token streamed changes neither.
    let apps = Memo::new(move |_| {
        live.with(|turn| {
            let calls = turn.iter().flat_map(|turn| &turn.apps);
            calls.map(|app| (app.call_id.clone(), app.tool_name.clone())).collect::<Vec<(String, String)>>()
        })
    });
    view! {
        <For each=move || apps.get() key=|(call_id, _)| call_id.clone() let:((call_id, tool_name))>
            {
                let id = call_id.clone();
                let written = Memo::new(move |_| {
                    live.with(|turn| {
                        let app = turn.iter().flat_map(|turn| &turn.apps).find(|app| app.call_id == id);
                        app.map(|app| (app.arguments.clone(), app.complete)).unwrap_or_default()
                    })
                });
                view! {
                    <WrittenApp
                        conversation_id=conversation_id.get_untracked().unwrap_or_default()
                        tool_call_id=call_id
                        tool_name
                        arguments=Signal::derive(move || written.get().0)
                        complete=Signal::derive(move || written.get().1)
                    />
                }
            }
        </For>
    }
}

#[component]
pub(super) fn LiveTurnView(turn: LiveTurn, busy: RwSignal<bool>) -> impl IntoView {
    view! {
        {turn
            .prompt
            .map(|text| {
                view! { <UserMessage text attachments=turn.attachments from_app=turn.from_app redo=None /> }
            })}
        {turn
            .tools
            .into_iter()
            .map(|tool| {
                let doing = tool.status.map(|status| format!(": {status}")).unwrap_or_default();
                view! {
                    <p class="tool-line" data-testid="tool-line">
                        {format!("Using {}{doing}", tool_words(&tool.name, None))}
                    </p>
                }
            })
            .collect_view()}
        <article
            class="message message--assistant"
            class:message--streaming=move || busy.get()
            data-testid="assistant-message"
            aria-live="polite"
            aria-busy=move || busy.get().to_string()
        >
            // A reply that reads as a document shows the blocks complete so far until it is
            // checked, rather than half a document as text.
            {
                let text = [turn.reply, turn.step].concat();
                if turn.blocks.is_none() && reads_as_document(&text) {
                    view! { <StreamingBlocks text /> }.into_any()
                } else {
                    view! { <ReplyBody text blocks=turn.blocks /> }.into_any()
                }
            }
            {turn.error.map(|error| view! { <p class="error" role="alert" data-testid="turn-error">{error}</p> })}
        </article>
        {turn.preview.map(|preview| view! { <AskPreviewCard preview /> })}
    }
}
