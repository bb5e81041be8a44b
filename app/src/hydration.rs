//! Whether the browser has finished hydrating the page it first loaded.

use std::sync::atomic::{AtomicBool, Ordering};

static FINISHED: AtomicBool = AtomicBool::new(false);

/// Called by the frontend once the first page is hydrated.
pub fn finish() {
    FINISHED.store(true, Ordering::Relaxed);
    // Lets browser tests wait until the page reacts to input.
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__PALAVER_HYDRATED__".into(), &true.into());
}

pub fn finished() -> bool {
    FINISHED.load(Ordering::Relaxed)
}
