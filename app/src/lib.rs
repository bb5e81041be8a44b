//! Palaver's pages: the chat, Settings, the watch and the storybook, their components, and the
//! server functions behind them (thin: under `ssr` they call `palaver-core`). Compiled for the
//! server (`ssr`) and the browser (`hydrate`).

pub mod account_deletion;
pub mod accounts;
pub mod audit;
mod browser;
pub mod chat;
pub mod components;
pub mod grants;
pub mod http;
pub mod hydration;
pub mod mail;
pub mod markdown;
mod mcp_admin;
pub mod navigation;
mod page_context;
mod page_title;
mod pages;
pub mod preferences;
pub mod push;
#[cfg(feature = "ssr")]
pub mod server_fn;
#[cfg(feature = "ssr")]
pub mod state;
pub mod webhooks;
pub mod words;

use leptos::prelude::*;
use leptos_meta::{MetaTags, Stylesheet, Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{Lazy, path};

use accounts::UserMenu;
use chat::ChatPage;
use page_context::{asks_on, image_hosts, page_words};

/// The attribute the page's `<body>` carries when this server's agent asks nothing (no ask kind
/// is on): the header then shows no inbox, whose list would only be refused.
pub const ASKS_OFF_ATTRIBUTE: &str = "data-asks-off";

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
                <script nonce=use_nonce() inner_html=components::THEME_SCRIPT></script>
                <AutoReload options=options.clone() />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body
                data-reader-language=page_words().tag()
                data-asks-off=(!asks_on()).then_some("")
                data-image-hosts=image_hosts().attribute()
            >
                <App />
            </body>
        </html>
    }
}

#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    provide_context(page_words());
    provide_context(image_hosts());
    chat::ConversationsDrawer::provide();
    page_title::PageTitle::provide();
    view! {
        <Stylesheet id="leptos" href="/pkg/palaver.css" />
        <Title text="Palaver" />
        <Router>
            <header class="app-header">
                <chat::SkipToComposer />
                <chat::ConversationsButton />
                <a class="app-header__brand" href="/">
                    "Palaver"
                </a>
                <UserMenu>{asks_on().then(|| view! { <chat::Inbox /> })}</UserMenu>
                <components::ThemeToggle />
            </header>
            <push::TabPresence />
            <Routes fallback=NotFound>
                <Route path=path!("/") view=ChatPage />
                <Route path=path!("/login") view={Lazy::<pages::LoginRoute>::new()} />
                <Route path=path!("/signup") view={Lazy::<pages::SignupRoute>::new()} />
                <Route path=path!("/settings") view={Lazy::<pages::SettingsRoute>::new()} />
                <Route path=path!("/admin") view={Lazy::<pages::AdminRoute>::new()} />
                <Route path=path!("/s/:token") view={Lazy::<pages::SharedRoute>::new()} />
                <Route path=path!("/watch") view={Lazy::<pages::WatchRoute>::new()} />
                <Route path=path!("/storybook") view={Lazy::<pages::StorybookIndexRoute>::new()} />
                <Route path=path!("/storybook/asks/:name") view={Lazy::<pages::StorybookAskRoute>::new()} />
                <Route path=path!("/storybook/cards/:name") view={Lazy::<pages::StorybookCardRoute>::new()} />
                <Route path=path!("/storybook/blocks/:name") view={Lazy::<pages::StorybookBlockRoute>::new()} />
                <Route path=path!("/storybook/apps") view={Lazy::<pages::StorybookAppsRoute>::new()} />
            </Routes>
        </Router>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <main class="not-found">
            <h1>"Page not found"</h1>
            <p>
                <a href="/">"Back to the chat"</a>
            </p>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use palaver_contract::asks::AskErrorCode;
    use palaver_contract::blocks::{BlockErrorCode, BlockWarningCode};

    fn codes_are_their_names<T: Copy + PartialEq + Debug + Serialize + DeserializeOwned>(
        all: &[T],
        name: impl Fn(T) -> &'static str,
    ) {
        for &code in all {
            let wire = serde_json::to_value(code).unwrap();
            assert_eq!(wire, name(code));
            assert_eq!(serde_json::from_value::<T>(wire).unwrap(), code);
        }
        let unknown = serde_json::from_str::<T>(r#""NOT_A_CODE""#).unwrap_err();
        assert!(unknown.to_string().contains("unknown code NOT_A_CODE"), "{unknown}");
    }

    #[test]
    fn error_codes_travel_as_their_names() {
        codes_are_their_names(AskErrorCode::ALL, AskErrorCode::as_str);
        codes_are_their_names(BlockErrorCode::ALL, BlockErrorCode::as_str);
        codes_are_their_names(BlockWarningCode::ALL, BlockWarningCode::as_str);
    }
}
