//! MCP Apps, the host's server half (the `io.modelcontextprotocol/ui` extension, 2026-01-26):
//! an app's view, read from its own server and checked (a `ui://` resource of the app type, as
//! text or base64); the Content Security Policy its sandbox enforces, built from what the view
//! declares; and the app's own tool calls, sent on only to its server's tools that let apps call
//! them (which tools link an app, and whom they are for, is read in `ui_meta`). The browser
//! draws the view in a sandbox on Palaver's second origin (`server::sandbox`).

use base64::Engine;
use rmcp::model::{CallToolRequestParams, CallToolResponse, ReadResourceRequestParams, ResourceContents};
use serde_json::{Map, Value};

use super::McpHub;
use super::tool::McpTool;
use super::ui_meta::Audience;
use crate::turn::tools::HostTool;
use crate::turn::tools::call_keys::refused_keys;
use palaver_wire::apps::{APP_MIME_TYPE, AppCsp, AppDocument, AppPermissions, AppToolCall, is_app_view};

/// The largest view Palaver passes on (the example apps are single files of about 200 KB).
const VIEW_MAX_BYTES: usize = 5 * 1024 * 1024;
/// The most origins of one kind a view may declare.
const DOMAINS_MAX: usize = 32;

/// Where MCP Apps are drawn, when they are drawn at all: the origins of their sandbox (served
/// by `server::sandbox`, never one of Palaver's own pages), written with `*` for the first label
/// of the host (`http://*.localhost:3001`), which each MCP server's apps fill with a name of
/// their own. Each server's apps then have an origin of their own: one server's app cannot
/// reach into another's frame, storage or calls. (A pattern without `*` puts every server's
/// apps on one origin.)
#[derive(Clone, Debug, Default)]
pub struct AppsSandbox {
    pub origins: Option<std::sync::Arc<str>>,
}

impl AppsSandbox {
    /// The origin `server`'s apps are drawn from.
    pub fn origin_for(&self, server: &str) -> Option<String> {
        Some(self.origins.as_deref()?.replacen('*', &origin_label(server), 1))
    }
}

/// A host label for `server`: its name as letters, digits and dashes, and a hash of the whole
/// name, so two names that read alike get labels of their own.
fn origin_label(server: &str) -> String {
    let readable: String =
        server.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).take(40).collect();
    // FNV-1a: stable from one build to the next, so an app keeps its origin (and its storage).
    let hash = server.bytes().fold(0x811c_9dc5_u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193));
    format!("{}-{hash:08x}", readable.trim_matches('-'))
}

/// Why an app cannot be drawn or called, in words a person reads.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AppProblem {
    #[error("There is no tool named \"{0}\".")]
    NoSuchTool(String),
    #[error("The tool \"{0}\" has no app.")]
    NoApp(String),
    #[error("The MCP server \"{0}\" is not connected.")]
    NotConnected(String),
    /// The server answered with something that is not an app's view, or failed.
    #[error("The MCP server \"{server}\" did not give the app: {why}")]
    BadView { server: String, why: String },
    /// The app asked for a tool it may not call.
    #[error("{0}")]
    Refused(String),
    #[error("The MCP server \"{server}\" failed the call: {why}")]
    CallFailed { server: String, why: String },
    /// The card's call is not held (any more): answered already, past its hour, or not the
    /// caller's.
    #[error("This call is no longer waiting for an answer: it was answered already, or waited over an hour.")]
    NotWaiting,
}

impl McpHub {
    /// The tool by its model-facing name, whether or not the model is offered it.
    fn any_tool(&self, name: &str) -> Result<McpTool, AppProblem> {
        self.mcp_tools().find(|tool| tool.name() == name).ok_or_else(|| AppProblem::NoSuchTool(name.to_string()))
    }

    /// The tools of the servers connected now that link an app, by their model-facing names.
    pub fn app_tools(&self) -> Vec<String> {
        self.mcp_tools().filter(|tool| tool.app_uri().is_some()).map(|tool| tool.name().to_string()).collect()
    }

    /// The servers of the tools among `called` (model-facing names) that link an app, in order,
    /// each once.
    pub fn app_servers_of(&self, called: &[String]) -> Vec<String> {
        let mut servers: Vec<String> = Vec::new();
        for name in called {
            let server = self
                .any_tool(name)
                .ok()
                .filter(|tool| tool.app_uri().is_some())
                .map(|tool| tool.server_name().to_string());
            if let Some(server) = server.filter(|server| !servers.contains(server)) {
                servers.push(server);
            }
        }
        servers
    }

