//! What Palaver adds to one MCP tool call over stdio, and what connected servers cost in
//! memory. Run: `cargo bench -p palaver-core --bench mcp_call` (needs
//! `scripts/install-tools.sh --test` for the servers).
//!
//! - direct: `tools/call echo` on the rmcp peer, the floor (the server and the pipe).
//! - turn: from the turn's `tool-call` event to its `tool-result` event, for a model that
//!   calls `everything__echo` (the mock model): the tool lookup, the call slot, the call,
//!   the result mapping and the event.
//! - memory: this process's resident size before and after three servers connect
//!   (server-everything, server-filesystem, mcp-server-time), and the servers' own.

// A benchmark that cannot set up has nothing to measure: it stops there.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use palaver_contract::asks::AskSurface;
use palaver_core::accounts::auth::{Caller, CallerVia};
use palaver_core::conversation::running::RunningTurns;
use palaver_core::llm::MockModel;
use palaver_core::mcp::McpHub;
use palaver_core::mcp::config::McpConfig;
use palaver_core::turn::tools::ToolSource;
use palaver_core::turn::{TurnDependencies, TurnInput, TurnRequest, TurnRunner, TurnSettings};
use palaver_wire::accounts::Role;
use palaver_wire::body::McpServerState;
use palaver_wire::conversation::model::TurnEvent;

const CALLS: usize = 400;

fn mcp_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp")
}

fn resident_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// The resident size of this process's children and theirs (the servers and their helpers).
fn children_kb() -> u64 {
    let mut total = 0;
    let mut parents = vec![std::process::id()];
    while let Some(parent) = parents.pop() {
        // Each thread lists the children it started.
        let tasks = std::fs::read_dir(format!("/proc/{parent}/task")).into_iter().flatten().flatten();
        for task in tasks {
            let children = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            for child in children.split_whitespace().filter_map(|pid| pid.parse::<u32>().ok()) {
                total += resident_kb(child);
                parents.push(child);
            }
        }
    }
    total
}

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * fraction).round() as usize]
}

fn report(name: &str, mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let (p50, p99) = (percentile(&samples, 0.5), percentile(&samples, 0.99));
    println!("{name:<34} p50 {:>8.1} µs   p99 {:>8.1} µs", p50.as_secs_f64() * 1e6, p99.as_secs_f64() * 1e6);
    (p50, p99)
}

async fn connected(config: serde_json::Value) -> McpHub {
    let hub = McpHub::start(McpConfig::parse(&json!({ "mcpServers": config }).to_string()).unwrap());
    for _ in 0..300 {
        if hub.status().servers.iter().all(|server| server.state == McpServerState::Connected) {
            return hub;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the servers did not connect: {:?}", hub.status());
}

#[tokio::main]
async fn main() {
    let everything = mcp_folder().join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    let filesystem = mcp_folder().join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
    let time = mcp_folder().join(".venv/bin/mcp-server-time");
    assert!(everything.exists() && time.exists(), "run scripts/install-tools.sh --test first");

    let before = resident_kb(std::process::id());
    let folder = tempfile::tempdir().unwrap();
    let hub = connected(json!({
        "everything": {"command": "node", "args": [everything, "stdio"]},
        "files": {"command": "node", "args": [filesystem, folder.path()]},
        "time": {"command": time}
    }))
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = resident_kb(std::process::id());
    println!(
        "memory with 3 servers: Palaver +{} KB ({} → {} KB resident), the servers {} KB",
        after.saturating_sub(before),
        before,
        after,
        children_kb()
    );

    let dir = tempfile::tempdir().unwrap();
    let pool = palaver_core::db::connect(&format!("sqlite://{}?mode=rwc", dir.path().join("bench.db").display()))
        .await
        .unwrap();
    let call = json!({"toolCalls": [{"id": "call_echo", "name": "everything__echo", "input": {"message": "hi"}}]});
    let responses: Vec<serde_json::Value> = (0..CALLS).flat_map(|_| [call.clone(), json!({"text": "ok"})]).collect();
    let model = MockModel::from_json(&json!({ "responses": responses }).to_string(), None).unwrap();
    let dependencies =
        TurnDependencies { tool_sources: vec![std::sync::Arc::new(hub.clone())], ..TurnDependencies::default() };
    let runner = TurnRunner::new(
        pool.clone(),
        palaver_core::llm::Models::single(Arc::new(model)),
        TurnSettings::default(),
        dependencies,
        RunningTurns::new(
            pool.clone(),
            palaver_core::signals::Signals::local(),
            palaver_core::conversation::running::DEFAULT_LEASE,
        ),
    );
    let user = palaver_core::accounts::service::create_account(&pool, "bench", "correct horse battery", Role::User)
        .await
        .unwrap();
    let caller = Caller { user, via: CallerVia::Session };

    let mut turn = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let request = TurnRequest::plain(caller.clone(), None, TurnInput::Prompt("echo".into()), AskSurface::Full);
        let mut handle = runner.start(request).await.unwrap();
        let mut called = None;
        while let Some(event) = handle.events.recv().await {
            match event {
                TurnEvent::ToolCall { .. } => called = Some(Instant::now()),
                TurnEvent::ToolResult { .. } => turn.push(called.expect("the call came first").elapsed()),
                _ => {}
            }
        }
    }

    let tool = hub.tools().into_iter().find(|tool| tool.name() == "everything__echo").unwrap();
    let mut direct = Vec::with_capacity(CALLS);
    for _ in 0..CALLS {
        let context = palaver_core::turn::tools::ToolContext {
            pool: pool.clone(),
            user_id: String::new(),
            history_id: String::new(),
            idempotency_key: String::new(),
            questions: None,
            answers: None,
            news: None,
        };
        let started = Instant::now();
        tool.execute(context, json!({"message": "hi"})).await.unwrap();
        direct.push(started.elapsed());
    }
    println!("{CALLS} calls of everything__echo over stdio:");
    let (direct_p50, direct_p99) = report("  the host tool alone (rmcp + server)", direct);
    let (turn_p50, turn_p99) = report("  in a turn (tool-call → tool-result)", turn);
    println!(
        "  Palaver's turn adds p50 {:.1} µs, p99 {:.1} µs over the host tool alone",
        (turn_p50.as_secs_f64() - direct_p50.as_secs_f64()) * 1e6,
        (turn_p99.as_secs_f64() - direct_p99.as_secs_f64()) * 1e6
    );
    hub.shut_down().await;
}
