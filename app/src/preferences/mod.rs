//! Preferences: a person's custom instructions and default model (a Settings section), and the
//! server's settings an admin changes at run time (an Admin section), with their server functions.

pub mod api;
mod components;

pub use components::{PreferencesSection, ServerSettingsSection};