    /// Whether a tool of the server `server`, connected now, links an app.
    pub fn has_apps(&self, server: &str) -> bool {
        self.mcp_tools().any(|tool| tool.server_name() == server && tool.app_uri().is_some())
    }

    /// The view of the app `tool` (a model-facing name) links to, read from its server now; with
    /// `uri`, that `ui://` view of the tool's server instead (the app a question of a call of
    /// the tool names: never another server's).
    pub async fn app_document(&self, tool: &str, uri: Option<&str>) -> Result<AppDocument, AppProblem> {
        let tool = self.any_tool(tool)?;
        let uri = match uri {
            Some(uri) if is_app_view(uri) => uri.to_string(),
            Some(uri) => return Err(AppProblem::Refused(format!("\"{uri}\" is not an app's view (ui://)."))),
            None => tool.app_uri().ok_or_else(|| AppProblem::NoApp(tool.mcp_name().to_string()))?.to_string(),
        };
        let server = tool.server_name().to_string();
        let peer = tool.peer().ok_or_else(|| AppProblem::NotConnected(server.clone()))?;
        let bad = |why: String| AppProblem::BadView { server: server.clone(), why };
        let read = peer
            .read_resource(ReadResourceRequestParams::new(uri.clone()))
            .await
            .map_err(|err| bad(format!("reading {uri} failed ({err})")))?;
        let content = read.contents.into_iter().next().ok_or_else(|| bad(format!("{uri} is empty")))?;
        let (mime_type, html, meta) = match content {
            ResourceContents::TextResourceContents { mime_type, text, meta, .. } => (mime_type, text, meta),
            ResourceContents::BlobResourceContents { mime_type, blob, meta, .. } => {
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(blob.as_bytes())
                    .map_err(|err| bad(format!("its base64 is broken ({err})")))?;
                let html = String::from_utf8(bytes).map_err(|err| bad(format!("it is not UTF-8 text ({err})")))?;
                (mime_type, html, meta)
            }
            _ => return Err(bad("it is of a kind Palaver does not read".into())),
        };
        if mime_type.as_deref() != Some(APP_MIME_TYPE) {
            return Err(bad(format!(
                "its type is {}, not {APP_MIME_TYPE}",
                mime_type.as_deref().unwrap_or("not given")
            )));
        }
        if html.len() > VIEW_MAX_BYTES {
            return Err(bad(format!(
                "it is {} KB, over the {} KB Palaver draws",
                html.len() / 1024,
                VIEW_MAX_BYTES / 1024
            )));
        }
        let ui = meta.as_ref().and_then(|meta| meta.0.get("ui")).and_then(Value::as_object);
        let field = |name: &str| ui.and_then(|ui| ui.get(name));
        Ok(AppDocument {
            server,
            uri,
            html,
            csp: field("csp").map(declared_csp).unwrap_or_default(),
            permissions: AppPermissions::from_meta(field("permissions").and_then(Value::as_object)),
            prefers_border: field("prefersBorder").and_then(Value::as_bool),
        })
    }

    /// An app's `resources/read`, sent to the server of the tool whose app it is (never another's);
    /// the server's `ReadResourceResult`, at most as large as a view.
    pub async fn app_resource(&self, app_tool: &str, uri: &str) -> Result<Value, AppProblem> {
        let app = self.any_tool(app_tool)?;
        if app.app_uri().is_none() {
            return Err(AppProblem::NoApp(app.mcp_name().to_string()));
        }
        let server = app.server_name().to_string();
        let peer = app.peer().ok_or_else(|| AppProblem::NotConnected(server.clone()))?;
        let failed = |why: String| AppProblem::CallFailed { server: server.clone(), why };
        let read = tokio::time::timeout(app.timeout(), peer.read_resource(ReadResourceRequestParams::new(uri)))
            .await
            .map_err(|_elapsed| failed(format!("it did not answer within {} s", app.timeout().as_secs())))?
            .map_err(|err| failed(format!("reading {uri} failed ({err})")))?;
        let read = serde_json::to_value(read).map_err(|err| failed(err.to_string()))?;
        if read.to_string().len() > VIEW_MAX_BYTES {
            return Err(failed(format!("{uri} is over the {} KB Palaver passes on", VIEW_MAX_BYTES / 1024)));
        }
        Ok(read)
    }

