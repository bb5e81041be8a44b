//! `/watch`: a watch-sized frame that answers pending asks through the headless API only
//! (`GET /gpt/histories/pendingAsks`, `POST /gpt/histories/:id/turn`), as a native watch
//! client would: no server functions, no event stream.

use leptos::prelude::*;
use serde::Deserialize;

use crate::components::SimpleCardView;
use palaver_contract::asks::{SimpleCard, SimpleCardButton};

/// One entry of `GET /gpt/histories/pendingAsks`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PendingAskItem {
    history_id: String,
    #[serde(default)]
    title: Option<String>,
    tool_call_id: String,
    simple: SimpleCard,
}

#[component]
pub fn WatchPage() -> impl IntoView {
    let asks = RwSignal::new(Vec::<PendingAskItem>::new());
    let reply = RwSignal::new(None::<String>);
    let error = RwSignal::new(None::<String>);
    let busy = RwSignal::new(false);
    let loaded = RwSignal::new(false);
    // The conversation the watch's own prompts go to, made on the first one.
    let conversation = RwSignal::new(None::<String>);

    #[cfg(feature = "hydrate")]
    let refresh = move || {
        leptos::task::spawn_local(async move {
            match crate::http::call("GET", "/gpt/histories/pendingAsks", None).await {
                Ok(body) => {
                    asks.set(serde_json::from_value(body["data"].clone()).unwrap_or_default());
                    loaded.set(true);
                }
                Err(message) => error.set(Some(message)),
            }
        });
    };
    #[cfg(feature = "hydrate")]
    Effect::new(move |_| {
        refresh();
        // New asks appear without a reload; the polling ends with the page.
        if let Ok(handle) = set_interval_with_handle(refresh, std::time::Duration::from_secs(3)) {
            on_cleanup(move || handle.clear());
        }
    });

    let run_turn = move |history_id: String, body: serde_json::Value| {
        busy.set(true);
        error.set(None);
        #[cfg(feature = "hydrate")]
        leptos::task::spawn_local(async move {
            match crate::http::call("POST", &format!("/gpt/histories/{history_id}/turn"), Some(body)).await {
                Ok(result) => {
                    let data = &result["data"];
                    reply.set(data["text"].as_str().filter(|text| !text.is_empty()).map(str::to_string));
                    if let Some(message) = data["error"].as_str() {
                        error.set(Some(message.to_string()));
                    }
                }
                Err(message) => error.set(Some(message)),
            }
            busy.set(false);
            refresh();
        });
        #[cfg(not(feature = "hydrate"))]
        let _ = (history_id, body);
    };

    let draft = RwSignal::new(String::new());
    let send_prompt = move || {
        let prompt = draft.get_untracked().trim().to_string();
        if prompt.is_empty() || busy.get_untracked() {
            return;
        }
        draft.set(String::new());
        let body = serde_json::json!({"prompt": prompt, "surface": "compact"});
        match conversation.get_untracked() {
            Some(id) => run_turn(id, body),
            None => {
                #[cfg(feature = "hydrate")]
                leptos::task::spawn_local(async move {
                    match crate::http::call("POST", "/gpt/histories", Some(serde_json::json!({}))).await {
                        Ok(created) => {
                            let id = created["data"]["id"].as_str().unwrap_or_default().to_string();
                            conversation.set(Some(id.clone()));
                            run_turn(id, body);
                        }
                        Err(message) => error.set(Some(message)),
                    }
                });
                #[cfg(not(feature = "hydrate"))]
                let _ = body;
            }
        }
    };

    view! {
        <main class="watch-page">
            <h1 class="visually-hidden">"Watch preview"</h1>
            <div class="watch" data-testid="watch">
                {move || {
                    error
                        .get()
                        .map(|message| {
                            view! {
                                <p class="watch__error" role="alert">
                                    {message}
                                </p>
                            }
                        })
                }}
                {move || {
                    reply
                        .get()
                        .map(|text| {
                            view! {
                                <p class="watch__reply" data-testid="watch-reply" aria-live="polite">
                                    {text}
                                </p>
                            }
                        })
                }}
                {move || match asks.get().into_iter().next() {
                    Some(item) => {
                        let (history_id, tool_call_id) = (item.history_id.clone(), item.tool_call_id.clone());
                        let press = Callback::new(move |button: SimpleCardButton| run_turn(
                            history_id.clone(),
                            serde_json::json!(
                                {
                            "toolCallId": tool_call_id, "buttonId": button.id, "surface": "compact"
                        }
                            ),
                        ));
                        view! {
                            <SimpleCardView card=item.simple fallback_title=item.title on_press=press disabled=busy />
                        }
                            .into_any()
                    }
                    None => {
                        view! {
                            <p class="watch__empty">
                                {move || if loaded.get() { "Nothing to answer." } else { "Loading…" }}
                            </p>
                        }
                            .into_any()
                    }
                }}
                <form
                    class="watch__composer"
                    on:submit=move |event| {
                        event.prevent_default();
                        send_prompt();
                    }
                >
                    <label class="visually-hidden" for="watch-input">
                        "Message"
                    </label>
                    <input
                        id="watch-input"
                        type="text"
                        placeholder="Ask…"
                        prop:value=move || draft.get()
                        on:input=move |event| draft.set(event_target_value(&event))
                    />
                    <button type="submit" disabled=move || busy.get()>
                        "Send"
                    </button>
                </form>
            </div>
            <p>
                <a href="/">"Back to the chat"</a>
            </p>
        </main>
    }
}
