//! What Palaver's browser and server both read: the JSON bodies of its API, the conversation
//! and account models the pages show, live events, audit and grant rows, the error kinds a
//! client is told, and the words cards are written in. Pure data and pure functions: no
//! tokio, no database, no Leptos (the contract's asks and blocks are in `palaver-contract`).

pub mod accounts;
pub mod approvers;
pub mod apps;
pub mod audit;
pub mod batch;
pub mod body;
pub mod conversation;
pub mod error;
pub mod grants;
pub mod impact;
pub mod live;
pub mod mail;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod preferences;
pub mod push;
pub mod webhooks;
pub mod words;
