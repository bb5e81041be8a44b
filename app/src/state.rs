//! Server state shared by routes and server functions: one substate per service, so a
//! handler extracts only what it uses (`State<Conversations>`, `State<Accounts>`, …).

use crate::db::Pool;
use axum::extract::FromRef;
use leptos::prelude::LeptosOptions;

use crate::accounts::auth::Accounts;
use crate::chat::Conversations;
use crate::live::LiveHub;
use crate::mcp::McpHub;
use crate::turn::TurnRunner;
use crate::uploads::Uploads;

#[derive(Clone, FromRef)]
pub struct AppState {
    pub leptos_options: LeptosOptions,
    pub pool: Pool,
    pub turns: TurnRunner,
    pub accounts: Accounts,
    pub conversations: Conversations,
    pub uploads: Uploads,
    pub mcp: McpHub,
    pub live: LiveHub,
}
