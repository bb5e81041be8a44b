//! Hydrating the page the browser first loaded: what it needs first, and whether it is done.

use std::sync::atomic::{AtomicBool, Ordering};

static FINISHED: AtomicBool = AtomicBool::new(false);

/// Called by the frontend once the first page is hydrated.
pub fn finish() {
    FINISHED.store(true, Ordering::Relaxed);
    crate::markdown::code_blocks::enhance();
    // Lets browser tests wait until the page reacts to input.
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__PALAVER_HYDRATED__".into(), &true.into());
}

pub fn finished() -> bool {
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

/// Fetches what the server-rendered page needs before it can be hydrated: the block renderer's
/// chunk when the page shows a block document, the ask controls' chunk when it shows a pending
/// ask (both are hydrated at once). Tries each twice; false when code could not be fetched.
pub async fn prepare() -> bool {
    let shows = |selector: &str| leptos::prelude::document().query_selector(selector).ok().flatten().is_some();
    let blocks = crate::components::block_renderer::load;
    let asks = crate::chat::load_ask_controls;
    (!shows("[data-testid=blocks]") || blocks().await || blocks().await)
        && (!shows("[data-testid=ask-card], [data-testid=ask-invalid]") || asks().await || asks().await)
}
