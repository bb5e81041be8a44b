//! The browser entry point: hydrates the server-rendered page.

use any_spawner::Executor;

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Hydration is asynchronous: a lazy route's page is hydrated once its wasm chunk has loaded.
    _ = Executor::init_wasm_bindgen();
    Executor::spawn_local(async {
        let body = leptos::prelude::document().body().expect("the page has a body");
        if !palaver_app::hydration::prepare().await {
            palaver_app::hydration::show_load_error();
            return;
        }
        leptos::mount::hydrate_from_async(body, palaver_app::App).await.forget();
        palaver_app::hydration::finish();
    });
}
