//! Thumbs up and down under a reply: `PATCH /gpt/histories/{id}/rating` with the reply's row
//! index, as the reference rates a prompt. Pressing the pressed thumb takes the rating away.

use leptos::prelude::*;
use serde_json::{Value, json};

use palaver_wire::body::Data;
use palaver_wire::conversation::model::Rating;

use crate::components::{Icon, IconView};

#[component]
pub(super) fn RateReply(conversation_id: String, row: usize, rating: Option<Rating>) -> impl IntoView {
    let current = RwSignal::new(rating);
    let failed = RwSignal::new(None::<String>);
    let rate = move |pressed: Rating| {
        let next = (current.get_untracked() != Some(pressed)).then_some(pressed);
        let url = format!("/gpt/histories/{conversation_id}/rating");
        leptos::task::spawn_local(async move {
            let body = json!({"promptIndex": row, "rating": next});
            match crate::http::send::<_, Data<Value>>("PATCH", &url, &body).await {
                Ok(_) => {
                    current.set(next);
                    failed.set(None);
                }
                Err(message) => failed.set(Some(message)),
            }
        });
    };
    let thumb = move |rating: Rating, label: &'static str, symbol: Icon| {
        let rate = rate.clone();
        view! {
            <button
                type="button"
                class="message__action message__rate"
                data-testid=format!("rate-{}", rating.as_str())
                aria-label=label
                title=label
                aria-pressed=move || (current.get() == Some(rating)).to_string()
                on:click=move |_| rate(rating)
            >
                <IconView icon=symbol />
            </button>
        }
    };
    view! {
        {thumb(Rating::Up, "Good reply", Icon::ThumbUp)}
        {thumb(Rating::Down, "Bad reply", Icon::ThumbDown)}
        {move || {
            failed
                .get()
                .map(|message| {
                    view! {
                        <span class="error" role="alert">
                            {message}
                        </span>
                    }
                })
        }}
    }
}
