//! The ask fixtures as the storybook's pages load them: each valid fixture with its input as
//! Palaver stores it.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use palaver_contract::asks::AskKind;
use palaver_wire::error::AppError;

/// One ask fixture as the storybook shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoryFixture {
    pub name: String,
    pub kind: AskKind,
    /// The input as Palaver stores it (a question set with its minted ids).
    pub input: Value,
}

#[cfg(feature = "ssr")]
fn all_fixtures() -> Vec<StoryFixture> {
    super::fixtures::ASK_FIXTURES
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

#[server(prefix = "/api", endpoint = "storybook_fixtures")]
pub async fn storybook_fixtures() -> Result<Vec<StoryFixture>, AppError> {
    Ok(all_fixtures())
}

#[server(prefix = "/api", endpoint = "storybook_fixture")]
pub async fn storybook_fixture(name: String) -> Result<Option<StoryFixture>, AppError> {
    Ok(all_fixtures().into_iter().find(|fixture| fixture.name == name))
}

#[cfg(all(test, feature = "ssr"))]
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
