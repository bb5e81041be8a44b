//! The Settings and Admin pages, composed of the sections each domain offers.

use leptos::prelude::*;

use crate::account_deletion::DeleteAccountSection;
use crate::accounts::{AccountsSection, PasswordSection, TokensSection};

#[component]
pub fn SettingsPage() -> impl IntoView {
    view! {
        <main class="settings-page">
            <h1>"Settings"</h1>
            <PasswordSection />
            <TokensSection />
            <crate::grants::GrantsSection />
            <crate::audit::AuditSection everyone=false />
            <DeleteAccountSection />
        </main>
    }
}

#[component]
pub fn AdminPage() -> impl IntoView {
    view! {
        <main class="settings-page">
            <h1>"Admin"</h1>
            <AccountsSection />
            <crate::mcp_admin::McpServersSection />
            <crate::audit::AuditSection everyone=true />
        </main>
    }
}
