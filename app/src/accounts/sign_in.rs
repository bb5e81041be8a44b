//! What the log-in and sign-up pages share: the credential inputs, and where to go once
//! signed in.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::navigation::stays_on_this_site;
use palaver_wire::accounts::{PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH};
use palaver_wire::error::AppError;

/// Where to go after signing in: the `next` query parameter when it is a path of this site
/// (in the browser, also as its own URL parser resolves it).
fn next_path() -> Memo<String> {
    let query = use_query_map();
    Memo::new(move |_| {
        query.read().get("next").filter(|next| stays_on_this_site(next)).unwrap_or_else(|| "/".to_string())
    })
}

/// Goes to the `next` page once `value` holds a success, with a full page load, so every part
/// of the page sees the new session.
pub(super) fn continue_after<T: 'static>(value: impl Get<Value = Option<Result<T, AppError>>> + Send + Sync + 'static) {
    let next = next_path();
    Effect::new(move |_| {
        if let Some(Ok(_)) = value.get() {
            crate::browser::go_to(&next.get_untracked());
        }
    });
}

/// The username and password inputs (named as the server functions' arguments).
#[component]
pub(super) fn CredentialFields(new_account: bool) -> impl IntoView {
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
