//! The approval grants in Settings, revoked there, and the server functions behind them.

pub mod api;
mod components;

pub use components::GrantsSection;