    /// The tool an app's `tools/call` calls, when it may: a tool of the server whose tool links
    /// the app, one that lets apps call it, with no argument it does not take.
    pub(super) fn app_callee(&self, call: &AppToolCall) -> Result<McpTool, AppProblem> {
        let app = self.any_tool(&call.app_tool)?;
        if app.app_uri().is_none() {
            return Err(AppProblem::NoApp(app.mcp_name().to_string()));
        }
        let server = app.server_name().to_string();
        let called =
            self.mcp_tools().find(|tool| tool.server_name() == server && tool.mcp_name() == call.name).ok_or_else(
                || AppProblem::Refused(format!("The MCP server \"{server}\" has no tool \"{}\".", call.name)),
            )?;
        if !called.visible_to(Audience::App) {
            return Err(AppProblem::Refused(format!("The tool \"{}\" is not one an app may call.", call.name)));
        }
        let refused = refused_keys(&called, &Value::Object(call.arguments.clone()));
        if !refused.is_empty() {
            return Err(AppProblem::Refused(format!(
                "The tool \"{}\" does not take {}.",
                call.name,
                refused.iter().map(|key| format!("\"{key}\"")).collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(called)
    }
}

/// Sends an app's call to `called`'s server; its result as the app expects it (`CallToolResult`).
pub(super) async fn send_app_call(called: &McpTool, arguments: Map<String, Value>) -> Result<Value, AppProblem> {
    let server = called.server_name().to_string();
    let failed = |why: String| AppProblem::CallFailed { server: server.clone(), why };
    // One call at a time on a server, as the model's: a question the server asks while it
    // runs has no one to ask, and is declined.
    let mut slot = called.begin_call().await.map_err(failed)?;
    let peer = called.peer().ok_or_else(|| AppProblem::NotConnected(server.clone()))?;
    let params = CallToolRequestParams::new(called.mcp_name().to_string()).with_arguments(arguments);
    // A call that ends without its answer (past its time) may still be at work: the slot,
    // left unfinished, has the server restarted before the next call.
    let reply = tokio::time::timeout(called.timeout(), peer.call_tool_once(params))
        .await
        .map_err(|_elapsed| failed(format!("it did not answer within {} s", called.timeout().as_secs())))?;
    slot.finish();
    let reply = reply.map_err(|err| failed(err.to_string()))?;
    let result = match reply {
        CallToolResponse::Complete(result) => result,
        CallToolResponse::Task(created) => {
            called.abandon_task(created.task.task_id);
            return Err(failed("it ran the call as a task, which Palaver does not follow for an app yet".into()));
        }
        _ => return Err(failed("it needs the person's input, which Palaver cannot ask for an app yet".into())),
    };
    serde_json::to_value(result).map_err(|err| failed(err.to_string()))
}

/// A view's declared `csp`, each list kept to origins that cannot change the policy's meaning.
pub fn declared_csp(csp: &Value) -> AppCsp {
    let list = |name: &str| -> Vec<String> {
        let declared = csp.get(name).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        declared
            .iter()
            .filter_map(Value::as_str)
            .filter(|origin| is_plain_origin(origin))
            .take(DOMAINS_MAX)
            .map(str::to_string)
            .collect()
    };
    AppCsp {
        connect_domains: list("connectDomains"),
        resource_domains: list("resourceDomains"),
        frame_domains: list("frameDomains"),
        base_uri_domains: list("baseUriDomains"),
    }
}

/// Whether a declared origin is one a policy can hold as it is: `https://host[:port]` or
/// `wss://…` (a `*.` wildcard first in the host allowed), and nothing (a `;`, a space, a quote,
/// a path) that would add to the policy. Plain http is refused: what an app fetches over it can
/// be read or changed on the way, and the app's page is the person's.
fn is_plain_origin(origin: &str) -> bool {
    let Some((scheme, rest)) = origin.split_once("://") else { return false };
    let host = rest.strip_prefix("*.").unwrap_or(rest);
    let (host, port) = host.split_once(':').map_or((host, None), |(host, port)| (host, Some(port)));
    matches!(scheme, "https" | "wss")
        && !host.is_empty()
        && host
            .split('.')
            .all(|label| !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && port.is_none_or(|port| !port.is_empty() && port.len() <= 5 && port.chars().all(|c| c.is_ascii_digit()))
}

/// The sandbox's Content Security Policy for a view that declared `csp` (the specification's
/// restrictive default when it declared nothing): its inline scripts and styles run, it loads
/// from the declared resource origins, connects to the declared ones only, frames and sets its
/// base only as declared, never plugs anything in, and only `host` may frame it.
pub fn sandbox_policy(csp: &AppCsp, host: &str) -> String {
    let joined = |origins: &[String], otherwise: &str| {
        if origins.is_empty() { otherwise.to_string() } else { origins.join(" ") }
    };
    let resources = csp.resource_domains.join(" ");
    let from = |base: &str| format!("{base} {resources}").trim_end().to_string();
    [
        "default-src 'none'".to_string(),
        format!("script-src {}", from("'self' 'unsafe-inline'")),
        format!("style-src {}", from("'self' 'unsafe-inline'")),
        format!("img-src {}", from("'self' data:")),
        format!("font-src {}", from("'self' data:")),
        format!("media-src {}", from("'self' data:")),
        format!("connect-src {}", joined(&csp.connect_domains, "'none'")),
        format!("frame-src {}", joined(&csp.frame_domains, "'none'")),
        format!("base-uri {}", joined(&csp.base_uri_domains, "'self'")),
        "object-src 'none'".to_string(),
        format!("frame-ancestors {host}"),
    ]
    .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_plain_origins_reach_the_policy() {
        for good in ["https://cdn.example.com", "https://*.example.com", "wss://live.example.com:8443"] {
            assert!(is_plain_origin(good), "{good}");
        }
        for bad in [
            "https://bad.example; script-src *",
            "https://a b.example",
            "'unsafe-eval'",
            "*",
            "http://cdn.example.com",
            "http://localhost:3000",
            "https://cdn.example.com/path",
            "https://",
            "javascript://x",
            "https://x.example:99999x",
        ] {
            assert!(!is_plain_origin(bad), "{bad}");
        }
    }

    #[test]
    fn each_server_draws_its_apps_from_an_origin_of_its_own() {
        let apps = AppsSandbox { origins: Some("http://*.localhost:3001".into()) };
        let desk = apps.origin_for("desk").unwrap();
        assert!(desk.starts_with("http://desk-") && desk.ends_with(".localhost:3001"), "{desk}");
        assert_ne!(apps.origin_for("Desk"), Some(desk.clone()));
        assert_ne!(apps.origin_for("de_sk"), apps.origin_for("de-sk"));
        assert_eq!(apps.origin_for("desk"), Some(desk), "the same each time");
        let label = origin_label("--Ünïcode server--");
        assert!(label.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{label}");
        assert_eq!(AppsSandbox::default().origin_for("desk"), None);
    }

    #[test]
    fn a_view_that_declares_nothing_gets_the_restrictive_default() {
        let policy = sandbox_policy(&AppCsp::default(), "http://127.0.0.1:3000");
        assert_eq!(
            policy,
            "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; font-src 'self' data:; media-src 'self' data:; connect-src 'none'; \
             frame-src 'none'; base-uri 'self'; object-src 'none'; frame-ancestors http://127.0.0.1:3000"
        );
    }

    #[test]
    fn declared_origins_open_only_their_own_kind() {
        let declared = declared_csp(&json!({
            "connectDomains": ["https://api.example.com", "https://evil.example; connect-src *"],
            "resourceDomains": ["https://cdn.example.com"],
            "frameDomains": ["https://player.example.com"],
        }));
        assert_eq!(declared.connect_domains, ["https://api.example.com"]);
        let policy = sandbox_policy(&declared, "https://chat.example.com");
        assert!(policy.contains("script-src 'self' 'unsafe-inline' https://cdn.example.com;"), "{policy}");
        assert!(policy.contains("connect-src https://api.example.com;"), "{policy}");
        assert!(policy.contains("frame-src https://player.example.com;"), "{policy}");
        assert!(policy.contains("base-uri 'self';"), "{policy}");
        assert!(!policy.contains("evil"), "{policy}");
    }
}
