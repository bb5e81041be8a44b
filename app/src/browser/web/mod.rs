//! The browser build's side of `crate::browser`, one concern a file.

mod app_frame;
mod chunks;
mod clock;
mod code_blocks;
mod files;
mod hydration;
mod live;
mod page;
mod push;
mod request;
mod storage;
mod turn_stream;

pub use app_frame::{
    confirm, css_variables, frame_size, has_focus, listen_to_frame, page_locale, page_theme, post_to_frame,
    sandbox_page, url_component, url_host, watch_resize, watch_theme,
};
pub(crate) use chunks::{Chunk, lazy_page, lazy_view, unloaded_page};
pub use clock::{local_moment, now_ms, sleep, time_zone, utc_offset_minutes};
pub use files::{chosen_files, receive_files, upload_files};
pub use hydration::{finish_hydration, hydrated, page_shows, show_load_error};
pub use live::listen_live;
pub use page::{
    absolute_url, apple_keyboard, caret_at_start, click_along, click_if_enabled, copy_text, distance_to_end, fit_frame,
    fit_to_content, focus_along, focus_first, focus_if_free, go_to, keep_distance_to_end, open_link,
    resolves_to_this_origin, scroll_to_newest, scroll_top, set_root_attribute, set_title, show_modal, shows_end,
    shows_start,
};
pub use push::{
    device_name_guess, new_tab_id, on_visibility_change, page_visible, push_supported, subscribe_push,
    this_push_endpoint, unsubscribe_push,
};
pub use request::request;
pub use storage::{forget_kept_for_session, keep_for_session, kept_for_session, store, stored};
pub use turn_stream::{attach, send_prompt};
pub use web_sys::File;
