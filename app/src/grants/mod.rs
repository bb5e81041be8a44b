//! The approval grants in Settings, revoked there, and the server functions behind them.

pub mod api;
mod components;
mod pattern_fields;

pub use components::GrantsSection;
pub use pattern_fields::pattern_fields;
