//! `/signup`: the form that creates an account.

use leptos::prelude::*;

use super::api::SignUp;
use super::sign_in::{CredentialFields, continue_after};
use crate::components::error_alert;

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
