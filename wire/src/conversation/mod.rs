//! Conversations as both sides read them: the stored rows and views, the transcript built
//! from them, an ask's summary and deadline as a card shows them, the reference's history
//! document, and the export to a file.

pub mod deadline;
pub mod document;
pub mod export;
pub mod model;
pub mod plain;
pub mod snippet;
pub mod summary;
pub mod transcript;
