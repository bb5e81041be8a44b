//! Conversations: wire types, storage, the service (list, read, rename, delete, stop, host
//! actions), server functions and the chat components.

#[cfg(feature = "ssr")]
pub mod access;
#[cfg(feature = "ssr")]
pub mod actions;
mod announcer;
pub mod api;
mod ask_card;
mod attachments;
#[cfg(feature = "ssr")]
mod block_settings;
mod components;
mod conversation_list;
pub mod deadline;
pub mod document;
mod drawer;
pub mod export;
#[cfg(feature = "hydrate")]
pub(crate) mod files;
mod follow;
mod inbox;
#[cfg(feature = "ssr")]
pub mod leases;
mod messages;
pub mod model;
mod model_picker;
mod page_state;
mod rating;
#[cfg(feature = "ssr")]
pub mod running;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
mod stream;
#[cfg(feature = "ssr")]
mod stream_mirror;
pub mod summary;
pub mod transcript;
#[cfg(feature = "ssr")]
pub mod turn_log;

#[cfg(feature = "hydrate")]
pub(crate) use ask_card::load_ask_controls;
pub use ask_card::{AnswerChannel, AskCard, AskPreviewCard};
#[cfg(feature = "ssr")]
pub use block_settings::{BlocksSettings, is_host_name, parse_image_hosts};
pub use components::ChatPage;
pub use drawer::{ConversationsButton, ConversationsDrawer};
pub use inbox::Inbox;
#[cfg(feature = "ssr")]
pub use service::Conversations;
pub use transcript::AskItem;
