//! Deleting one's account, in Settings: the confirmation and the server function behind it.

pub mod api;
mod components;

pub use components::DeleteAccountSection;
