//! The integration tests of palaver-core, one binary: the turn runner, the ask ledger, MCP
//! servers and reliability, on a real database (SQLite; PostgreSQL when `PALAVER_TEST_POSTGRES_URL` is set).

// The tests' helpers unwrap as the tests do: a panic is how a test fails.
#![allow(clippy::unwrap_used)]

mod common;

mod answer_changes;
mod argument_asks;
mod ask_ledger;
mod audit_chain;
mod block_replies;
mod context_budget;
mod conversation_pages;
mod conversation_search;
mod conversation_window;
mod form_answers;
mod grant_patterns;
mod mcp_apps;
mod mcp_input;
mod mcp_servers;
mod mcp_tasks;
mod question_sets;
mod reference_turns;
mod reliability;
mod request_log_retention;
mod routed_approvals;
mod turn_runner;
