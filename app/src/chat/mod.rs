//! The chat page: the conversation list and drawer, the transcript and its messages, ask cards,
//! the composer, the inbox, and the server functions behind them (each the conversation service
//! of `palaver-core` behind the caller check). The turn's stream is read by `crate::browser`.

mod announcer;
pub mod api;
mod ask_card;
mod attachments;
mod conversation_groups;
mod conversation_item;
mod conversation_list;
mod conversation_pages;
mod drawer;
mod follow;
mod inbox;
mod inbox_batch;
mod inbox_buttons;
mod inbox_routed;
mod list_entry;
mod mcp_app;
mod messages;
mod model_picker;
mod page;
mod page_state;
mod rating;
mod saved_rows;
mod share_dialog;
pub mod shelf_api;
mod shortcuts;

/// The message box, for the keys that bring the focus back to it.
pub(crate) const COMPOSER: &str = "#composer-input";
/// The card of the ask the conversation waits on, for the key that reaches it from the box.
const PENDING_CARD: &str = ".ask-card--pending";

pub(crate) use ask_card::load_ask_controls;
pub use ask_card::{AnswerChannel, AskCard, AskPreviewCard, CardAnswer};
pub use drawer::{ConversationsButton, ConversationsDrawer};
pub use inbox::Inbox;
pub use mcp_app::{AppToolNames, McpApp};
pub use page::{ChatPage, SkipToComposer};
