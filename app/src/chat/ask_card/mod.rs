//! Ask cards: a pending ask as controls in the transcript, and an answered one as its summary.
//! Every answer is checked with the same contract the server runs, so Submit is enabled
//! exactly when the server would accept the answer.

mod app_drawn;
mod change;
mod choice;
mod controls;
mod drafts;
mod files;
mod form;
mod grant_editor;
mod markdown;
mod palaver_lines;
mod preview;
mod questions;

use leptos::prelude::*;
use serde_json::{Value, json};

pub(crate) use controls::load as load_ask_controls;
pub use drafts::provide_ask_drafts;
pub use preview::AskPreviewCard;

use crate::components::{CallArguments, LocalTime, VisibleText, button_label};
use crate::words::reader_words;
use change::{ChangeAnswer, Changeable};
use choice::ChoiceBody;
use files::FilesBody;
use form::FormBody;
use grant_editor::{GrantChoices, Grants};
use markdown::MarkdownBody;
use palaver_contract::asks::{
    Ask, AskError, AskKind, ButtonStyle, FieldPattern, SimpleCardButton, check_field_patterns, parse_stored_ask,
    to_simple_card, validate_ask_response,
};
use palaver_contract::visible::Layout;
use palaver_lines::{palaver_lines, server_message};
use palaver_wire::conversation::deadline;
use palaver_wire::conversation::model::{AskOrigin, AskStatus};
use palaver_wire::conversation::summary::ask_summary;
use palaver_wire::conversation::transcript::AskItem;
use palaver_wire::error::FieldError;
use palaver_wire::words::{CardLanguage, Words, answer_problem, tool_words};
use questions::QuestionsBody;

/// An answer a card sends: the ask's id, the answer (`{action, content}`), and, for a question
/// an MCP App drew, the server whose app answered (`fromApp`; the answer is then its
/// `ElicitResult`).
pub struct CardAnswer {
    pub tool_call_id: String,
    pub response: Value,
    pub from_app: Option<String>,
}

/// Where an ask card sends its answer, and what the server said about the last one.
#[derive(Clone, Copy)]
pub struct AnswerChannel {
    pub send: Callback<CardAnswer>,
    /// The `fields` of the server's last 400 for this conversation.
    pub server_errors: RwSignal<Vec<FieldError>>,
    /// A turn is running: answers wait.
    pub busy: RwSignal<bool>,
    /// The ask (by tool call id) ran out of time: load the conversation again to show how the
    /// server ended it.
    pub ran_out: Callback<String>,
}

fn style_class(style: ButtonStyle) -> &'static str {
    match style {
        ButtonStyle::Primary => "ask-button ask-button--primary",
        ButtonStyle::Default => "ask-button",
        ButtonStyle::Destructive => "ask-button ask-button--destructive",
        ButtonStyle::Cancel => "ask-button ask-button--cancel",
    }
}

#[component]
pub fn AskCard(item: AskItem, channel: AnswerChannel) -> impl IntoView {
    if !item.waiting {
        drafts::forget_ask_draft(&item.tool_call_id);
        let locale = item.input["locale"].as_str();
        let words = Words::for_ask(locale, &reader_words());
        let language = CardLanguage::of(locale);
        let summary = ask_summary(item.kind, &item.input, item.status, item.response.as_ref(), &words);
        let answered = matches!(item.response.as_ref().and_then(|r| r["action"].as_str()), Some("accept"))
            || (item.response.is_none() && item.status == AskStatus::Answered);
        let markdown_answer = (item.kind == palaver_contract::asks::AskKind::Markdown && answered)
            .then(|| item.response.as_ref().and_then(|r| r["content"]["markdown"].as_str()).map(str::to_string))
            .flatten()
            .filter(|_| item.response.as_ref().is_some_and(|r| r["content"]["changed"] == true));
        let ended_at = item.expired_at.clone().filter(|iso| deadline::epoch_ms(iso).is_some());
        let changeable = item.change_until.clone().map(|until| Changeable {
            tool_call_id: item.tool_call_id.clone(),
            kind: item.kind,
            response: item.response.clone(),
            until,
        });
        return view! {
            <div class="ask-card ask-card--done" data-testid="ask-summary" lang=language.lang dir=language.dir>
                <p class="ask-card__summary">
                    <span aria-hidden="true">{if answered { "✓ " } else { "– " }}</span>
                    <bdi>{summary}</bdi>
                    {ended_at
                        .map(|iso| {
                            view! { <span class="ask-card__ended">" (" <LocalTime iso /> ")"</span> }
                        })}
                </p>
                {markdown_answer
                    .map(|text| {
                        view! {
                            <details class="ask-card__answer">
                                <summary>"Show the text you sent"</summary>
                                <div class="markdown" inner_html=crate::markdown::to_html(&text)></div>
                            </details>
                        }
                    })}
            </div>
            // Beside the summary, not in it: the summary reads as what was answered.
            {changeable.map(|changeable| view! { <ChangeAnswer changeable busy=channel.busy /> })}
        }
        .into_any();
    }
    controls::view_when_loaded(controls::PendingCard { item, channel })
}

