//! Account pages and sections: sign up, log in, the password and API tokens of Settings; and
//! the header's user menu.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::api::{
    ChangePassword, CreateApiToken, LogIn, LogOut, RevokeApiToken, SignUp, current_user, list_api_tokens,
};
use super::model::{
    PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordOutcome, Role, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH,
};
use crate::components::{error_alert, error_paragraph};
use crate::error::AppError;
use crate::navigation::stays_on_this_site;

/// Where to go after signing in: the `next` query parameter when it is a path of this site
/// (in the browser, also as its own URL parser resolves it).
fn next_path() -> Memo<String> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.read().get("next").filter(|next| stays_on_this_site(next)).unwrap_or_else(|| "/".to_string())
    })
}

/// A full page load, so every part of the page sees the new session.
fn go_to(path: &str) {
    crate::browser::go_to(path);
}

/// Goes to the `next` page once `value` holds a success.
fn continue_after<T: 'static>(value: impl Get<Value = Option<Result<T, AppError>>> + Send + Sync + 'static) {
    let next = next_path();
    Effect::new(move |_| {
        if let Some(Ok(_)) = value.get() {
            go_to(&next.get_untracked());
        }
    });
}

/// The username and password inputs (named as the server functions' arguments).
#[component]
fn CredentialFields(new_account: bool) -> impl IntoView {
    let password_autocomplete = if new_account { "new-password" } else { "current-password" };
    view! {
        <label>
            "Username"
            <input
                type="text"
                name="username"
                autocomplete="username"
                required
                minlength=USERNAME_MIN_LENGTH
                maxlength=USERNAME_MAX_LENGTH
            />
        </label>
        <label>
            "Password"
            <input
                type="password"
                name="password"
                autocomplete=password_autocomplete
                required
                minlength=PASSWORD_MIN_LENGTH
                maxlength=PASSWORD_MAX_LENGTH
            />
        </label>
    }
}

#[component]
pub fn LoginPage() -> impl IntoView {
    let action = ServerAction::<LogIn>::new();
    continue_after(action.value());
    view! {
        <main class="auth-page">
            <h1>"Log in to Palaver"</h1>
            <ActionForm action attr:class="auth-form" attr:aria-label="Log in">
                <CredentialFields new_account=false />
                <label class="checkbox">
                    <input type="checkbox" name="end_other_sessions" value="true" />
                    "Sign me out on every other device"
                </label>
                <button type="submit" disabled=move || action.pending().get()>
                    "Log in"
                </button>
                {move || error_alert(action.value().get())}
            </ActionForm>
            <p>"No account yet? " <a href="/signup">"Sign up"</a></p>
        </main>
    }
}

#[component]
pub fn SignupPage() -> impl IntoView {
    let action = ServerAction::<SignUp>::new();
    continue_after(action.value());
    view! {
        <main class="auth-page">
            <h1>"Create your Palaver account"</h1>
            <p class="auth-page__hint">"The first account becomes the admin."</p>
            <ActionForm action attr:class="auth-form" attr:aria-label="Sign up">
                <CredentialFields new_account=true />
                <button type="submit" disabled=move || action.pending().get()>
                    "Sign up"
                </button>
                {move || error_alert(action.value().get())}
            </ActionForm>
            <p>"Already have an account? " <a href="/login">"Log in"</a></p>
        </main>
    }
}

/// The signed-in user and a sign-out control, for the header; `children` show only to a
/// signed-in user (the inbox).
#[component]
pub fn UserMenu(children: ChildrenFn) -> impl IntoView {
    let children = StoredValue::new(children);
    let user = Resource::new(|| (), |_| current_user());
    let log_out = ServerAction::<LogOut>::new();
    let log_out_url = <LogOut as leptos::server_fn::ServerFn>::url();
    let open = RwSignal::new(false);
    Effect::new(move |_| {
        if let Some(Ok(())) = log_out.value().get() {
            go_to("/login");
        }
    });
    view! {
        <Transition fallback=|| ()>
            {move || Suspend::new(async move {
                user.await
                    .ok()
                    .flatten()
                    .map(|user| {
                        view! {
                            {children.with_value(|children| children())}
                            <div class="user-menu" class:user-menu--open=move || open.get()>
                                // On a phone the account's links fold behind the username.
                                <button
                                    type="button"
                                    class="user-menu__toggle"
                                    aria-controls="account-menu"
                                    aria-expanded=move || open.get().to_string()
                                    on:click=move |_| open.update(|open| *open = !*open)
                                >
                                    {user.username.clone()}
                                    <span class="visually-hidden">": account menu"</span>
                                </button>
                                <nav class="user-menu__items" id="account-menu" aria-label="Account">
                                    <span class="user-menu__name" data-testid="signed-in-user">
                                        {user.username.clone()}
                                    </span>
                                    <a href="/settings">"Settings"</a>
                                    {(user.role == Role::Admin).then(|| view! { <a href="/admin">"Admin"</a> })}
                                    <a href="/watch">"Watch"</a>
                                    // A plain form signs out before the page is interactive;
                                    // once it is, the action does, and the browser's download
                                    // carries no reader of form data (`ActionForm` would).
                                    <form
                                        method="post"
                                        action=log_out_url
                                        class="user-menu__logout"
                                        on:submit=move |event| {
                                            event.prevent_default();
                                            log_out.dispatch(LogOut {});
                                        }
                                    >
                                        <button type="submit">"Sign out"</button>
                                    </form>
                                </nav>
                            </div>
                        }
                    })
            })}
        </Transition>
    }
}

