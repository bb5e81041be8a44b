//! Settings' "Delete account": what goes, the password to confirm, then the front page.

use leptos::prelude::*;

use super::api::DeleteAccount;
use crate::components::error_alert;

#[component]
pub fn DeleteAccountSection() -> impl IntoView {
    let delete = ServerAction::<DeleteAccount>::new();
    Effect::new(move |_| {
        if let Some(Ok(_)) = delete.value().get() {
            crate::browser::go_to("/");
        }
    });
    view! {
        <section aria-labelledby="delete-account-heading" class="danger-zone">
            <h2 id="delete-account-heading">"Delete account"</h2>
            <p>
                "Your account goes with everything it owns: conversations, files, tokens, grants and "
                "the audit of your answers. This cannot be undone."
            </p>
            <ActionForm action=delete attr:class="password-form" attr:aria-label="Delete your account">
                <label>
                    "Password" <input type="password" name="password" autocomplete="current-password" required />
                </label>
                <button type="submit" class="danger">
                    "Delete my account"
                </button>
            </ActionForm>
            {move || error_alert(delete.value().get())}
        </section>
    }
}
