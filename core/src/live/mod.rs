//! Live events: what happens to a user's asks, turns and conversations, pushed to each of
//! their open tabs and devices (`GET /gpt/events`), so a new ask, an answer given elsewhere or a
//! finished turn shows without a reload. Each event has an id; a client that reconnects with
//! `Last-Event-ID` gets what it missed (the newest 256 of the last hour), or `resync` when that
//! is gone. Events are stored, so every instance on one database delivers them.
//! The events themselves are in `palaver_wire::live`.

mod channels;
mod followers;
mod hub;
mod store;

pub use channels::{Delivered, Membership};
pub use followers::{Following, Published};
pub use hub::{LiveHub, Missed, Subscription};
