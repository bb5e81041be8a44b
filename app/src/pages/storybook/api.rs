//! The storybook's server functions: the contract's fixtures (contract/fixtures/asks/valid and
//! contract/fixtures/blocks, embedded at build time into server builds only) as its pages load
//! them.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "ssr")]
use fixtures::{all_block_stories, all_fixtures, block_story};
use palaver_contract::asks::AskKind;
use palaver_contract::blocks::ShownCheck;
use palaver_wire::error::AppError;

/// One ask fixture as the storybook shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoryFixture {
    pub name: String,
    pub kind: AskKind,
    /// The input as Palaver stores it (a question set with its minted ids).
    pub input: Value,
}

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

#[server(prefix = "/api", endpoint = "storybook_fixtures")]
pub async fn storybook_fixtures() -> Result<Vec<StoryFixture>, AppError> {
    Ok(all_fixtures())
}

#[server(prefix = "/api", endpoint = "storybook_fixture")]
pub async fn storybook_fixture(name: String) -> Result<Option<StoryFixture>, AppError> {
    Ok(all_fixtures().into_iter().find(|fixture| fixture.name == name))
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

/// The fixtures, read on the server.
#[cfg(feature = "ssr")]
mod fixtures {
    use serde_json::Value;

    use super::{BlockStory, StoryFixture};
    use palaver_contract::asks::AskKind;

    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));

    pub fn all_fixtures() -> Vec<StoryFixture> {
        ASK_FIXTURES
            .iter()
            .filter_map(|(name, json)| {
                let fixture: Value = serde_json::from_str(json).ok()?;
                let kind: AskKind = serde_json::from_value(fixture["kind"].clone()).ok()?;
                let written = &fixture["input"];
                let input = palaver_contract::asks::parse_ask_input(kind, written, Default::default())
                    .map_or_else(|_| written.clone(), |ask| ask.stored_input(written));
                Some(StoryFixture { name: name.to_string(), kind, input })
            })
            .collect()
    }

    /// Not sanitized on purpose: the story shows that the frame alone keeps it inert.
    const HOSTILE_HTML_STORY: &str = r#"{"v": 1, "blocks": [
  {"type": "heading", "text": "A hostile document in the frame, unsanitized"},
  {"type": "html", "title": "Hostile preview", "height": "sm", "html": "<h1 onclick=\"parent.__pwned='click'\">Pay now</h1><script>parent.__pwned = 'script'</script><img src=\"https://tracker.example.com/p.png\" alt=\"tracker\" onerror=\"parent.__pwned='img'\"><form action=\"https://evil.example.com\"><button>Send</button></form><a href=\"javascript:parent.__pwned='link'\">link</a><meta http-equiv=\"refresh\" content=\"0;url=https://evil.example.com\"><style>body{background:url(https://tracker.example.com/bg.png)}</style>"}
]}"#;

    /// The name of the hostile-frame story.
    const HOSTILE_STORY: &str = "html-hostile-frame";

    pub fn block_story(group: &str, name: &str, text: &str) -> BlockStory {
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
        let partial = (group == "partial")
            .then(|| serde_json::to_value(parse_blocks_partial(text).into_document()).ok())
            .flatten();
        BlockStory {
            name: name.to_string(),
            group: group.to_string(),
            text: text.to_string(),
            check: check_blocks_text(text, &options).shown(),
            partial,
        }
    }

    pub fn all_block_stories() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
        BLOCK_FIXTURES.iter().copied().chain([("frame", HOSTILE_STORY, HOSTILE_HTML_STORY)])
    }

    #[cfg(test)]
    mod tests {
        use super::*;
        use crate::components::button_label;
        use palaver_contract::asks::{parse_stored_ask, to_simple_card};
        use palaver_wire::words::Words;

        #[test]
        fn in_english_every_card_button_reads_as_its_label_on_the_wire() {
            let english = Words::default();
            let fixtures = all_fixtures();
            assert!(fixtures.len() > 50);
            for fixture in fixtures {
                let ask = parse_stored_ask(fixture.kind, &fixture.input).expect("a valid fixture");
                for button in to_simple_card(&ask, "call").buttons {
                    assert_eq!(button_label(&button, fixture.kind, &english), button.label, "{}", fixture.name);
                }
            }
        }
    }
}
