//! The browser entry point: hydrates the server-rendered page.

use any_spawner::Executor;

#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // Hydration is asynchronous: a lazy route's page is hydrated once its wasm chunk has loaded.
    _ = Executor::init_wasm_bindgen();
    Executor::spawn_local(async {
        let body = leptos::prelude::document().body().expect("the page has a body");
        if !app::hydration::prepare().await {
            // The page stays as the server rendered it; say why it does not respond.
            let _ = body.insert_adjacent_html(
                "afterbegin",
                r#"<p class="load-error" role="alert">Part of Palaver could not be loaded. Reload the page to try again.</p>"#,
            );
            return;
        }
        leptos::mount::hydrate_from_async(body, app::App).await.forget();
        app::hydration::finish();
    });
}
