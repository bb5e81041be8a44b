//! `/storybook/asks/<name>` and `/storybook/cards/<name>`: every valid ask fixture as its
//! interactive card (with the answer it sends and the validator's verdict), its simple card in
//! the watch frame, and its answered, skipped and cancelled states — in light and dark side by side.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::frame::{StoryFrame, in_both_themes};
use crate::chat::model::AskStatus;
use crate::chat::{AnswerChannel, AskCard, AskItem};
use crate::components::SimpleCardView;
use crate::error::AppError;
use palaver_contract::asks::{AskKind, SimpleCardButton, parse_stored_ask, to_simple_card, validate_ask_response};

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

/// The states an answered story shows, with the answer each stores.
fn answered_states(
    fixture: &StoryFixture,
    first_button: Option<Value>,
) -> Vec<(&'static str, AskStatus, Option<Value>)> {
    let mut states = Vec::new();
    if let Some(response) = first_button {
        states.push(("Answered", AskStatus::Answered, Some(response)));
    }
    if fixture.kind != AskKind::Confirm || fixture.input["allowDecline"] == true {
        states.push(("Skipped", AskStatus::Answered, Some(json!({"action": "decline"}))));
    }
    states.push((
        "Cancelled by a message",
        AskStatus::Cancelled,
        Some(json!({"action": "cancel", "reason": "user_sent_message"})),
    ));
    states.push((
        "One ask at a time",
        AskStatus::Cancelled,
        Some(json!({"action": "cancel", "reason": "one_ask_at_a_time"})),
    ));
    states
}

#[component]
fn Story(fixture: StoryFixture) -> impl IntoView {
    let Ok(ask) = parse_stored_ask(fixture.kind, &fixture.input) else {
        return view! { <p class="error">"This fixture does not validate."</p> }.into_any();
    };
    let card = to_simple_card(&ask, "call_fixture");
    let locale = ask.locale().map(str::to_string);
    let sent = RwSignal::new(None::<Value>);
    let checked = ask.clone();
    let channel = AnswerChannel {
        send: Callback::new(move |(_, response): (String, Value)| sent.set(Some(response))),
        server_errors: RwSignal::new(Vec::new()),
        busy: RwSignal::new(false),
        ran_out: Callback::new(|_| {}),
    };
    let pressed = Callback::new(move |button: SimpleCardButton| sent.set(Some(button.response.to_value())));
    let item = |status: AskStatus, response: Option<Value>, waiting: bool| AskItem {
        tool_call_id: "call_fixture".into(),
        kind: fixture.kind,
        input: fixture.input.clone(),
        status,
        response,
        origin: None,
        tool_name: fixture.kind.tool_name(),
        waiting,
        link: None,
        expires_at: None,
        expired_at: None,
        grantable: false,
        server: None,
        link_host: None,
        arguments: None,
    };
    let states = answered_states(&fixture, card.buttons.first().map(|button| button.response.to_value()));
    view! {
        <div class="storybook__story">
            <section aria-label="Interactive card">
                <AskCard item=item(AskStatus::Pending, None, true) channel />
                <div class="storybook__sent" data-testid="story-sent">
                    {move || match sent.get() {
                        None => view! { <p>"Answer the card to see what it sends."</p> }.into_any(),
                        Some(response) => {
                            let errors = validate_ask_response(&checked, &response, u64::MAX);
                            let verdict = if errors.is_empty() {
                                "Valid answer".to_string()
                            } else {
                                format!("{} errors", errors.len())
                            };
                            view! {
                                <p>{verdict}</p>
                                <pre>{serde_json::to_string_pretty(&response).unwrap_or_default()}</pre>
                                {(!errors.is_empty())
                                    .then(|| {
                                        view! { <pre>{serde_json::to_string_pretty(&errors).unwrap_or_default()}</pre> }
                                    })}
                            }
                                .into_any()
                        }
                    }}
                </div>
            </section>
            <section aria-label="Simple card">
                <div class="watch">
                    <SimpleCardView card=card on_press=pressed disabled=Signal::stored(false) locale />
                </div>
            </section>
            <section aria-label="Answered states" class="storybook__states">
                {states
                    .into_iter()
                    .map(|(label, status, response)| {
                        view! {
                            <div>
                                <h3>{label}</h3>
                                <AskCard item=item(status, response, false) channel />
                            </div>
                        }
                    })
                    .collect_view()}
            </section>
        </div>
    }
    .into_any()
}

fn ask_story(fixture: StoryFixture) -> impl IntoView {
    in_both_themes(move || view! { <Story fixture=fixture.clone() /> }.into_any())
}

fn card_story(fixture: StoryFixture) -> impl IntoView {
    in_both_themes(move || match parse_stored_ask(fixture.kind, &fixture.input) {
        Ok(ask) => {
            let card = to_simple_card(&ask, "call_fixture");
            let json = serde_json::to_string_pretty(&card).unwrap_or_default();
            let locale = ask.locale().map(str::to_string);
            view! {
                <div class="watch">
                    <SimpleCardView card on_press=Callback::new(|_| {}) disabled=Signal::stored(false) locale />
                </div>
                <pre>{json}</pre>
            }
            .into_any()
        }
        Err(_) => view! { <p class="error">"This fixture does not validate."</p> }.into_any(),
    })
}

#[component]
pub fn StorybookAskPage() -> impl IntoView {
    view! { <StoryFrame load=storybook_fixture content=ask_story /> }
}

#[component]
pub fn StorybookCardPage() -> impl IntoView {
    view! { <StoryFrame load=storybook_fixture content=card_story /> }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::components::button_label;
    use crate::words::Words;

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