/// A new password's field, named as the server functions' argument, with the rules' lengths.
#[component]
pub(super) fn NewPasswordField() -> impl IntoView {
    view! {
        <label>
            "New password"
            <input
                type="password"
                name="new_password"
                autocomplete="new-password"
                required
                minlength=PASSWORD_MIN_LENGTH
                maxlength=PASSWORD_MAX_LENGTH
            />
        </label>
    }
}

/// The checkbox that keeps the account's API tokens working through a new password (unticked,
/// they are revoked with it), named as the server functions' argument.
#[component]
pub(super) fn KeepTokensCheckbox(label: &'static str) -> impl IntoView {
    view! {
        <label class="checkbox">
            <input type="checkbox" name="keep_api_tokens" value="true" />
            {label}
        </label>
    }
}

/// How many API tokens a new password revoked, in words (nothing when none).
fn tokens_revoked(count: u64) -> String {
    match count {
        0 => String::new(),
        1 => " 1 API token was revoked.".to_string(),
        many => format!(" {many} API tokens were revoked."),
    }
}

/// What a password form's action came to: `done`, how many sessions ended (worded by `ended`)
/// and how many tokens were revoked, or its error; nothing before it ran.
pub(super) fn password_outcome(
    result: Option<Result<PasswordOutcome, AppError>>,
    test_id: &'static str,
    done: &'static str,
    ended: fn(u64) -> String,
) -> AnyView {
    match result {
        Some(Ok(outcome)) => view! {
            <p role="status" data-testid=test_id>
                {done}
                {ended(outcome.sessions_ended)}
                {tokens_revoked(outcome.tokens_revoked)}
            </p>
        }
        .into_any(),
        other => error_alert(other).unwrap_or_else(|| ().into_any()),
    }
}

/// Changing one's password: the current one, then the new one; the account's other sessions
/// end, this one stays, and its API tokens are revoked unless the box is ticked.
#[component]
pub fn PasswordSection() -> impl IntoView {
    let change = ServerAction::<ChangePassword>::new();
    view! {
        <section aria-labelledby="password-heading">
            <h2 id="password-heading">"Password"</h2>
            <ActionForm action=change attr:class="password-form" attr:aria-label="Change your password">
                <label>
                    "Current password"
                    <input type="password" name="current_password" autocomplete="current-password" required />
                </label>
                <NewPasswordField />
                <KeepTokensCheckbox label="Keep my API tokens working" />
                <button type="submit">"Change password"</button>
            </ActionForm>
            {move || {
                password_outcome(
                    change.value().get(),
                    "password-changed",
                    "Password changed. ",
                    |ended| match ended {
                        0 => "No other session was signed in.".to_string(),
                        1 => "Your 1 other session was signed out.".to_string(),
                        many => format!("Your {many} other sessions were signed out."),
                    },
                )
            }}
        </section>
    }
}

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
                    view! {
                        <div class="token-created" role="status" data-testid="new-token">
                            <p>"Copy the token “" {created.name} "” now: it is shown only this once."</p>
                            <code class="token-created__secret">{created.token}</code>
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
                                                        <td>{token.created.clone()}</td>
                                                        <td>
                                                            {token.last_used.clone().unwrap_or_else(|| "never".into())}
                                                        </td>
                                                        <td>
                                                            {token
                                                                .expires
                                                                .clone()
                                                                .unwrap_or_else(|| "when revoked".into())}
                                                        </td>
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
