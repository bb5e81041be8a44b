//! `/signup`: the form that creates an account, or, where only an admin makes accounts, a page
//! that says so before anything is filled in.

use leptos::prelude::*;

use super::api::{SignUp, who_may_sign_up};
use super::sign_in::{CredentialFields, continue_after};
use crate::components::error_alert;
use palaver_wire::accounts::SignUpState;

#[component]
pub fn SignupPage() -> impl IntoView {
    let action = ServerAction::<SignUp>::new();
    continue_after(action.value());
    let state = Resource::new_blocking(|| (), |()| who_may_sign_up());
    let form = move || {
        view! {
            <ActionForm action attr:class="auth-form" attr:aria-label="Sign up">
                <CredentialFields new_account=true />
                <button type="submit" disabled=move || action.pending().get()>
                    "Sign up"
                </button>
                {move || error_alert(action.value().get())}
            </ActionForm>
        }
    };
    view! {
        <main class="auth-page">
            <h1>"Create your Palaver account"</h1>
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match state.await {
                        Ok(SignUpState::Closed) => {
                            view! {
                                <p class="auth-page__hint" data-testid="signup-closed">
                                    "Sign-up is closed on this server. Ask its admin for an account."
                                </p>
                            }
                                .into_any()
                        }
                        Ok(SignUpState::FirstAccount) => {
                            view! {
                                <p class="auth-page__hint">
                                    "This server has no account yet. The first one becomes its admin."
                                </p>
                                {form()}
                            }
                                .into_any()
                        }
                        _ => form().into_any(),
                    }
                })}
            </Suspense>
            <p>"Already have an account? " <a href="/login">"Log in"</a></p>
        </main>
    }
}
