//! Values kept in the browser's localStorage (none on the server).

/// A value kept in the browser's localStorage.
pub fn stored(key: &str) -> Option<String> {
    let storage = web_sys::window()?.local_storage().ok()??;
    storage.get_item(key).ok()?
}

/// Keeps `value` in the browser's localStorage.
pub fn store(key: &str, value: &str) {
    if let Some(Ok(Some(storage))) = web_sys::window().map(|window| window.local_storage()) {
        let _ = storage.set_item(key, value);
    }
}
