//! `/storybook/asks/<name>`: an ask fixture as its interactive card (with the answer it sends
//! and the validator's verdict), its simple card in the watch frame, and its answered, skipped
//! and cancelled states — in light and dark side by side.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::api::{StoryFixture, storybook_fixture};
use super::frame::{StoryFrame, in_both_themes};
use crate::chat::{AnswerChannel, AskCard, CardAnswer};
use crate::components::SimpleCardView;
use palaver_contract::asks::{AskKind, SimpleCardButton, parse_stored_ask, to_simple_card, validate_ask_response};
use palaver_wire::conversation::model::AskStatus;
use palaver_wire::conversation::transcript::AskItem;

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
        send: Callback::new(move |answer: CardAnswer| sent.set(Some(answer.response))),
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
        impact: None,
        tool_hints: None,
        app: None,
        routed: None,
        field_patterns: Vec::new(),
        tool_title: None,
        change_until: None,
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

#[component]
pub fn StorybookAskPage() -> impl IntoView {
    view! { <StoryFrame load=storybook_fixture content=ask_story /> }
}
