//! A question an MCP App of the asking server draws (`AskItem::app`, ext-apps' draft of
//! app-rendered elicitations): the app in its sandbox under Palaver's strip naming the server,
//! its answer sent with `fromApp` and checked by the server against what was asked. A refused
//! answer is shown, and the question put to the app again (three refusals, and the card asks
//! instead); an answer given while a turn runs puts it again once the turn ends. An answer the
//! request failed to deliver leaves the app as it is: the page says why.
//! Where the app cannot answer (it does not start, does not say it answers questions, gives the
//! question up, or is closed) or the person prefers it, Palaver's card asks the question instead.

use leptos::prelude::*;
use serde_json::Value;

use super::{AnswerChannel, CardAnswer, palaver_lines::palaver_lines};
use crate::chat::mcp_app::{AppQuestion, AppToolNames, QuestionApp};
use crate::words::reader_words;
use palaver_wire::conversation::model::AppAsk;
use palaver_wire::conversation::transcript::AskItem;
use palaver_wire::words::Words;

/// Whether apps are drawn on this page (the chat's; not the storybook's asks, say).
pub(super) fn drawn_here() -> bool {
    use_context::<AppToolNames>().is_some()
}

/// How many of an app's answers Palaver refuses before its own card asks instead.
const MOST_REFUSALS: u32 = 3;

/// Where the app's last answer is.
#[derive(Clone, Copy, PartialEq)]
enum Verdict {
    /// None is out: the app may answer.
    Idle,
    /// It came while a turn ran, and was not sent: the app is asked again once the turn ends.
    Held,
    /// It was sent (`begin` cleared the errors then, so errors now are its refusal).
    Sent,
}

/// The card of a question `app` draws; Palaver's own card once the app cannot answer it.
pub(super) fn app_drawn_card(item: AskItem, app: AppAsk, channel: AnswerChannel) -> AnyView {
    let instead = RwSignal::new(None::<String>);
    // The first reason stands: the card, once shown, keeps what the person put in it.
    let give_up = move |why: String| {
        if instead.get_untracked().is_none() {
            instead.set(Some(why));
        }
    };
    let ask_again = RwSignal::new(0_u32);
    let refusals = RwSignal::new(0_u32);
    let verdict = RwSignal::new(Verdict::Idle);
    Effect::new(move |_| {
        let busy = channel.busy.get();
        let refused = !channel.server_errors.with(Vec::is_empty);
        match verdict.get_untracked() {
            Verdict::Held if !busy => {
                verdict.set(Verdict::Idle);
                ask_again.update(|count| *count += 1);
            }
            Verdict::Sent if refused => {
                verdict.set(Verdict::Idle);
                refusals.update(|count| *count += 1);
                if refusals.get_untracked() < MOST_REFUSALS {
                    ask_again.update(|count| *count += 1);
                } else {
                    // The card starts clean: the app's refusals are not its own.
                    channel.server_errors.set(Vec::new());
                    give_up("The app's answers did not fit what the server asked: answer here instead.".into());
                }
            }
            // Taken (the card goes with the ask), or not delivered (the page says why).
            Verdict::Sent if !busy => verdict.set(Verdict::Idle),
            _ => {}
        }
    });
    let server = item.server.clone().unwrap_or_default();
    let tool_call_id = item.tool_call_id.clone();
    let answered = Callback::new(move |result: Value| {
        // One answer at a time; while a turn runs, the app is asked again once it ends.
        if verdict.get_untracked() != Verdict::Idle {
            return;
        }
        if channel.busy.get_untracked() {
            return verdict.set(Verdict::Held);
        }
        verdict.set(Verdict::Sent);
        let from_app = Some(server.clone());
        channel.send.run(CardAnswer { tool_call_id: tool_call_id.clone(), response: result, from_app });
    });
    let question = AppQuestion {
        resource_uri: app.resource_uri,
        params: app.params,
        answered,
        unanswerable: Callback::new(give_up),
        ask_again,
    };
    let words = Words::for_ask(item.input["locale"].as_str(), &reader_words());
    let errors = move || {
        channel
            .server_errors
            .with(|errors| errors.iter().map(|error| view! { <li>{error.message.clone()}</li> }).collect_view())
    };
    let card = move || match instead.get() {
        Some(why) => {
            let card = AskItem { app: None, ..item.clone() };
            view! {
                <p class="mcp-app__note" data-testid="app-ask-instead">
                    {why}
                </p>
                {super::pending_card(card, channel)}
            }
            .into_any()
        }
        None => view! {
            <section
                class="ask-card ask-card--pending ask-card--app"
                data-testid="app-ask"
                aria-label="A question the server's app asks"
            >
                {palaver_lines(&item, &words)}
                <QuestionApp
                    ask_id=item.tool_call_id.clone()
                    tool_name=item.tool_name.clone()
                    question=question.clone()
                />
                <ul class="ask-card__errors" role="alert" data-testid="app-ask-errors">
                    {errors}
                </ul>
                <button
                    type="button"
                    class="message__action"
                    data-testid="app-ask-card"
                    on:click=move |_| give_up("You chose Palaver's card for this question.".into())
                >
                    "Answer in Palaver's card instead"
                </button>
            </section>
        }
        .into_any(),
    };
    view! { {card} }.into_any()
}