/// A pending ask's card: its controls, checked with the contract as the person answers.
fn pending_card(item: AskItem, channel: AnswerChannel) -> AnyView {
    if let Some(app) = item.app.clone().filter(|_| app_drawn::drawn_here()) {
        return app_drawn::app_drawn_card(item, app, channel);
    }
    let Ok(ask) = parse_stored_ask(item.kind, &item.input) else {
        return view! {
            <div class="ask-card" data-testid="ask-invalid">
                <p>"This question cannot be shown. Send a message to continue."</p>
            </div>
        }
        .into_any();
    };
    let tool_call_id = item.tool_call_id.clone();
    let answer = {
        let tool_call_id = tool_call_id.clone();
        let link = item.link.clone();
        Callback::new(move |response: Value| {
            // A URL-mode elicitation opens its link only on the user's tap, in that tap.
            if let Some(link) = &link
                && response["content"]["confirmed"] == Value::Bool(true)
            {
                crate::browser::open_link(link);
            }
            channel.send.run(CardAnswer { tool_call_id: tool_call_id.clone(), response, from_app: None })
        })
    };
    let words = Words::for_ask(ask.locale(), &reader_words());
    let palaver = palaver_lines(&item, &words);
    let arguments = item.arguments.clone().filter(|_| item.origin == Some(AskOrigin::Approval));
    let language = CardLanguage::of(ask.locale());
    let title = ask.title().map(str::to_string);
    let label = title.clone().unwrap_or_else(|| words.get("question"));
    let prompt = server_message(ask.prompt(), item.link_host.as_deref()).to_string();
    let body = {
        let (ask, words, item) = (ask.clone(), words.clone(), item.clone());
        move || {
            drafts::track_restored_drafts();
            card_body(&ask, &item, answer, channel, words.clone())
        }
    };
    // A new ask never takes the focus (the person may be typing): the live region announces
    // it, and ↑ in the message box reaches it (`super::PENDING_CARD`); Escape goes back there.
    view! {
        <section
            class="ask-card ask-card--pending"
            data-testid="ask-card"
            aria-label=label
            tabindex="-1"
            on:keydown=move |event| {
                let in_text = event_target::<leptos::web_sys::HtmlElement>(&event).tag_name() == "TEXTAREA";
                if event.key() == "Escape" && !in_text {
                    event.prevent_default();
                    crate::browser::focus_first(super::COMPOSER);
                }
            }
            lang=language.lang
            dir=language.dir
        >
            {palaver}
            {title
                .map(|title| {
                    view! {
                        <h3 class="ask-card__title">
                            <VisibleText text=title layout=Layout::Prose />
                        </h3>
                    }
                })}
            {(!prompt.is_empty())
                .then(|| {
                    view! {
                        <p class="ask-card__prompt">
                            <VisibleText text=prompt layout=Layout::Prose />
                        </p>
                    }
                })}
            {arguments.map(|arguments| view! { <CallArguments arguments words=words.clone() /> })}
            {body}
            {item
                .expires_at
                .map(|expires_at| {
                    let ran_out = channel.ran_out;
                    let tool_call_id = item.tool_call_id.clone();
                    let words = words.clone();
                    view! {
                        <TimeLeft expires_at ran_out=Callback::new(move |()| ran_out.run(tool_call_id.clone())) words />
                    }
                })}
        </section>
    }
    .into_any()
}

