//! The reader's words in a page (the catalogs and their formatter are `palaver_wire::words`).

#[cfg(all(feature = "hydrate", not(feature = "ssr")))]
use palaver_wire::words::READER_LANGUAGE_ATTRIBUTE;
use palaver_wire::words::Words;

/// The reader's words, as the page decided them (English outside a page).
pub fn reader_words() -> Words {
    leptos::prelude::use_context::<Words>().unwrap_or_default()
}

/// The reader's words for this page: on the server from the request's Accept-Language, in the
/// browser from what the server wrote into the page.
pub fn page_words() -> Words {
    #[cfg(feature = "ssr")]
    {
        use leptos::prelude::use_context;
        let header = use_context::<axum::http::request::Parts>().and_then(|parts| {
            parts.headers.get(axum::http::header::ACCEPT_LANGUAGE)?.to_str().ok().map(str::to_string)
        });
        header.map(|header| Words::from_accept_language(&header)).unwrap_or_default()
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        let tag = leptos::prelude::document().body().and_then(|body| body.get_attribute(READER_LANGUAGE_ATTRIBUTE));
        tag.and_then(|tag| Words::for_tag(&tag)).unwrap_or_default()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Words::default()
    }
}
