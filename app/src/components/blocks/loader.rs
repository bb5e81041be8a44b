//! The renderer's wasm chunk: fetched on demand in the browser, and what it renders (a whole
//! document, or the blocks of one still streaming).

use leptos::prelude::*;

use super::render::render;
use super::state::DocState;
use palaver_contract::blocks::model::BlocksDocument;
use palaver_contract::blocks::parse_blocks_partial;

/// What the renderer's chunk is asked to render.
#[derive(Clone)]
pub(super) enum Rendered {
    /// A checked document as the server sent it: it is read into its types here, in the chunk.
    Document(serde_json::Value),
    Streaming(String),
}

impl Rendered {
    fn view(self) -> AnyView {
        match self {
            Rendered::Document(document) => match BlocksDocument::from_value(document) {
                Ok(document) => document_view(document),
                // The server checked it; a document it sent that does not read is its bug.
                Err(err) => view! {
                    <p class="blocks-error" role="alert" data-testid="blocks-error">
                        {format!("This reply could not be shown: its document could not be read ({err}).")}
                    </p>
                }
                .into_any(),
            },
            Rendered::Streaming(text) => streaming_view(&text),
        }
    }
}

fn streaming_view(text: &str) -> AnyView {
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

fn document_view(document: BlocksDocument) -> AnyView {
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
    use leptos::prelude::*;
    use leptos::wasm_split::{SplitLoaderError, wasm_split};

    use super::Rendered;
    use crate::chunks::Chunk;

    static CHUNK: Chunk = Chunk::new(
        ("blocks-pending", "Preparing the reply…"),
        ("blocks-error", "This reply's blocks could not be loaded. Reload the page to try again."),
    );

    #[wasm_split(palaver_blocks, wasm_split_path = ::leptos::wasm_split, fallible, preload(load_chunk))]
    fn split_view(rendered: Rendered) -> Result<AnyView, SplitLoaderError> {
        Ok(rendered.view())
    }

    /// Fetches the chunk (once it has loaded, at once); whether it is loaded.
    pub(crate) async fn load() -> bool {
        CHUNK.load(load_chunk()).await
    }

    /// Rendered at once when the chunk is loaded, or a placeholder until it is.
    pub(in crate::components::blocks) fn view_when_loaded(rendered: Rendered) -> AnyView {
        CHUNK.view_when_loaded(rendered, split_view, load)
    }
}

/// On the server the blocks render at once.
#[cfg(not(feature = "hydrate"))]
pub(crate) mod renderer {
    use leptos::prelude::AnyView;

    use super::Rendered;

    pub(in crate::components::blocks) fn view_when_loaded(rendered: Rendered) -> AnyView {
        rendered.view()
    }
}
