//! Route-level pages that are not part of a domain module, and the lazy routes: pages the
//! chat does not need (sign-in forms, settings, admin, watch preview, storybook) are split into wasm chunks
//! the router loads on the first visit, so the chat's download does not carry them
//! (`cargo leptos build --split`).

mod storybook;
mod storybook_blocks;
mod watch;

use leptos::prelude::*;
use leptos_router::{LazyRoute, lazy_route};

/// Declares a lazy route for a page component: no route data, the page's view in its own chunk.
macro_rules! lazy_page {
    ($route:ident, $page:path) => {
        pub struct $route;

        #[lazy_route]
        impl LazyRoute for $route {
            fn data() -> Self {
                $route
            }

            fn view(_this: Self) -> AnyView {
                view! { <$page /> }.into_any()
            }
        }
    };
}

lazy_page!(LoginRoute, crate::accounts::LoginPage);
lazy_page!(SignupRoute, crate::accounts::SignupPage);
lazy_page!(SettingsRoute, crate::accounts::SettingsPage);
lazy_page!(AdminRoute, crate::accounts::AdminPage);
lazy_page!(WatchRoute, watch::WatchPage);
lazy_page!(StorybookIndexRoute, storybook::StorybookIndex);
lazy_page!(StorybookAskRoute, storybook::StorybookAskPage);
lazy_page!(StorybookCardRoute, storybook::StorybookCardPage);
lazy_page!(StorybookBlockRoute, storybook_blocks::StorybookBlockPage);
