//! The transcript's saved rows: a window of the conversation that grows as earlier rows and a
//! turn's rows join it. Each item is keyed by all it shows, so rows that join add their own
//! elements and leave the others' in place: reading back through a long conversation costs the
//! same for each window, however many are shown already.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use leptos::prelude::*;

use super::ask_card::{AnswerChannel, AskCard};
use super::mcp_app::McpApp;
use super::messages::{
    AssistantMessage, Exchange, NoReply, RateTarget, RedoChannel, RedoTarget, ToolLine, UserMessage,
    replies_ending_exchanges,
};
use palaver_wire::conversation::model::HistoryView;
use palaver_wire::conversation::transcript::{TranscriptItem, transcript};
use palaver_wire::error::AppError;

/// The rows before a window: read as the reader scrolls up to them, or with the button.
#[derive(Clone, Copy)]
pub(super) struct EarlierRows {
    pub(super) read: Callback<()>,
    pub(super) reading: RwSignal<bool>,
}

/// The saved rows (a window of them, as `joined` grew it since it was loaded as `view` at
/// `version`); while a redo runs (`keep` rows), the exchange it replaces is hidden.
#[component]
pub(super) fn SavedRows(
    view: Result<Option<HistoryView>, AppError>,
    version: u32,
    joined: RwSignal<Option<(u32, HistoryView)>>,
    earlier: EarlierRows,
    channel: AnswerChannel,
    redo: RedoChannel,
    keep: Memo<Option<usize>>,
) -> impl IntoView {
    match view {
        Ok(Some(conversation)) => {
            // Read through the page's signals, never signals of its own: a reload's transition
            // keeps these rows on show after the owner that made them is gone.
            let loaded = conversation.clone();
            let has_earlier = move || {
                let grown = joined.try_with(|joined| {
                    let grown = joined.as_ref().filter(|(at, view)| *at == version && view.id == loaded.id);
                    grown.map(|(_, view)| view.window)
                });
                let window = grown.flatten().unwrap_or(loaded.window);
                window.and_then(|window| window.earlier).is_some()
            };
            let items = move || {
                let grown =
                    joined.try_get().flatten().filter(|(at, view)| *at == version && view.id == conversation.id);
                let shown = grown.map_or_else(|| conversation.clone(), |(_, view)| view);
                shown_items(shown, keep.try_get().flatten(), redo)
            };
            view! {
                <Show when=has_earlier>
                    <EarlierButton earlier />
                </Show>
                <For each=items key=|item| item.key children=move |item| item.view(channel) />
            }
            .into_any()
        }
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

/// One item of the transcript as it is shown, and its key: what it shows, hashed.
#[derive(Clone)]
struct ShownItem {
    key: u64,
    item: TranscriptItem,
    conversation_id: String,
    /// The exchange it belongs to, when it can be sent again (no redo runs).
    redo: Option<RedoTarget>,
    /// A message with nothing after it (its reply failed): offered again.
    retry: bool,
    /// A reply that ends its exchange: it can be written again.
    regenerate: bool,
    /// A message the model's summary reaches up to: the marker goes before it.
    summarised: bool,
    /// A tool call without its result while no turn runs on the conversation and no ask waits:
    /// it was cut off, and never gets one. (Only such calls' keys change when a turn starts.)
    cut_off: bool,
}

/// The items of `shown` (its rows up to `keep` while a redo runs), each keyed.
fn shown_items(mut shown: HistoryView, keep: Option<usize>, redo: RedoChannel) -> Vec<ShownItem> {
    if let Some(keep) = keep {
        shown.rows.truncate(keep.saturating_sub(shown.window.unwrap_or_default().first_row));
        shown.pending_ask = None;
    }
    let items = transcript(&shown);
    let ending = replies_ending_exchanges(&items);
    let last_message = items.iter().rposition(|item| matches!(item, TranscriptItem::User { .. }));
    let unanswered =
        (!shown.running).then(|| items.len().checked_sub(1)).flatten().filter(|n| Some(*n) == last_message);
    let settled = !shown.running && shown.pending_ask.is_none();
    let mut exchange: Option<RedoTarget> = None;
    let mut keys_seen: HashMap<u64, u64> = HashMap::new();
    items
        .into_iter()
        .enumerate()
        .map(|(n, item)| {
            if let TranscriptItem::User { text, row, .. } = &item {
                let exchange_now = Exchange { starts_at: *row, text: text.clone() };
                exchange = Some(RedoTarget { channel: redo, exchange: exchange_now });
            }
            let summarised = matches!(&item, TranscriptItem::User { row, .. } if Some(*row) == shown.summarised_before);
            let mut shown_item = ShownItem {
                key: 0,
                conversation_id: shown.id.clone(),
                redo: exchange.clone().filter(|_| keep.is_none()),
                retry: Some(n) == unanswered,
                regenerate: ending.contains(&n),
                summarised,
                cut_off: settled && matches!(&item, TranscriptItem::Tool { result: None, .. }),
                item,
            };
            let key = shown_item.hashed();
            // Two items that show the same get keys of their own.
            let repeats = keys_seen.entry(key).or_default();
            shown_item.key = key.wrapping_add(*repeats);
            *repeats += 1;
            shown_item
        })
        .collect()
}

impl ShownItem {
    /// A hash of all the item shows.
    fn hashed(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        format!("{:?}", self.item).hash(&mut hasher);
        let redo = self.redo.as_ref().map(|target| (target.exchange.starts_at, target.exchange.text.as_str()));
        (&self.conversation_id, redo, self.retry, self.regenerate, self.summarised, self.cut_off).hash(&mut hasher);
        hasher.finish()
    }

    fn view(self, channel: AnswerChannel) -> AnyView {
        let ShownItem { item, conversation_id, redo, retry, regenerate, summarised, cut_off, .. } = self;
        match item {
            TranscriptItem::User { text, attachments, from_app, at, branches, .. } => {
                let retry = redo.clone().filter(|_| retry);
                let summarised = summarised.then(|| {
                    view! {
                        <p class="transcript__summarised" data-testid="summarised-marker">
                            "Earlier messages summarised: the model reads a summary of what came before this point."
                        </p>
                    }
                });
                view! {
                    {summarised}
                    <UserMessage text attachments from_app at redo branches />
                    {retry.map(|retry| view! { <NoReply retry /> })}
                }
                .into_any()
            }
            TranscriptItem::Assistant { text, blocks, interrupted, row, rating, at } => {
                let rate = RateTarget { conversation_id, row, rating };
                let regenerate = redo.filter(|_| regenerate);
                view! { <AssistantMessage text blocks interrupted at rate regenerate /> }.into_any()
            }
            TranscriptItem::Tool { tool_call_id, tool_name, args, result, allowed_by } => {
                let app = (tool_name.clone(), args.clone(), result.clone());
                view! {
                    <ToolLine tool_name args result allowed_by />
                    <McpApp conversation_id tool_call_id tool_name=app.0 args=app.1 result=app.2 cut_off />
                }
                .into_any()
            }
            TranscriptItem::Ask(item) => view! { <AskCard item=*item channel /> }.into_any(),
        }
    }
}

/// At the top of a window with rows before it: reads them (scrolling up to it does too).
#[component]
fn EarlierButton(earlier: EarlierRows) -> impl IntoView {
    let EarlierRows { read, reading } = earlier;
    view! {
        <button
            type="button"
            class="ask-button transcript__earlier"
            data-testid="earlier-messages"
            disabled=move || reading.get()
            on:click=move |_| read.run(())
        >
            {move || if reading.get() { "Loading earlier messages…" } else { "Show earlier messages" }}
        </button>
    }
}
