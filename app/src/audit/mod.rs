//! The audit trail in Settings (and for admins, everyone's), and the server function behind it.

pub mod api;
mod components;

pub use components::AuditSection;
