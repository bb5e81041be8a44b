//! What a tool's `_meta.ui` says for MCP Apps (the `io.modelcontextprotocol/ui` extension):
//! who the tool is for, and the app it links; and what Palaver declares it draws.

use rmcp::model::Tool;
use serde_json::{Map, Value};

use palaver_wire::apps::{APP_MIME_TYPE, is_app_view};

/// Who a tool is for, by its `_meta.ui.visibility` (both when it says nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    Model,
    App,
}

/// Whether `tool` is offered to `audience`.
pub(super) fn visible_to(tool: &Tool, audience: Audience) -> bool {
    let name = match audience {
        Audience::Model => "model",
        Audience::App => "app",
    };
    let visibility = tool.meta.as_ref().and_then(|meta| meta.0.get("ui")?.get("visibility")?.as_array());
    visibility.is_none_or(|audiences| audiences.iter().any(|audience| audience == name))
}

/// The `ui://` resource of the app `tool` links to, if it links one.
pub(super) fn app_uri(tool: &Tool) -> Option<&str> {
    let meta = &tool.meta.as_ref()?.0;
    let nested = meta.get("ui").and_then(|ui| ui.get("resourceUri"));
    nested.or_else(|| meta.get("ui/resourceUri"))?.as_str().filter(|uri| is_app_view(uri))
}

/// The object `ui` declares for Palaver in capabilities: the app type it draws, and that a
/// server's question may name its app to draw it (ext-apps' draft of app-rendered
/// elicitations; where apps are not drawn, the question is Palaver's card).
pub(super) fn ui_capability() -> Map<String, Value> {
    let mut capability = Map::new();
    capability.insert("mimeTypes".into(), Value::from(vec![APP_MIME_TYPE]));
    capability.insert("elicitation".into(), Value::Object(Map::new()));
    capability
}
