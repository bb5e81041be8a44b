//! Conversations on the server: storage, access, the service (list, read, rename, delete,
//! stop, host actions), how owners keep them (pinned, archived, shared by a link), the turns
//! running right now and their leases, how this server takes block replies (and the checks
//! kept with them), and the window of a long conversation the chat reads a part at a time.
//! Their wire types are in `palaver_wire::conversation`.

pub mod access;
pub mod actions;
pub mod app_contexts;
mod block_settings;
pub mod branches;
mod head;
mod kept_checks;
pub mod leases;
pub mod pages;
pub mod running;
pub mod service;
pub mod shelf;
pub mod store;
mod stream_mirror;
pub mod turn_log;
mod view;
pub mod window;

pub use block_settings::{BlocksSettings, is_host_name, parse_image_hosts};
pub use service::Conversations;
