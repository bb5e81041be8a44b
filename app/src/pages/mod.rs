//! Route-level pages that are not part of a domain module, and the lazy routes: pages the chat
//! page does not need (sign-in forms, settings, admin, watch preview, storybook) are split into
//! wasm chunks the router loads on the first visit, so the chat page's download does not carry
//! them (`cargo leptos build --split`).

mod admin;
mod settings;
mod storybook;
mod watch;

use leptos::prelude::*;

/// Declares a lazy route: `$page`'s code goes into the wasm chunk `$chunk`. Leptos's own
/// `#[lazy_route]` panics when a chunk cannot be fetched (a dropped connection, or a page
/// left open across a deploy), which stops the whole app; these routes recover instead.
macro_rules! lazy_page {
    ($route:ident, $chunk:ident, $page:path) => {
        pub use $chunk::$route;

        mod $chunk {
            use super::*;
            #[cfg(feature = "hydrate")]
            use leptos::wasm_split::{SplitLoaderError, wasm_split};

            pub struct $route;

            impl leptos_router::LazyRoute for $route {
                fn data() -> Self {
                    $route
                }

                async fn view(_this: Self) -> AnyView {
                    #[cfg(feature = "hydrate")]
                    match page().await {
                        Ok(view) => view,
                        Err(_) => unloaded_page().await,
                    }
                    #[cfg(not(feature = "hydrate"))]
                    view! { <$page /> }.into_any()
                }

                // The router fetches the chunk while it prepares the route, as `#[lazy_route]` does.
                #[cfg(feature = "hydrate")]
                async fn preload() {
                    // A failure shows when `view` calls the page.
                    let _ = preload_page().await;
                }
            }

            #[cfg(feature = "hydrate")]
            #[wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload(preload_page))]
            fn page() -> Result<AnyView, SplitLoaderError> {
                Ok(view! { <$page /> }.into_any())
            }
        }
    };
}

lazy_page!(LoginRoute, palaver_login_page, crate::accounts::LoginPage);
lazy_page!(SignupRoute, palaver_signup_page, crate::accounts::SignupPage);
lazy_page!(SettingsRoute, palaver_settings_page, settings::SettingsPage);
lazy_page!(AdminRoute, palaver_admin_page, admin::AdminPage);
lazy_page!(WatchRoute, palaver_watch_page, super::watch::WatchPage);
lazy_page!(StorybookIndexRoute, palaver_storybook_index, super::storybook::StorybookIndex);
lazy_page!(StorybookAskRoute, palaver_storybook_asks, super::storybook::StorybookAskPage);
lazy_page!(StorybookCardRoute, palaver_storybook_cards, super::storybook::StorybookCardPage);
lazy_page!(StorybookBlockRoute, palaver_storybook_blocks, super::storybook::StorybookBlockPage);

/// A lazy page whose chunk could not be fetched after a link was followed: the browser loads
/// the page in full, which fetches the current code from the server; meanwhile the route never
/// resolves, so the router keeps the page it shows. (While the first page is being hydrated,
/// the router cannot wait for a chunk that failed: that page stays as the server rendered it.)
#[cfg(feature = "hydrate")]
async fn unloaded_page() -> AnyView {
    if crate::hydration::finished() {
        let _ = window().location().assign(&routed_url());
    }
    std::future::pending().await
}

/// The URL the router is going to (the address bar still shows the page it leaves).
#[cfg(feature = "hydrate")]
fn routed_url() -> String {
    let url = leptos_router::hooks::use_url().get_untracked();
    let mut target = url.path().to_string();
    for (mark, part) in [('?', url.search()), ('#', url.hash())] {
        let part = part.trim_start_matches(mark);
        if !part.is_empty() {
            target.push(mark);
            target.push_str(part);
        }
    }
    target
}
