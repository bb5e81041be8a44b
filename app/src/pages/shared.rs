//! `/s/{token}`: a conversation read through its share link, without signing in. It shows the
//! title and the transcript as it is now (messages, replies with their blocks, each ask as its
//! question and how it was answered) and nothing that acts: no message box, no answer buttons,
//! no rating, no edit or regenerate, and block buttons that reach no host. Files are named,
//! never served. A link that opens nothing is the plain not-found page (with a 404 status:
//! `palaver_server`'s `shared_headers`, which also keeps the page out of search engines and
//! its address out of referrers).

use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::chat::shelf_api::shared_conversation;
use crate::components::BlocksReply;
use crate::words::reader_words;
use palaver_wire::conversation::model::{AskStatus, Attachment, HistoryView};
use palaver_wire::conversation::summary::ask_summary;
use palaver_wire::conversation::transcript::{AskItem, INTERRUPTED, TranscriptItem, transcript};
use palaver_wire::words::{CardLanguage, Words, tool_words};

#[component]
pub fn SharedPage() -> impl IntoView {
    let params = use_params_map();
    let conversation =
        Resource::new(move || params.with(|params| params.get("token").unwrap_or_default()), shared_conversation);
    view! {
        <Suspense fallback=|| {
            view! { <p class="shared__loading">"Loading…"</p> }
        }>
            {move || Suspend::new(async move {
                match conversation.await {
                    Ok(conversation) => view! { <SharedTranscript conversation /> }.into_any(),
                    Err(_) => view! { <crate::NotFound /> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn SharedTranscript(conversation: HistoryView) -> impl IntoView {
    let name = conversation.name();
    if let Some(title) = crate::page_title::PageTitle::get() {
        title.name.set(Some(name.clone()));
    }
    let items = transcript(&conversation)
        .into_iter()
        .map(|item| match item {
            TranscriptItem::User { text, attachments, .. } => view! {
                <article class="message message--user" data-testid="user-message">
                    <p class="message__text">{text}</p>
                    <FileNames files=attachments />
                </article>
            }
            .into_any(),
            TranscriptItem::Assistant { text, blocks, interrupted, .. } => view! {
                <article class="message message--assistant" data-testid="assistant-message">
                    {match blocks {
                        Some(check) => view! { <BlocksReply check=*check raw=text /> }.into_any(),
                        None => {
                            view! { <div class="markdown" inner_html=crate::markdown::to_html(&text)></div> }.into_any()
                        }
                    }}
                    {interrupted.then(|| view! { <p class="message__interrupted">{INTERRUPTED}</p> })}
                </article>
            }
            .into_any(),
            TranscriptItem::Tool { tool_name, .. } => {
                view! { <p class="tool-line">{format!("Used {}", tool_words(&tool_name, None))}</p> }.into_any()
            }
            TranscriptItem::Ask(item) => view! { <SharedAsk item=*item /> }.into_any(),
        })
        .collect_view();
    view! {
        <main class="shared" data-testid="shared-page">
            <h1 class="shared__title">{name}</h1>
            <p class="shared__note">"A read-only copy of a conversation, as it is now."</p>
            <div class="transcript shared__transcript" data-testid="shared-transcript">
                {items}
            </div>
        </main>
    }
}

/// An ask as its question and how it was answered; one still waiting says only that.
#[component]
fn SharedAsk(item: AskItem) -> impl IntoView {
    let locale = item.input["locale"].as_str();
    let language = CardLanguage::of(locale);
    let words = Words::for_ask(locale, &reader_words());
    let question = ["title", "prompt"]
        .into_iter()
        .find_map(|key| item.input[key].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("A question from {}", tool_words(&item.tool_name, None)));
    let answer = match item.status {
        AskStatus::Pending => "Waiting for an answer.".to_string(),
        status => ask_summary(item.kind, &item.input, status, item.response.as_ref(), &words),
    };
    view! {
        <div class="ask-card ask-card--done" data-testid="shared-ask" lang=language.lang dir=language.dir>
            <p class="ask-card__question">
                <bdi>{question}</bdi>
            </p>
            <p class="ask-card__summary">
                <bdi>{answer}</bdi>
            </p>
        </div>
    }
}

/// The names of the files a message carried (the link serves none of them).
#[component]
fn FileNames(files: Vec<Attachment>) -> impl IntoView {
    (!files.is_empty()).then(|| {
        view! {
            <ul class="attachments" aria-label="Attached files">
                {files
                    .into_iter()
                    .map(|file| {
                        view! {
                            <li class="attachment" data-testid="attachment">
                                {file.filename}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    })
}
