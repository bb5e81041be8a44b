//! Hydrating the page the browser first loaded: what it checks on the page before, and what it
//! starts after (`crate::hydration` is the frontend's way in).

use std::sync::atomic::{AtomicBool, Ordering};

static FINISHED: AtomicBool = AtomicBool::new(false);

/// Whether the page shows an element `selector` matches (false on the server).
pub fn page_shows(selector: &str) -> bool {
    leptos::prelude::document().query_selector(selector).ok().flatten().is_some()
}

/// Called once the first page is hydrated: code blocks start highlighting and copying.
pub fn finish_hydration() {
    FINISHED.store(true, Ordering::Relaxed);
    super::code_blocks::enhance();
    // Lets browser tests wait until the page reacts to input.
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__PALAVER_HYDRATED__".into(), &true.into());
}

/// Whether the first page has been hydrated (what is made now is made in the browser alone).
pub fn hydrated() -> bool {
    FINISHED.load(Ordering::Relaxed)
}

/// Says on the page that code it needs could not be fetched: it stays as the server rendered
/// it and does not respond.
pub fn show_load_error() {
    if let Some(body) = leptos::prelude::document().body() {
        let _ = body.insert_adjacent_html(
            "afterbegin",
            r#"<p class="load-error" role="alert">Part of Palaver could not be loaded. Reload the page to try again.</p>"#,
        );
    }
}
