//! How a connection to an MCP server starts (the newest revision both speak), lists its tools,
//! follows their changes, and logs what a child process writes to stderr.

use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ElicitationCapability, FormElicitationCapability, ProtocolVersion, ServerNotification,
    SubscriptionFilter, Tool, UrlElicitationCapability,
};
use rmcp::service::{ClientLifecycleMode, Peer, RoleClient, ServiceError, Subscription};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

use super::ui_meta::ui_capability;
use palaver_wire::apps::UI_EXTENSION;

/// The tasks extension's name in capabilities.
const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// The longest a server may take to start (less when its call timeout is less).
pub(super) const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest stderr line logged as it came.
const STDERR_LINE_MAX: usize = 1_000;

/// How a connection starts: the 2026-07-28 revision when the server speaks it (no handshake:
/// `server/discover`, then every request carries the revision and Palaver's capabilities),
/// else the `initialize` handshake of 2025-11-25 and before. rmcp tells the two apart as the
/// specification says, by what the server answers the probe.
pub(super) fn lifecycle() -> ClientLifecycleMode {
    ClientLifecycleMode::Auto {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        legacy_version: Some(ProtocolVersion::LATEST_WITH_INITIALIZE),
    }
}

/// What Palaver declares it does, and only that: elicitation in both modes (the answers
/// checked against the schema), no sampling or roots; the tasks extension (a long call is
/// followed until it ends, `tool.rs`) and MCP Apps (the app type it draws, `apps.rs`).
pub(super) fn capabilities() -> ClientCapabilities {
    let mut capabilities = ClientCapabilities::default();
    capabilities.elicitation = Some(
        ElicitationCapability::new()
            .with_form(FormElicitationCapability::new().with_schema_validation(true))
            .with_url(UrlElicitationCapability::new()),
    );
    let extensions = [(TASKS_EXTENSION.to_string(), Default::default()), (UI_EXTENSION.to_string(), ui_capability())];
    capabilities.extensions = Some(extensions.into());
    capabilities
}

/// Whether a revision is 2026-07-28 or later: no handshake, and a server asks for input only
/// in its answer to a call.
pub(super) fn stateless(revision: &ProtocolVersion) -> bool {
    *revision >= ProtocolVersion::NO_INITIALIZE
}

/// From 2026-07-28 on a server tells of changes only on a stream the client opens
/// (`subscriptions/listen`); before, it sends `notifications/tools/list_changed` on its own.
/// `None` when the server says its tools never change, or the stream cannot be opened.
pub(super) async fn listen_for_tool_changes(peer: &Peer<RoleClient>) -> Option<Subscription> {
    let info = peer.peer_info()?;
    let modern = stateless(&info.protocol_version);
    let changing = info.capabilities.tools.as_ref().and_then(|tools| tools.list_changed) == Some(true);
    if !modern || !changing {
        return None;
    }
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    match tokio::time::timeout(INITIALIZE_TIMEOUT, peer.listen(filter)).await {
        Ok(Ok(subscription)) => Some(subscription),
        Ok(Err(err)) => {
            tracing::warn!(%err, "the server's tool changes cannot be followed");
            None
        }
        Err(_) => {
            tracing::warn!("the server's tool changes cannot be followed: it did not open the stream in time");
            None
        }
    }
}

/// The next notice on the change stream; never, without one.
pub(super) async fn next_change(
    changes: &mut Option<Subscription>,
) -> Result<Option<ServerNotification>, ServiceError> {
    match changes {
        Some(changes) => changes.next().await,
        None => std::future::pending().await,
    }
}

/// A server's tools, or why not, within the time a server has to start.
pub(super) async fn list_tools(peer: &Peer<RoleClient>) -> Result<Vec<Tool>, String> {
    match tokio::time::timeout(INITIALIZE_TIMEOUT, peer.list_all_tools()).await {
        Ok(Ok(tools)) => Ok(tools),
        Ok(Err(err)) => Err(err.to_string()),
        Err(_) => Err(format!("no answer within {} s", INITIALIZE_TIMEOUT.as_secs())),
    }
}

/// Logs a child's stderr line by line, as the server's own words: read to the end whatever it
/// writes (bytes that are not UTF-8 included), so the server never blocks on a full pipe.
pub(super) async fn log_stderr(server: String, stderr: tokio::process::ChildStderr) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader).take(STDERR_LINE_MAX as u64).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                tracing::info!(server, "stderr: {}", text.trim_end());
            }
        }
    }
}