/// A pending card's controls, by the ask's kind.
fn card_body(ask: &Ask, item: &AskItem, answer: Callback<Value>, channel: AnswerChannel, words: Words) -> AnyView {
    // An approval routed to someone else is theirs to answer: its owner sees whom it waits for.
    if let Some(routed) = &item.routed {
        return view! {
            <p class="ask-card__routed" data-testid="ask-routed" role="status">
                {routed.waiting_words()}
            </p>
        }
        .into_any();
    }
    let (ask, tool_call_id) = (ask.clone(), item.tool_call_id.clone());
    match ask.clone() {
        Ask::Choice(input) => view! { <ChoiceBody ask input tool_call_id answer channel words /> }.into_any(),
        Ask::Confirm(_) => {
            let grants = item.grantable.then(|| Grants {
                tool: tool_words(&item.tool_name, item.tool_title.as_deref()),
                arguments: item.arguments.clone().unwrap_or_default(),
            });
            view! { <ButtonsBody ask tool_call_id answer channel grants words /> }.into_any()
        }
        Ask::Markdown(input) => view! { <MarkdownBody ask input tool_call_id answer channel words /> }.into_any(),
        Ask::Form(input) => {
            let patterns = item.field_patterns.clone();
            view! { <FormBody ask input tool_call_id answer channel words patterns /> }.into_any()
        }
        Ask::Files(input) => view! { <FilesBody ask input tool_call_id answer channel words /> }.into_any(),
        Ask::Questions(input) => view! { <QuestionsBody ask input tool_call_id answer channel words /> }.into_any(),
    }
}

/// The time left to answer, once under an hour; at the deadline the conversation is loaded
/// again, and shows the ask as the server ended it. Browser only: the page from the server has
/// no clock to agree with.
#[component]
fn TimeLeft(expires_at: String, ran_out: Callback<()>, words: Words) -> impl IntoView {
    let deadline = deadline::epoch_ms(&expires_at);
    let now = RwSignal::new(None::<i64>);
    Effect::new(move |_| {
        let tick = move || now.set(Some(crate::browser::now_ms()));
        tick();
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_secs(1)) {
            on_cleanup(move || handle.clear());
        }
    });
    let remaining = Memo::new(move |_| Some(deadline? - now.get()?));
    // The server's sweeper ends the ask within a second of its deadline.
    let told = StoredValue::new(false);
    Effect::new(move |_| {
        if remaining.get().is_some_and(|ms| ms <= -1500) && !told.get_value() {
            told.set_value(true);
            ran_out.run(());
        }
    });
    let words = StoredValue::new(words);
    let label = move || remaining.get().and_then(|ms| words.with_value(|words| deadline::time_left(ms, words)));
    view! {
        <Show when=move || label().is_some()>
            <p class="ask-card__deadline" data-testid="ask-deadline">
                <time datetime=expires_at.clone()>{label}</time>
            </p>
        </Show>
    }
}

