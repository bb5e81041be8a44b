//! Hydrating the page the browser first loaded (the frontend's `hydrate()` calls these): the
//! wasm chunks it needs first, and what starts once it is hydrated. On the server, nothing.

pub use crate::browser::{finish_hydration as finish, show_load_error};

/// Fetches what the server-rendered page needs before it can be hydrated: the block renderer's
/// chunk when the page shows a block document, the ask controls' chunk when it shows a pending
/// ask (both are hydrated at once). Tries each twice; false when code could not be fetched.
pub async fn prepare() -> bool {
    let shows = crate::browser::page_shows;
    let blocks = crate::components::block_renderer::load;
    let asks = crate::chat::load_ask_controls;
    (!shows("[data-testid=blocks]") || blocks().await || blocks().await)
        && (!shows("[data-testid=ask-card], [data-testid=ask-invalid]") || asks().await || asks().await)
}
