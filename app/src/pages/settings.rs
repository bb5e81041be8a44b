//! `/settings`: the Settings page, composed of the sections each domain offers.

use leptos::prelude::*;

use crate::account_deletion::DeleteAccountSection;
use crate::accounts::{PasswordSection, TokensSection};

#[component]
pub fn SettingsPage() -> impl IntoView {
    view! {
        <main class="settings-page">
            <h1>"Settings"</h1>
            <crate::preferences::PreferencesSection />
            <PasswordSection />
            <TokensSection />
            <crate::push::PushSection />
            <crate::mail::MailSection />
            <crate::webhooks::WebhooksSection />
            <crate::grants::GrantsSection />
            <crate::audit::AuditSection everyone=false />
            <DeleteAccountSection />
        </main>
    }
}
