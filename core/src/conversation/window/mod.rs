//! A window of a long conversation (`palaver_wire::conversation::window`): its newest rows, the
//! rows before a window, or a window's last exchange on, each read in one statement that walks
//! the index `history_rows (history_id, seq)` from a cursor, so the chat's reads cost the same
//! however long the conversation grows.

pub mod store;
