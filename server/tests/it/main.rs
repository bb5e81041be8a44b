//! The integration tests of the `palaver` server, one binary: its routes over HTTP, the CLI,
//! and the process suites (several instances, kills, shutdown, listener limits, chaos).

// The tests' helpers unwrap as the tests do: a panic is how a test fails.
#![allow(clippy::unwrap_used)]

mod common;
mod process;

mod bad_input;
mod chaos;
mod cli_asks;
mod cli_audit;
mod cli_blocks;
mod cli_mcp;
mod cli_users;
mod fencing;
mod http_access;
mod http_accounts;
mod http_agui;
mod http_approvals;
mod http_apps;
mod http_ask_reopen;
mod http_asks;
mod http_attachments;
mod http_batch_answers;
mod http_blocks;
mod http_branches;
mod http_chat;
mod http_demo;
mod http_events;
mod http_file_bytes;
mod http_files;
mod http_headers;
mod http_histories;
mod http_history_pages;
mod http_mail;
mod http_mcp;
mod http_models;
mod http_openapi;
mod http_preferences;
mod http_push;
mod http_push_nudges;
mod http_shares;
mod http_webhooks;
mod instances;
mod kill;
mod listener_limits;
mod module_graph;
mod providers;
mod races;
mod reference_routes;
mod shutdown;
