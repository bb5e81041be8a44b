//! `/admin`: the Admin page, composed of the sections each domain offers its admins.

use leptos::prelude::*;

use crate::accounts::AccountsSection;

#[component]
pub fn AdminPage() -> impl IntoView {
    view! {
        <main class="settings-page">
            <h1>"Admin"</h1>
            <AccountsSection />
            <crate::preferences::ServerSettingsSection />
            <crate::mcp_admin::McpServersSection />
            <crate::audit::AuditSection everyone=true />
        </main>
    }
}
