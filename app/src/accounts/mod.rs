//! Accounts: users, browser sessions, API tokens, and who may do what.

pub mod api;
#[cfg(feature = "ssr")]
pub mod auth;
mod components;
#[cfg(feature = "ssr")]
pub mod db;
pub mod model;
#[cfg(feature = "ssr")]
mod public_origins;
#[cfg(feature = "ssr")]
pub mod service;

pub use components::{AdminPage, LoginPage, SettingsPage, SignupPage, UserMenu};
#[cfg(feature = "ssr")]
pub use public_origins::PublicOrigins;
