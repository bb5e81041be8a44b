//! A webhook's secret, shown once (at creation and at each rotation) with a copy button.

use leptos::prelude::*;

use palaver_wire::webhooks::WebhookWithSecret;

/// A secret just made, shown this once with a copy button.
#[component]
pub(super) fn SecretOnce(made: WebhookWithSecret) -> impl IntoView {
    let copied = RwSignal::new(false);
    let secret = made.secret.clone();
    view! {
        <div class="token-created" role="status" data-testid="webhook-secret">
            <p>
                "Copy the secret of " <code>{made.webhook.url}</code>
                " now: it is shown only this once. Check each delivery's Palaver-Signature with it."
            </p>
            <code class="token-created__secret" data-testid="webhook-secret-value">
                {made.secret}
            </code>
            <button
                type="button"
                class="token-created__copy"
                on:click=move |_| crate::browser::copy_text(secret.clone(), copied)
            >
                {move || if copied.get() { "Copied" } else { "Copy" }}
            </button>
        </div>
    }
}
