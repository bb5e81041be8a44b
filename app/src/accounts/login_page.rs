//! `/login`: the log-in form.

use leptos::prelude::*;

use super::api::{LogIn, who_may_sign_up};
use super::sign_in::{CredentialFields, continue_after};
use crate::components::error_alert;
use palaver_wire::accounts::SignUpState;

#[component]
pub fn LoginPage() -> impl IntoView {
    let action = ServerAction::<LogIn>::new();
    continue_after(action.value());
    let state = Resource::new_blocking(|| (), |()| who_may_sign_up());
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
            <Suspense fallback=|| ()>
                {move || Suspend::new(async move {
                    match state.await {
                        Ok(SignUpState::Closed) => {
                            view! { <p>"No account yet? Ask this server's admin for one."</p> }.into_any()
                        }
                        _ => view! { <p>"No account yet? " <a href="/signup">"Sign up"</a></p> }.into_any(),
                    }
                })}
            </Suspense>
        </main>
    }
}
