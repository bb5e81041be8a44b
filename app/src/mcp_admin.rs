//! The admin page's MCP section: each configured server (connected or not, its last error,
//! its tools and their approval rule) and a button to reconnect one.

use leptos::prelude::*;

use crate::components::error_paragraph;
#[cfg(feature = "ssr")]
use crate::server_fn;
use palaver_wire::body::{McpServerState, McpServerStatus, McpStatus};
use palaver_wire::error::AppError;

#[server(prefix = "/api", endpoint = "admin_mcp_status")]
pub async fn admin_mcp_status() -> Result<McpStatus, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    Ok(state.mcp.status())
}

/// Reconnects the server `name`; `false` when there is no server by that name.
#[server(prefix = "/api", endpoint = "admin_mcp_reconnect")]
pub async fn admin_mcp_reconnect(name: String) -> Result<bool, AppError> {
    let (state, caller) = server_fn::server_caller().await?;
    if !caller.is_admin() {
        return Err(AppError::AdminsOnly);
    }
    Ok(state.mcp.reconnect(&name))
}

fn state_words(state: McpServerState) -> &'static str {
    match state {
        McpServerState::Connecting => "connecting",
        McpServerState::Connected => "connected",
        McpServerState::Failed => "not connected",
        McpServerState::Stopped => "stopped",
    }
}

#[component]
fn ServerCard(server: McpServerStatus, reconnect: ServerAction<AdminMcpReconnect>) -> impl IntoView {
    let name = server.name.clone();
    let connected = server.state == McpServerState::Connected;
    view! {
        <li class="mcp-server" data-testid="mcp-server" data-state=state_words(server.state)>
            <h3>{server.name.clone()}</h3>
            <p>
                <span class="mcp-server__state" class:mcp-server__state--ok=connected>
                    {state_words(server.state)}
                </span>
                " · "
                <code>{server.transport}</code>
                {server
                    .revision
                    .map(|revision| {
                        view! {
                            " · MCP "
                            <span data-testid="mcp-revision">{revision}</span>
                        }
                    })}
                " · approval: "
                {server.approval}
            </p>
            {server.last_error.map(|error| view! { <p class="error" data-testid="mcp-error">"Last error: " {error}</p> })}
            <button
                type="button"
                on:click=move |_| {
                    reconnect.dispatch(AdminMcpReconnect { name: name.clone() });
                }
            >
                "Reconnect"
            </button>
            <ul class="mcp-tools" aria-label="Tools">
                {server
                    .tools
                    .into_iter()
                    .map(|tool| {
                        let rule = if tool.needs_approval { "asks first" } else { "runs without asking" };
                        view! {
                            <li>
                                <code>{tool.model_name}</code>
                                " · "
                                {rule}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </li>
    }
}

/// The MCP servers, as an admin sees them.
#[component]
pub fn McpServersSection() -> impl IntoView {
    let reconnect = ServerAction::<AdminMcpReconnect>::new();
    let refresh = RwSignal::new(0_u32);
    let status = Resource::new(move || (reconnect.version().get(), refresh.get()), |_| admin_mcp_status());
    // While a server is connecting, look again each second.
    Effect::new(move |_| {
        let connecting = status
            .get()
            .and_then(Result::ok)
            .is_some_and(|status| status.servers.iter().any(|server| server.state == McpServerState::Connecting));
        if connecting {
            set_timeout(move || refresh.update(|count| *count += 1), std::time::Duration::from_secs(1));
        }
    });
    view! {
        <section aria-labelledby="mcp-heading">
            <h2 id="mcp-heading">"MCP servers"</h2>
            <Transition fallback=|| {
                view! { <p>"Loading…"</p> }
            }>
                {move || Suspend::new(async move {
                    match status.await {
                        Ok(status) if status.servers.is_empty() && status.problems.is_empty() => {
                            view! { <p>"No MCP servers are configured (PALAVER_MCP_CONFIG)."</p> }.into_any()
                        }
                        Ok(status) => {
                            view! {
                                {status
                                    .problems
                                    .into_iter()
                                    .map(|problem| {
                                        view! {
                                            <p class="error" role="alert">
                                                {problem}
                                            </p>
                                        }
                                    })
                                    .collect_view()}
                                <ul class="mcp-servers">
                                    {status
                                        .servers
                                        .into_iter()
                                        .map(|server| view! { <ServerCard server reconnect /> })
                                        .collect_view()}
                                </ul>
                            }
                                .into_any()
                        }
                        Err(err) => error_paragraph(&err),
                    }
                })}
            </Transition>
        </section>
    }
}
