//! `/storybook`: the index of every story (the block stories live in `storybook_blocks`), and
//! every valid ask fixture as its interactive card (with the answer it sends and
//! the validator's verdict), its simple card in the watch frame, and its answered, skipped and
//! cancelled states — in light and dark side by side.

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::chat::model::AskStatus;
use crate::chat::{AnswerChannel, AskCard, AskItem};
use crate::components::SimpleCardView;
use crate::error::AppError;
use palaver_contract::asks::{
    AskKind, AskSurface, SimpleCardButton, parse_ask_input, to_simple_card, validate_ask_response,
};

/// One ask fixture as the storybook shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoryFixture {
    pub name: String,
    pub kind: AskKind,
    pub input: Value,
}

#[cfg(feature = "ssr")]
mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}
#[cfg(feature = "ssr")]
pub(super) use fixtures::BLOCK_FIXTURES;

#[cfg(feature = "ssr")]
fn all_fixtures() -> Vec<StoryFixture> {
    fixtures::ASK_FIXTURES
        .iter()
        .filter_map(|(name, json)| {
            let fixture: Value = serde_json::from_str(json).ok()?;
            Some(StoryFixture {
                name: name.to_string(),
                kind: serde_json::from_value(fixture["kind"].clone()).ok()?,
                input: fixture["input"].clone(),
            })
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

#[component]
pub fn StorybookIndex() -> impl IntoView {
    let fixtures = Resource::new(|| (), |_| storybook_fixtures());
    let block_stories = Resource::new(|| (), |_| super::storybook_blocks::storybook_block_stories());
    view! {
        <main class="storybook">
            <h1>"Storybook"</h1>
            <h2>"Blocks"</h2>
            <p>
                "Every block fixture rendered: valid documents, invalid ones with their errors, a reply cut off mid-stream, and a hostile HTML frame."
            </p>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    let list = block_stories.await.unwrap_or_default();
                    view! {
                        <ul class="storybook__index">
                            {list
                                .into_iter()
                                .map(|(group, name)| {
                                    view! {
                                        <li>
                                            <a href=format!("/storybook/blocks/{name}")>{name.clone()}</a>
                                            " · "
                                            {group}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            </Suspense>
            <h2>"Asks"</h2>
            <p>"Every valid ask fixture: the interactive card, its simple card, and how it reads once answered."</p>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    let list = fixtures.await.unwrap_or_default();
                    view! {
                        <ul class="storybook__index">
                            {list
                                .into_iter()
                                .map(|fixture| {
                                    view! {
                                        <li>
                                            <a href=format!(
                                                "/storybook/asks/{}",
                                                fixture.name,
                                            )>{fixture.name.clone()}</a>
                                            " · "
                                            <a href=format!("/storybook/cards/{}", fixture.name)>"card"</a>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            </Suspense>
        </main>
    }
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
    let Ok(ask) = parse_ask_input(fixture.kind, &fixture.input, AskSurface::Full) else {
        return view! { <p class="error">"This fixture does not validate."</p> }.into_any();
    };
    let card = to_simple_card(&ask, "call_fixture");
    let sent = RwSignal::new(None::<Value>);
    let checked = ask.clone();
    let channel = AnswerChannel {
        send: Callback::new(move |(_, response): (String, Value)| sent.set(Some(response))),
        server_errors: RwSignal::new(Vec::new()),
        busy: RwSignal::new(false),
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
                    <SimpleCardView card=card on_press=pressed disabled=Signal::stored(false) />
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

/// What every story page shares: the way back, the story's name as its heading, and the story
/// loaded from the server (`content` renders it once it arrived).
#[component]
pub(super) fn StoryFrame<T, Fut, V>(load: fn(String) -> Fut, content: fn(T) -> V) -> impl IntoView
where
    T: Clone + Send + Sync + Serialize + for<'de> Deserialize<'de> + 'static,
    Fut: std::future::Future<Output = Result<Option<T>, AppError>> + Send + 'static,
    V: IntoView + 'static,
{
    let params = use_params_map();
    let name = move || params.read().get("name").unwrap_or_default();
    let story = Resource::new(name, load);
    view! {
        <main class="storybook">
            <p>
                <a href="/storybook">"All stories"</a>
            </p>
            <h1>{name}</h1>
            <Suspense fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match story.await {
                        Ok(Some(story)) => content(story).into_any(),
                        _ => view! { <p class="error">"There is no such story."</p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}

/// The same story in the light and the dark theme, side by side.
pub(super) fn in_both_themes(body: impl Fn() -> AnyView) -> impl IntoView {
    view! {
        <div class="storybook__themes">
            {["light", "dark"]
                .into_iter()
                .map(|theme| {
                    view! {
                        <div class=format!("storybook__theme storybook__theme--{theme}") data-theme-panel=theme>
                            {body()}
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}

fn ask_story(fixture: StoryFixture) -> impl IntoView {
    in_both_themes(move || view! { <Story fixture=fixture.clone() /> }.into_any())
}

fn card_story(fixture: StoryFixture) -> impl IntoView {
    in_both_themes(move || match parse_ask_input(fixture.kind, &fixture.input, AskSurface::Full) {
        Ok(ask) => {
            let card = to_simple_card(&ask, "call_fixture");
            let json = serde_json::to_string_pretty(&card).unwrap_or_default();
            view! {
                <div class="watch">
                    <SimpleCardView card on_press=Callback::new(|_| {}) disabled=Signal::stored(false) />
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
