//! The browser entry point: hydrates the server-rendered page.

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
    // Lets browser tests wait until the page reacts to input.
    let _ = js_sys::Reflect::set(&js_sys::global(), &"__PALAVER_HYDRATED__".into(), &true.into());
}
