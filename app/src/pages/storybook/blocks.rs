//! `/storybook/blocks/<name>`: every block fixture rendered — valid ones as blocks, invalid ones
//! with their error banner, the streaming one as far as it got — plus an HTML frame holding a
//! hostile document the sandbox keeps inert. Light and dark side by side.

use leptos::prelude::*;

use super::api::{BlockStory, storybook_block_story};
use super::frame::{StoryFrame, in_both_themes};
use crate::components::{BlocksDocumentView, BlocksReply};

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
            "Unsanitized on purpose: scripts, handlers, forms and outside images stay inert in the sandbox, where no script runs."
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
