//! What the password forms share (one's own in Settings, an admin's reset of another's): the
//! new password's field, the box that keeps API tokens, and the outcome in words.

use leptos::prelude::*;

use crate::components::error_alert;
use palaver_wire::accounts::{PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordOutcome};
use palaver_wire::error::AppError;

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
