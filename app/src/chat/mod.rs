//! Conversations: wire types, storage, server functions and the chat components.

#[cfg(feature = "ssr")]
pub mod access;
pub mod api;
mod components;
#[cfg(feature = "ssr")]
pub mod db;
pub mod model;
pub mod sse;
#[cfg(feature = "hydrate")]
mod stream;

pub use components::ChatPage;
