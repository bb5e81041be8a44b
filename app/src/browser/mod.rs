//! What only a browser can do; on the server the same functions do nothing, so components carry
//! no `cfg`. They are called from effects and event handlers, which a server rendering a page
//! never runs.
//!
//! The choice is made here, once: `web` is what the browser build (`hydrate`) does, one concern
//! a file; `inert` the server's twins, with the same signatures (each does nothing, or returns
//! the default its browser twin's doc names). Lazy wasm chunks go through the same choice:
//! `lazy_view!` and `lazy_page!` put code into a chunk the browser fetches on demand, and on the
//! server render it at once.

#[cfg(feature = "hydrate")]
mod web;
#[cfg(feature = "hydrate")]
use web as chosen;
/// What the browser's `lazy_view!` and `lazy_page!` expand to.
#[cfg(feature = "hydrate")]
pub(crate) use web::{Chunk, unloaded_page};

#[cfg(not(feature = "hydrate"))]
mod inert;
#[cfg(not(feature = "hydrate"))]
use inert as chosen;

pub use chosen::{
    File, absolute_url, apple_keyboard, attach, caret_at_start, chosen_files, click_along, click_if_enabled, copy_text,
    distance_to_end, finish_hydration, fit_frame, fit_to_content, focus_along, focus_first, focus_if_free,
    forget_kept_for_session, go_to, hydrated, keep_distance_to_end, keep_for_session, kept_for_session, listen_live,
    local_moment, now_ms, open_link, page_shows, receive_files, request, resolves_to_this_origin, scroll_to_newest,
    scroll_top, send_prompt, set_root_attribute, set_title, show_load_error, show_modal, shows_end, shows_start, sleep,
    store, stored, time_zone, upload_files, utc_offset_minutes,
};
/// MCP Apps: the sandbox page's address, its frame's messages, what the app is told of the page.
pub use chosen::{
    confirm, css_variables, frame_size, has_focus, listen_to_frame, page_locale, page_theme, post_to_frame,
    sandbox_page, url_component, url_host, watch_resize, watch_theme,
};
/// Web Push: the worker, the permission, this device's subscription, the page's visibility.
pub use chosen::{
    device_name_guess, new_tab_id, on_visibility_change, page_visible, push_supported, subscribe_push,
    this_push_endpoint, unsubscribe_push,
};
pub(crate) use chosen::{lazy_page, lazy_view};

use palaver_wire::error::FieldError;

/// Why a turn could not start (or was cut off).
pub struct SendError {
    pub status: u16,
    pub title: String,
    /// The field errors of an invalid answer (400).
    pub fields: Vec<FieldError>,
    /// The stream had begun when it broke: the turn may well go on, and can be attached to.
    pub cut_off: bool,
}

impl From<String> for SendError {
    fn from(title: String) -> Self {
        SendError { status: 0, title, fields: Vec::new(), cut_off: false }
    }
}

impl From<&str> for SendError {
    fn from(title: &str) -> Self {
        title.to_string().into()
    }
}

/// What attaching to a running turn found (only the browser's `attach` makes one).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub enum Attach {
    /// The turn's events were followed to its end.
    Followed,
    /// No turn is streaming on the conversation.
    NothingRunning,
}

/// What `upload_files` does with a file when the server keeps no files (its upload is a 404).
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
pub enum WithoutStorage {
    /// The file's bytes travel as a data URL instead (the contract's fallback for a `files` answer).
    DataUrl,
    /// The file is refused, for this reason.
    Refused(&'static str),
}
