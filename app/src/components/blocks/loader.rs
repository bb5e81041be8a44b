//! The renderer's wasm chunk: fetched on demand in the browser, and what it renders (a whole
//! document, or the blocks of one still streaming).

use leptos::prelude::*;

use super::render::render;
use super::state::DocState;
use palaver_contract::blocks::model::BlocksDocument;
use palaver_contract::blocks::parse_blocks_partial;

/// What the renderer's chunk is asked to render. One split function serves both: each has a
/// loader of its own, and only one whose chunk is loaded answers on its first poll.
#[cfg(feature = "hydrate")]
#[derive(Clone)]
pub(super) enum Rendered {
    Document(BlocksDocument),
    Streaming(String),
}

#[cfg(feature = "hydrate")]
impl Rendered {
    fn view(self) -> AnyView {
        match self {
            Rendered::Document(document) => document_view(document),
            Rendered::Streaming(text) => streaming_view(&text),
        }
    }
}

pub(super) fn streaming_view(text: &str) -> AnyView {
    let document = parse_blocks_partial(text).into_document();
    view! {
        {(!document.blocks.is_empty())
            .then(|| {
                view! {
                    <div class="blocks-streaming" inert=true data-testid="blocks-streaming">
                        {document_view(document)}
                    </div>
                }
            })}
        <p class="blocks-pending" role="status" data-testid="blocks-pending">
            "Preparing the reply…"
        </p>
    }
    .into_any()
}

pub(super) fn document_view(document: BlocksDocument) -> AnyView {
    let state = DocState::new(&document);
    view! {
        <div class="blocks" data-testid="blocks">
            {document.blocks.into_iter().map(|block| render(block, state)).collect_view()}
        </div>
    }
    .into_any()
}

/// The renderer's chunk, fetched on demand in the browser.
#[cfg(feature = "hydrate")]
pub(crate) mod renderer {
    use std::pin::pin;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::task::{Context, Poll, Waker};

    use leptos::prelude::*;
    use leptos::wasm_split::{SplitLoaderError, wasm_split};

    use super::Rendered;

    static LOADED: AtomicBool = AtomicBool::new(false);

    #[wasm_split(palaver_blocks, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_chunk))]
    fn split_view(rendered: Rendered) -> Result<AnyView, SplitLoaderError> {
        Ok(rendered.view())
    }

    /// Fetches the chunk (once it has loaded, at once); whether it is loaded.
    pub(crate) async fn load() -> bool {
        if !LOADED.load(Ordering::Relaxed) && load_chunk().await.is_ok() {
            LOADED.store(true, Ordering::Relaxed);
        }
        LOADED.load(Ordering::Relaxed)
    }

    /// Rendered at once when the chunk is loaded (which hydration relies on), or a placeholder
    /// until it is. Calls made while it is in flight share its one fetch.
    pub(in crate::components::blocks) fn view_when_loaded(rendered: Rendered) -> AnyView {
        if let Some(view) = view_now(rendered.clone()) {
            return view;
        }
        let loaded = RwSignal::new(None::<bool>);
        leptos::task::spawn_local(async move { loaded.set(Some(load().await)) });
        (move || match loaded.get() {
            None => view! { <p class="blocks-pending">"Preparing the reply…"</p> }.into_any(),
            Some(true) => view_now(rendered.clone()).unwrap_or_else(unavailable),
            Some(false) => unavailable(),
        })
        .into_any()
    }

    /// Calls into the chunk when it is loaded: the call then completes on its first poll.
    fn view_now(rendered: Rendered) -> Option<AnyView> {
        if !LOADED.load(Ordering::Relaxed) {
            return None;
        }
        match pin!(split_view(rendered)).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(view)) => Some(view),
            _ => None,
        }
    }

    fn unavailable() -> AnyView {
        view! {
            <p class="blocks-error" role="alert">
                "This reply's blocks could not be loaded. Reload the page to try again."
            </p>
        }
        .into_any()
    }
}