/// The card's buttons, each sending its stored answer (confirm, and choices that fit); Palaver's
/// own labels in the card's words.
pub(super) fn card_buttons(
    buttons: Vec<SimpleCardButton>,
    kind: AskKind,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: &Words,
) -> impl IntoView {
    view! {
        <div class="ask-card__buttons" role="group" aria-label="Answers">
            {buttons
                .into_iter()
                .map(|button| {
                    let response = button.response.to_value();
                    let label = button_label(&button, kind, words);
                    view! {
                        <button
                            type="button"
                            class=style_class(button.style)
                            data-testid=format!("ask-button-{}", button.id)
                            disabled=move || channel.busy.get()
                            on:click=move |_| answer.run(response.clone())
                        >
                            <bdi>{label}</bdi>
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The card's buttons; with `grants`, an approval's card adds "Allow in this conversation",
/// "Always allow <tool>" and the editor of a narrower grant.
#[component]
fn ButtonsBody(
    ask: Ask,
    tool_call_id: String,
    answer: Callback<Value>,
    channel: AnswerChannel,
    #[prop(default = None)] grants: Option<Grants>,
    words: Words,
) -> impl IntoView {
    let mut card = to_simple_card(&ask, &tool_call_id);
    let skip = ask.allows_decline();
    // Beside the grants, approving is allowing this one call.
    if grants.is_some() {
        card.buttons
            .iter_mut()
            .filter(|button| button.id == "approve")
            .for_each(|button| button.label = words.get("allow-once"));
    }
    let grant_buttons = grants.map(|grants| view! { <GrantChoices grants answer channel words=words.clone() /> });
    let skip_button = skip.then(|| view! { <SkipButton answer channel words=words.clone() /> });
    let buttons = card_buttons(card.buttons, ask.kind(), answer, channel, &words);
    view! {
        {buttons}
        {grant_buttons}
        {skip_button}
        <ErrorList errors=server_errors(ask, channel, words) />
    }
}

#[component]
fn SkipButton(answer: Callback<Value>, channel: AnswerChannel, words: Words) -> impl IntoView {
    view! {
        <button
            type="button"
            class="ask-button ask-button--cancel"
            data-testid="ask-skip"
            disabled=move || channel.busy.get()
            on:click=move |_| answer.run(json!({"action": "decline"}))
        >
            {words.get("skip")}
        </button>
    }
}

/// The server's errors for the last answer of a card without a draft (buttons only).
pub(super) fn server_errors(ask: Ask, channel: AnswerChannel, words: Words) -> Signal<Vec<String>> {
    let rules = AnswerRules { ask, patterns: Vec::new() };
    Signal::derive(move || errors_at(&rules, &Value::Null, false, &channel.server_errors.get(), "", &words))
}

#[component]
pub(super) fn ErrorList(#[prop(into)] errors: Signal<Vec<String>>) -> impl IntoView {
    // The errors are derived in the card's scope: when a live event rebuilds the transcript,
    // the card can be disposed a moment before this list, which then reads nothing.
    let errors = move || errors.try_get().unwrap_or_default();
    view! {
        <Show when=move || !errors().is_empty()>
            <ul class="ask-card__errors" role="alert" data-testid="ask-errors">
                {move || errors().into_iter().map(|error| view! { <li>{error}</li> }).collect_view()}
            </ul>
        </Show>
    }
}

/// What an answer is checked against: the ask, and the patterns beside it (an argument form's).
#[derive(Clone)]
pub(super) struct AnswerRules {
    pub ask: Ask,
    pub patterns: Vec<FieldPattern>,
}

impl AnswerRules {
    /// The problems of `draft`, as the server finds them (files up to `max_file_size_bytes`).
    fn problems(&self, draft: &Value, max_file_size_bytes: u64) -> Vec<AskError> {
        let mut problems = validate_ask_response(&self.ask, draft, max_file_size_bytes);
        problems.extend(check_field_patterns(&self.patterns, draft));
        problems
    }
}

/// The errors at or inside `at` (a field's path, or "" for the whole answer): the draft's own
/// (once the user has touched it) and the server's for the last answer sent, each worded by the
/// field's label.
pub(super) fn errors_at(
    rules: &AnswerRules,
    draft: &Value,
    touched: bool,
    server: &[FieldError],
    at: &str,
    words: &Words,
) -> Vec<String> {
    let client: Vec<AskError> = if touched {
        rules.problems(draft, palaver_contract::asks::ASK_LIMITS.files.default_max_file_size_bytes)
    } else {
        Vec::new()
    };
    let problems = client
        .iter()
        .map(|error| (error.path.text(), error.code.as_str()))
        .chain(server.iter().map(|error| (error.path.clone(), error.code.as_str())));
    let mut messages: Vec<String> = problems
        .filter(|(path, _)| is_under(path, at))
        .map(|(path, code)| answer_problem(&rules.ask, draft, &path, code, words))
        .collect();
    messages.dedup();
    messages
}

/// Whether `path` is `at` or inside it (`content.values.tags[1]` is inside
/// `content.values.tags`, `content.values.seats2` is not inside `content.values.seats`).
fn is_under(path: &str, at: &str) -> bool {
    at.is_empty() || path.strip_prefix(at).is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
}

/// Submit (enabled only for a valid answer), Skip when allowed, and the errors.
#[component]
pub(super) fn SubmitRow(
    ask: Ask,
    draft: Memo<Value>,
    touched: RwSignal<bool>,
    answer: Callback<Value>,
    channel: AnswerChannel,
    words: Words,
    /// An argument form's field patterns, checked with the ask.
    #[prop(optional)]
    patterns: Vec<FieldPattern>,
) -> impl IntoView {
    let label = match &ask {
        Ask::Choice(i) => i.submit_label.clone(),
        Ask::Markdown(i) => i.submit_label.clone(),
        Ask::Form(i) => i.submit_label.clone(),
        Ask::Files(i) => i.submit_label.clone(),
        Ask::Confirm(_) | Ask::Questions(_) => None,
    }
    .unwrap_or_else(|| words.get("submit"));
    let skip = ask.allows_decline();
    let rules = AnswerRules { ask, patterns };
    let checked = rules.clone();
    let valid = Memo::new(move |_| checked.problems(&draft.get(), u64::MAX).is_empty());
    let error_words = words.clone();
    let errors = Signal::derive(move || {
        errors_at(&rules, &draft.get(), touched.get(), &channel.server_errors.get(), "", &error_words)
    });
    view! {
        <div class="ask-card__actions">
            <button
                type="button"
                class="ask-button ask-button--primary"
                data-testid="ask-submit"
                // A live event can rebuild the transcript and dispose the card (and `valid`)
                // a moment before this runs once more: a disposed card's button stays disabled.
                disabled=move || !valid.try_get().unwrap_or(false) || channel.busy.get()
                on:click=move |_| answer.run(draft.get_untracked())
            >
                <bdi>{label}</bdi>
            </button>
            {skip.then(|| view! { <SkipButton answer channel words=words.clone() /> })}
        </div>
        <ErrorList errors />
    }
}
