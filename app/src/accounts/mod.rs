//! Accounts: users, browser sessions, API tokens, and who may do what.

mod admin_users;
pub mod api;
#[cfg(feature = "ssr")]
pub mod auth;
#[cfg(feature = "ssr")]
mod caller;
#[cfg(feature = "ssr")]
mod client_address;
mod components;
pub mod model;
#[cfg(feature = "ssr")]
mod public_origins;
#[cfg(feature = "ssr")]
pub mod service;
#[cfg(feature = "ssr")]
pub mod store;
#[cfg(feature = "ssr")]
mod strength;

pub use admin_users::AccountsSection;
#[cfg(feature = "ssr")]
pub use client_address::TrustedProxies;
pub use components::{LoginPage, PasswordSection, SignupPage, TokensSection, UserMenu};
#[cfg(feature = "ssr")]
pub use public_origins::PublicOrigins;
