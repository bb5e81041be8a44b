//! Conversations as both sides read them: the stored rows and views, the transcript built
//! from them, an ask's summary and deadline as a card shows them, the reference's history
//! document, the export to a file, how an owner keeps one (pinned, archived, shared), its
//! read-only share link, and the window of a long one the chat reads a part at a time.

pub mod answer_change;
pub mod deadline;
pub mod document;
pub mod export;
pub mod joined_rows;
pub mod model;
pub mod naming;
pub mod page;
pub mod plain;
pub mod share;
pub mod shelf;
pub mod snippet;
pub mod summary;
pub mod transcript;
mod turn_parts;
pub mod window;
