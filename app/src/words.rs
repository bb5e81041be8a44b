//! The reader's words in a page (the catalogs and their formatter are `palaver_wire::words`;
//! the page's own are read by `crate::page_context`).

use palaver_wire::words::Words;

/// The reader's words, as the page decided them (English outside a page).
pub fn reader_words() -> Words {
    leptos::prelude::use_context::<Words>().unwrap_or_default()
}
