//! Server state shared by routes and server functions: one substate per service, so a
//! handler extracts only what it uses (`State<Conversations>`, `State<Accounts>`, …).

use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;
use palaver_core::db::Pool;

use palaver_core::accounts::auth::Accounts;
use palaver_core::agui::AgUi;
use palaver_core::conversation::Conversations;
use palaver_core::live::LiveHub;
use palaver_core::mail::Mail;
use palaver_core::mcp::{AppsSandbox, McpHub};
use palaver_core::push::Push;
use palaver_core::turn::TurnRunner;
use palaver_core::uploads::Uploads;
use palaver_core::webhooks::Webhooks;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub pool: Pool,
    pub turns: TurnRunner,
    pub accounts: Accounts,
    pub conversations: Conversations,
    pub uploads: Uploads,
    pub mcp: McpHub,
    pub apps: AppsSandbox,
    pub live: LiveHub,
    pub push: Push,
    pub mail: Mail,
    pub webhooks: Webhooks,
    pub agui: AgUi,
}

impl AppState {
    /// The services an account's deletion reaches.
    pub fn reached_by_account_deletion(&self) -> palaver_core::account_deletion::Reached<'_> {
        palaver_core::account_deletion::Reached {
            accounts: &self.accounts,
            conversations: &self.conversations,
            uploads: &self.uploads,
            push: &self.push,
            webhooks: &self.webhooks,
        }
    }
}
