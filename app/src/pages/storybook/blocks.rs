//! `/storybook/blocks/<name>`: every block fixture rendered — valid ones as blocks, invalid ones
//! with their error banner, the streaming one as far as it got — plus an HTML frame holding a
//! hostile document the sandbox keeps inert. Light and dark side by side.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use super::frame::{StoryFrame, in_both_themes};
use crate::components::{BlocksDocumentView, BlocksReply};
use palaver_contract::blocks::ShownCheck;
use palaver_wire::error::AppError;

/// Not sanitized on purpose: the story shows that the frame alone keeps it inert.
#[cfg(feature = "ssr")]
const HOSTILE_HTML_STORY: &str = r#"{"v": 1, "blocks": [
  {"type": "heading", "text": "A hostile document in the frame, unsanitized"},
  {"type": "html", "title": "Hostile preview", "height": "sm", "html": "<h1 onclick=\"parent.__pwned='click'\">Pay now</h1><script>parent.__pwned = 'script'</script><img src=\"https://tracker.example.com/p.png\" alt=\"tracker\" onerror=\"parent.__pwned='img'\"><form action=\"https://evil.example.com\"><button>Send</button></form><a href=\"javascript:parent.__pwned='link'\">link</a><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example.com\"><style>body{background:url(https://tracker.example.com/bg.png)}</style>"}
]}"#;

/// The name of the hostile-frame story.
#[cfg(feature = "ssr")]
const HOSTILE_STORY: &str = "html-hostile-frame";

/// A block story as the page renders it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockStory {
    pub name: String,
    /// valid, golden, partial, invalid, or frame.
    pub group: String,
    pub text: String,
    pub check: ShownCheck,
    /// For the streaming story: the blocks a partial parse recovers (as JSON, as a checked
    /// document is sent).
    pub partial: Option<serde_json::Value>,
}

#[cfg(feature = "ssr")]
fn block_story(group: &str, name: &str, text: &str) -> BlockStory {
    use palaver_contract::blocks::{BlockOptions, check_blocks_text, parse_blocks_partial};
    let options = match group {
        "golden" => BlockOptions {
            image_hosts: vec!["images.example.com".into()],
            host_actions: Some(vec![
                palaver_contract::blocks::SCALE_STEPPER.into(),
                palaver_contract::blocks::TOGGLE_CHECKLIST.into(),
            ]),
            ..BlockOptions::default()
        },
        "frame" => BlockOptions { allow_html: true, ..BlockOptions::default() },
        _ => BlockOptions::default(),
    };
    let partial =
        (group == "partial").then(|| serde_json::to_value(parse_blocks_partial(text).into_document()).ok()).flatten();
    BlockStory {
        name: name.to_string(),
        group: group.to_string(),
        text: text.to_string(),
        check: check_blocks_text(text, &options).shown(),
        partial,
    }
}

#[cfg(feature = "ssr")]
fn all_block_stories() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    super::fixtures::BLOCK_FIXTURES.iter().copied().chain([("frame", HOSTILE_STORY, HOSTILE_HTML_STORY)])
}

/// (group, name) of every block story.
#[server(prefix = "/api", endpoint = "storybook_block_stories")]
pub async fn storybook_block_stories() -> Result<Vec<(String, String)>, AppError> {
    Ok(all_block_stories().map(|(group, name, _)| (group.to_string(), name.to_string())).collect())
}

#[server(prefix = "/api", endpoint = "storybook_block_story")]
pub async fn storybook_block_story(name: String) -> Result<Option<BlockStory>, AppError> {
    Ok(all_block_stories()
        .find(|(_, story, _)| *story == name)
        .map(|(group, name, text)| block_story(group, name, text)))
}

#[component]
pub fn StorybookBlockPage() -> impl IntoView {
    view! { <StoryFrame load=storybook_block_story content=block_story_view /> }
}

fn block_story_view(story: BlockStory) -> impl IntoView {
    let note = match story.group.as_str() {
        "invalid" => "An invalid document: the reply shows its errors and the text as sent.",
        "partial" => "A reply cut off while streaming: the blocks finished so far.",
        "golden" => "The golden document, checked with images.example.com allowed and both host actions registered.",
        "frame" => {
            "Unsanitized on purpose: scripts, handlers, forms and outside images stay inert in the empty sandbox."
        }
        _ => "A valid document.",
    };
    let source = story.text.clone();
    view! {
        <p data-testid="story-note">{note}</p>
        {in_both_themes(move || match story.partial.clone() {
            Some(document) => {
                view! {
                    <BlocksDocumentView document />
                    <p class="blocks-pending">"Still streaming…"</p>
                }
                    .into_any()
            }
            None => view! { <BlocksReply check=story.check.clone() raw=story.text.clone() /> }.into_any(),
        })}
        <details class="storybook__source">
            <summary>"The document"</summary>
            <pre>{source}</pre>
        </details>
    }
}
