//! What a page knows of where it is served: the reader's words, whether the agent may ask, and
//! the hosts images in replies may load from. The server reads them from the request and its
//! settings and writes them into the page's `<body>` (`crate::shell`); the browser reads them
//! back from there, so it hydrates what the server rendered. The choice is made here, once.

#[cfg(not(feature = "ssr"))]
use in_the_page as source;
#[cfg(feature = "ssr")]
use on_the_server as source;

pub use source::{asks_on, image_hosts, page_words};

#[cfg(feature = "ssr")]
mod on_the_server {
    use leptos::prelude::use_context;

    use crate::components::ImageHostsContext;
    use crate::state::AppState;
    use palaver_wire::words::Words;

    /// Whether the agent may ask (some ask kind is on in the settings).
    pub fn asks_on() -> bool {
        use_context::<AppState>().is_none_or(|state| state.turns.asks_on())
    }

    /// The hosts https images in replies may load from, as the settings name them.
    pub fn image_hosts() -> ImageHostsContext {
        use_context::<AppState>()
            .and_then(|state| state.conversations.blocks)
            .map(|blocks| ImageHostsContext(blocks.image_hosts))
            .unwrap_or_default()
    }

    /// The reader's words for this page, from the request's Accept-Language.
    pub fn page_words() -> Words {
        let header = use_context::<axum::http::request::Parts>().and_then(|parts| {
            parts.headers.get(axum::http::header::ACCEPT_LANGUAGE)?.to_str().ok().map(str::to_string)
        });
        header.map(|header| Words::from_accept_language(&header)).unwrap_or_default()
    }
}

/// In the browser (and in a build for neither side, which never runs).
#[cfg(not(feature = "ssr"))]
mod in_the_page {
    use leptos::prelude::document;

    use crate::ASKS_OFF_ATTRIBUTE;
    use crate::components::{IMAGE_HOSTS_ATTRIBUTE, ImageHostsContext};
    use palaver_wire::words::{READER_LANGUAGE_ATTRIBUTE, Words};

    /// Whether the agent may ask: unless the server marked the page.
    pub fn asks_on() -> bool {
        document().body().is_none_or(|body| !body.has_attribute(ASKS_OFF_ATTRIBUTE))
    }

    /// The image hosts the server listed in the page (a streaming document's renderer asks).
    pub fn image_hosts() -> ImageHostsContext {
        document()
            .body()
            .and_then(|body| body.get_attribute(IMAGE_HOSTS_ATTRIBUTE))
            .map(|hosts| ImageHostsContext::from_attribute(&hosts))
            .unwrap_or_default()
    }

    /// The reader's words, by the language the server wrote into the page.
    pub fn page_words() -> Words {
        let tag = document().body().and_then(|body| body.get_attribute(READER_LANGUAGE_ATTRIBUTE));
        tag.and_then(|tag| Words::for_tag(&tag)).unwrap_or_default()
    }
}
