//! Accounts: users, browser sessions, API tokens, and who may do what (the models as the
//! client sees them are in `palaver_wire::accounts`).

pub mod auth;
mod caller;
mod client_address;
mod public_origins;
pub mod service;
pub mod store;
mod strength;

pub use client_address::TrustedProxies;
pub use public_origins::PublicOrigins;
