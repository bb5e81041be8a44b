//! The block renderer: a reply document as semantic, accessible HTML. Every block type has its
//! view; steppers and checklists keep their state and call host actions; buttons reply, open
//! links, switch a chart's dataset, copy text or call the host.

mod elements;
mod image_hosts;
mod interactive;
mod loader;
mod render;
mod state;

use leptos::prelude::*;

use crate::markdown;
use image_hosts::page_image_hosts;
pub use image_hosts::{IMAGE_HOSTS_ATTRIBUTE, ImageHostsContext};
use loader::Rendered;
pub(crate) use loader::renderer;
use palaver_contract::blocks::{ShownCheck, reads_as_document};

/// What a document's buttons can do beyond the document, provided by the page that shows it.
#[derive(Clone, Copy)]
pub struct BlockActionsContext {
    /// Sends a `reply` action's text as the user's next message.
    pub reply: Callback<String>,
    /// The conversation the document belongs to (host callbacks are checked against it).
    pub history_id: Signal<Option<String>>,
}

/// A checked reply: its blocks, or (for a document that did not validate) a banner with the
/// errors and the raw text. A reply that is not a document at all is shown as markdown.
#[component]
pub fn BlocksReply(check: ShownCheck, raw: String) -> impl IntoView {
    if let Some(document) = check.doc {
        return view! { <BlocksDocumentView document /> }.into_any();
    }
    // Prose is prose: a reply a YAML reader happens to reject is markdown, not a broken document.
    if check.is_prose() || !reads_as_document(&raw) {
        return view! { <div class="markdown" inner_html=markdown::to_html(&raw)></div> }.into_any();
    }
    view! {
        <div class="blocks-error" role="alert" data-testid="blocks-error">
            <p class="blocks-error__title">"This reply could not be shown: its document has errors."</p>
            <ul>
                {check
                    .errors
                    .into_iter()
                    .map(|error| {
                        view! {
                            <li>
                                <code>{error.path}</code>
                                " "
                                <code>{error.code.as_str()}</code>
                                " "
                                {error.message}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <details>
                <summary>"Show the reply as sent"</summary>
                <pre class="blocks-error__raw">{raw}</pre>
            </details>
        </div>
    }
    .into_any()
}

/// A checked document's blocks (as JSON: the renderer reads it into its types). In the browser
/// the renderer (with its charts and the block types) is a wasm chunk of its own:
/// a page that shows a document fetches it before it is hydrated (`crate::hydration::prepare`),
/// a document that arrives later fetches it when it first shows, and a chat without documents
/// never downloads it.
#[component]
pub fn BlocksDocumentView(document: serde_json::Value) -> impl IntoView {
    renderer::view_when_loaded(Rendered::Document(document))
}

/// A reply document still streaming: its complete top-level blocks as they arrive, then a
/// pending tail. They are shown inert (nothing to click) until the checked document
/// replaces them when the reply ends, and they load nothing its check would refuse: an image
/// off this server's image hosts shows its alt text, an html block (sanitized only on the
/// server, once the reply is complete) a placeholder.
#[component]
pub fn StreamingBlocks(text: String) -> impl IntoView {
    renderer::view_when_loaded(Rendered::Streaming { text, image_hosts: page_image_hosts() })
}
