//! Conversations: wire types, storage, server functions and the chat components.

#[cfg(feature = "ssr")]
pub mod access;
pub mod api;
mod ask_card;
mod components;
#[cfg(feature = "ssr")]
pub mod db;
#[cfg(feature = "hydrate")]
mod files;
pub mod model;
pub mod sse;
#[cfg(feature = "hydrate")]
mod stream;
pub mod summary;
pub mod transcript;

pub use ask_card::{AnswerChannel, AskCard};
pub use components::ChatPage;
pub use transcript::AskItem;
