//! Palaver as an MCP host: each configured server (`PALAVER_MCP_CONFIG`, see [`config`]) is
//! connected and kept connected ([`server`]), and its tools reach the model as host tools
//! named `<server>__<tool>` ([`tool`]), approved by the server's rule before they run.

pub mod app_calls;
mod apps;
pub mod config;
mod connection;
mod probe;
mod server;
mod tool;
mod ui_meta;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::task::JoinHandle;

use config::{McpConfig, Transport};
use server::ServerLink;
use tool::McpTool;

use crate::turn::tools::{HostTool, ToolSource};
pub use apps::{AppProblem, AppsSandbox, declared_csp, sandbox_policy};
use palaver_wire::body::{McpServerStatus, McpStatus, McpToolStatus};
pub use probe::{TryOptions, try_server};
pub use tool::OUTPUT_MAX_BYTES;

impl ToolSource for McpHub {
    /// The tools of the servers connected now that the model may call.
    fn tools(&self) -> Vec<Arc<dyn HostTool>> {
        self.mcp_tools()
            .filter(|tool| tool.visible_to(ui_meta::Audience::Model))
            .map(|tool| Arc::new(tool) as Arc<dyn HostTool>)
            .collect()
    }
}

/// The configured MCP servers. Cloning shares them.
#[derive(Clone, Default)]
pub struct McpHub {
    links: Arc<Vec<Arc<ServerLink>>>,
    problems: Arc<Vec<String>>,
    supervisors: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl McpHub {
    /// Reads the configuration file and connects to its servers in the background. A bad
    /// file or entry is logged and shown on the admin page; it never stops Palaver starting.
    pub fn from_file(path: &Path) -> McpHub {
        let config = std::fs::read_to_string(path)
            .map_err(|err| format!("The MCP configuration {} cannot be read: {err}.", path.display()))
            .and_then(|text| McpConfig::parse(&text));
        match config {
            Ok(config) => McpHub::start(config),
            Err(problem) => {
                tracing::error!(%problem, "no MCP servers");
                McpHub { problems: Arc::new(vec![problem]), ..McpHub::default() }
            }
        }
    }

    /// Connects to the configured servers, each kept connected by its own task.
    pub fn start(config: McpConfig) -> McpHub {
        let problems: Vec<String> = config
            .problems
            .into_iter()
            .map(|(name, problem)| format!("The MCP server \"{name}\" is left out: {problem}"))
            .collect();
        for problem in &problems {
            tracing::error!(%problem, "MCP configuration");
        }
        let links: Vec<Arc<ServerLink>> = config.servers.into_iter().map(ServerLink::new).collect();
        let supervisors = links.iter().map(|link| tokio::spawn(link.clone().supervise())).collect();
        McpHub { links: Arc::new(links), problems: Arc::new(problems), supervisors: Arc::new(Mutex::new(supervisors)) }
    }

    fn mcp_tools(&self) -> impl Iterator<Item = McpTool> + '_ {
        self.links.iter().flat_map(link_tools)
    }

    pub fn status(&self) -> McpStatus {
        let servers = self
            .links
            .iter()
            .map(|link| {
                let (state, last_error, revision) = link.state();
                let tools = link_tools(link)
                    .map(|tool| McpToolStatus {
                        name: tool.mcp_name().to_string(),
                        model_name: tool.name().to_string(),
                        needs_approval: tool.needs_approval(),
                    })
                    .collect();
                let transport = match &link.config.transport {
                    Transport::Stdio { command, .. } => format!("stdio: {command}"),
                    Transport::Http { url, .. } => format!("http: {url}"),
                };
                McpServerStatus {
                    name: link.config.name.clone(),
                    transport,
                    state,
                    last_error,
                    revision,
                    approval: link.config.approval.as_str().to_string(),
                    tools,
                }
            })
            .collect();
        McpStatus { servers, problems: self.problems.as_ref().clone() }
    }

    /// Drops the server's connection and connects again at once; `false` when there is no
    /// server by that name.
    pub fn reconnect(&self, name: &str) -> bool {
        let link = self.links.iter().find(|link| link.config.name == name);
        link.inspect(|link| link.reconnect()).is_some()
    }

    /// Ends every connection (child processes are killed with their process group), waiting
    /// a few seconds at most.
    pub async fn shut_down(&self) {
        for link in self.links.iter() {
            link.shut_down();
        }
        let supervisors =
            std::mem::take(&mut *self.supervisors.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let _ = tokio::time::timeout(Duration::from_secs(5), futures::future::join_all(supervisors)).await;
    }
}

/// One server's tools that its allow-list lets through, as host tools.
fn link_tools(link: &Arc<ServerLink>) -> impl Iterator<Item = McpTool> + '_ {
    let allowed = link.config.tools.as_ref();
    link.tools()
        .into_iter()
        .filter(move |tool| allowed.is_none_or(|names| names.iter().any(|name| *name == tool.name)))
        .map(|tool| McpTool::new(link.clone(), tool))
}
