//! Values kept in the browser: in localStorage (for good) or sessionStorage (for the tab's
//! life, across reloads). None on the server.

use web_sys::Storage;

fn local() -> Option<Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn session() -> Option<Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// A value kept in the browser's localStorage.
pub fn stored(key: &str) -> Option<String> {
    local()?.get_item(key).ok()?
}

/// Keeps `value` in the browser's localStorage.
pub fn store(key: &str, value: &str) {
    if let Some(storage) = local() {
        let _ = storage.set_item(key, value);
    }
}

/// A value this tab keeps across reloads (sessionStorage).
pub fn kept_for_session(key: &str) -> Option<String> {
    session()?.get_item(key).ok()?
}

/// Keeps `value` for this tab's life, or forgets it (`None`). A value over the storage's quota
/// is not kept: what is lost is a draft's reload, never the draft.
pub fn keep_for_session(key: &str, value: Option<&str>) {
    let Some(storage) = session() else { return };
    let _ = match value {
        Some(value) => storage.set_item(key, value),
        None => storage.remove_item(key),
    };
}

/// Forgets everything this tab kept for the session: it was the signed-in person's (drafts of
/// their answers), and goes when they sign out.
pub fn forget_kept_for_session() {
    if let Some(storage) = session() {
        let _ = storage.clear();
    }
}
