//! Settings' password section.

use leptos::prelude::*;

use super::api::ChangePassword;
use super::password_fields::{KeepTokensCheckbox, NewPasswordField, password_outcome};

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
