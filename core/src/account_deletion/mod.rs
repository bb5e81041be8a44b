//! A user deletes their account and everything it owns: conversations and their messages,
//! files (index and bytes), grants, tokens, sessions, audit entries and the request log. It
//! sits above accounts, conversations and uploads because it reaches into all three.

mod service;
mod store;

pub use service::{Reached, delete_account};
