//! Settings' list of the caller's grants, each with Revoke.

use leptos::prelude::*;

use super::api::{RevokeGrant, list_grants};
use crate::components::error_paragraph;
use palaver_wire::grants::GrantScope;
use palaver_wire::words::tool_words;

#[component]
pub fn GrantsSection() -> impl IntoView {
    let revoke = ServerAction::<RevokeGrant>::new();
    let grants = Resource::new(move || revoke.version().get(), |_| list_grants());
    view! {
        <section aria-labelledby="grants-heading" data-testid="grants">
            <h2 id="grants-heading">"Allowed tools"</h2>
            <p>"Tools you let run without asking. Revoking one makes its next call ask again."</p>
            {move || { revoke.value().get().and_then(Result::err).map(|err| error_paragraph(&err)) }}
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match grants.await {
                        Ok(list) if list.is_empty() => {
                            view! { <p>"No tools are allowed without asking."</p> }.into_any()
                        }
                        Ok(list) => {
                            view! {
                                <ul class="grant-list">
                                    {list
                                        .into_iter()
                                        .map(|grant| {
                                            let id = grant.id.clone();
                                            let reach = match (grant.scope, &grant.history_id) {
                                                (GrantScope::Always, _) => view! { "in every conversation" }.into_any(),
                                                (GrantScope::Conversation, Some(history)) => {
                                                    let title = grant
                                                        .history_title
                                                        .clone()
                                                        .unwrap_or_else(|| "a conversation".into());
                                                    view! {
                                                        "in "
                                                        <a href=format!("/?c={history}")>{title}</a>
                                                    }
                                                        .into_any()
                                                }
                                                (GrantScope::Conversation, None) => {
                                                    view! { "in a conversation" }.into_any()
                                                }
                                            };
                                            view! {
                                                <li data-testid="grant">
                                                    <bdi>{tool_words(&grant.tool_name, None)}</bdi>
                                                    " ("
                                                    <code>{grant.tool_name.clone()}</code>
                                                    ") — "
                                                    {reach}
                                                    " "
                                                    <button
                                                        type="button"
                                                        on:click=move |_| {
                                                            revoke.dispatch(RevokeGrant { id: id.clone() });
                                                        }
                                                    >
                                                        "Revoke"
                                                        <span class="visually-hidden">
                                                            {format!(" {}", grant.tool_name)}
                                                        </span>
                                                    </button>
                                                </li>
                                            }
                                        })
                                        .collect_view()}
                                </ul>
                            }
                                .into_any()
                        }
                        Err(err) => error_paragraph(&err),
                    }
                })}
            </Transition>
        </section>
    }
}
