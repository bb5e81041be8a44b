//! Palaver's server, without the web: the database and every store, the services (accounts,
//! conversations, audit, grants, uploads, account deletion, push notifications), the turn
//! runner, the model seam and its providers, the MCP host, live events and the signals between
//! instances. It has no routes and no Leptos (it reads a request's headers only to tell who the
//! caller is): the routes (`palaver-server`) and the server functions (`palaver-app`) are thin
//! adapters over it.

pub mod account_deletion;
pub mod accounts;
pub mod agui;
pub mod answer_links;
pub mod audit;
pub mod content_policy;
pub mod conversation;
pub mod db;
pub mod error;
pub mod grants;
pub mod kept;
pub mod live;
pub mod llm;
pub mod mail;
pub mod mcp;
pub mod outbound;
pub mod preferences;
pub mod push;
pub mod signals;
pub mod turn;
pub mod uploads;
pub mod webhooks;
