//! Settings' API tokens section.

use leptos::prelude::*;

use super::api::{CreateApiToken, RevokeApiToken, list_api_tokens};
use crate::components::{LocalTime, error_paragraph};

/// The caller's API tokens: create one (shown once), list and revoke them.
#[component]
pub fn TokensSection() -> impl IntoView {
    let create = ServerAction::<CreateApiToken>::new();
    let revoke = ServerAction::<RevokeApiToken>::new();
    let tokens = Resource::new(move || (create.version().get(), revoke.version().get()), |_| list_api_tokens());
    view! {
        <section aria-labelledby="tokens-heading">
            <h2 id="tokens-heading">"API tokens"</h2>
            <p>
                "Headless clients (a watch app, a notification action, a bot) send "
                <code>"Authorization: Bearer <token>"</code>"."
            </p>
            <ActionForm action=create attr:class="token-form" attr:aria-label="Create a token">
                <label>
                    "Token name" <input type="text" name="name" required maxlength="60" placeholder="Watch" />
                </label>
                <label>
                    "Expires" <select name="expires_in_days">
                        <option value="">"Never (until revoked)"</option>
                        <option value="7">"In 7 days"</option>
                        <option value="30">"In 30 days"</option>
                        <option value="90">"In 90 days"</option>
                        <option value="365">"In a year"</option>
                    </select>
                </label>
                <button type="submit">"Create token"</button>
            </ActionForm>
            {move || match create.value().get() {
                Some(Ok(created)) => {
                    let copied = RwSignal::new(false);
                    let secret = created.token.clone();
                    view! {
                        <div class="token-created" role="status" data-testid="new-token">
                            <p>"Copy the token “" {created.name} "” now: it is shown only this once."</p>
                            <code class="token-created__secret">{created.token}</code>
                            <button
                                type="button"
                                class="token-created__copy"
                                data-testid="copy-token"
                                on:click=move |_| crate::browser::copy_text(secret.clone(), copied)
                            >
                                {move || if copied.get() { "Copied" } else { "Copy" }}
                            </button>
                        </div>
                    }
                        .into_any()
                }
                Some(Err(err)) => {
                    view! {
                        <p class="error" role="alert">
                            {err.to_string()}
                        </p>
                    }
                        .into_any()
                }
                None => ().into_any(),
            }}
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match tokens.await {
                        Ok(list) if list.is_empty() => view! { <p>"No tokens yet."</p> }.into_any(),
                        Ok(list) => {
                            view! {
                                <table class="token-list">
                                    <thead>
                                        <tr>
                                            <th scope="col">"Name"</th>
                                            <th scope="col">"Created"</th>
                                            <th scope="col">"Last used"</th>
                                            <th scope="col">"Expires"</th>
                                            <th scope="col">
                                                <span class="visually-hidden">"Actions"</span>
                                            </th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list
                                            .into_iter()
                                            .map(|token| {
                                                let id = token.id.clone();
                                                view! {
                                                    <tr>
                                                        <td>{token.name.clone()}</td>
                                                        <td>
                                                            <LocalTime iso=token.created.clone() />
                                                        </td>
                                                        <td>{moment_or(token.last_used.clone(), "never")}</td>
                                                        <td>{moment_or(token.expires.clone(), "when revoked")}</td>
                                                        <td>
                                                            <button
                                                                type="button"
                                                                on:click=move |_| {
                                                                    revoke.dispatch(RevokeApiToken { id: id.clone() });
                                                                }
                                                            >
                                                                "Revoke "
                                                                <span class="visually-hidden">{token.name.clone()}</span>
                                                            </button>
                                                        </td>
                                                    </tr>
                                                }
                                            })
                                            .collect_view()}
                                    </tbody>
                                </table>
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

/// A recorded moment as the reader reads it, or `otherwise` when there is none.
fn moment_or(iso: Option<String>, otherwise: &'static str) -> AnyView {
    match iso {
        Some(iso) => view! { <LocalTime iso /> }.into_any(),
        None => otherwise.into_any(),
    }
}
