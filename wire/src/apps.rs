//! MCP Apps (the `io.modelcontextprotocol/ui` extension, 2026-01-26): what the browser is given
//! to draw a tool's app, and what the app's sandbox may load and use.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The extension's name in capabilities.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The type of an app's HTML resource.
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// Whether `uri` names an app's view (`ui://`), the only resources drawn as apps.
pub fn is_app_view(uri: &str) -> bool {
    uri.starts_with("ui://")
}

/// `GET /apps/view`: a tool's app, ready to draw in its sandbox.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppView {
    pub document: AppDocument,
    /// The origin of the sandbox to frame the app in (its page is `/sandbox`): Palaver's second
    /// origin, none of its own pages'.
    pub sandbox_origin: String,
    /// What the app drawn for this call told the model last (`ui/update-model-context`), when
    /// the view was asked for a call that has one: given back to the app in its host context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub model_context: Option<Value>,
}

/// `PUT /apps/context`: what the app drawn for a tool call tells the model
/// (`ui/update-model-context`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppModelContext {
    /// The conversation the app is drawn in.
    pub history_id: String,
    /// The tool call the app is drawn for.
    pub tool_call_id: String,
    /// `{content?, structuredContent?}`; neither clears what the app told before.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub context: Value,
}

/// An app's view as its MCP server gave it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppDocument {
    /// The MCP server the app (and every tool it may call) belongs to.
    pub server: String,
    /// The app's `ui://` resource.
    pub uri: String,
    /// The HTML document the sandbox writes into its inner frame.
    pub html: String,
    /// What the app declared it loads and connects to (the sandbox's CSP is built from it).
    pub csp: AppCsp,
    /// What the app asks the browser for (its frame's `allow`).
    pub permissions: AppPermissions,
    /// Whether the app wants a border and background from the host (`None`: the host decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefers_border: Option<bool>,
}

/// An app's `_meta.ui.csp`: the origins it may reach beyond its own document, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppCsp {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connect_domains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_domains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frame_domains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub base_uri_domains: Vec<String>,
}

/// An app's `_meta.ui.permissions`: each one it names (an empty object in the spec) it wants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppPermissions {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub camera: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub microphone: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub geolocation: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub clipboard_write: bool,
}

impl AppPermissions {
    /// The permissions named in `_meta.ui.permissions` (`{"camera": {}}`, say).
    pub fn from_meta(permissions: Option<&Map<String, Value>>) -> Self {
        let named = |name: &str| permissions.is_some_and(|permissions| permissions.contains_key(name));
        AppPermissions {
            camera: named("camera"),
            microphone: named("microphone"),
            geolocation: named("geolocation"),
            clipboard_write: named("clipboardWrite"),
        }
    }

    /// The frames' `allow` attribute: each permission asked for, for the frame's own origin.
    pub fn allow_attribute(&self) -> String {
        let asked = [
            (self.camera, "camera"),
            (self.microphone, "microphone"),
            (self.geolocation, "geolocation"),
            (self.clipboard_write, "clipboard-write"),
        ];
        asked.iter().filter(|(wanted, _)| *wanted).map(|(_, feature)| *feature).collect::<Vec<_>>().join("; ")
    }
}

/// `GET /apps/tools`: the tools whose apps the chat draws, by their model-facing names (none
/// where apps are not served).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppTools {
    pub tools: Vec<String>,
}

/// `POST /apps/call`: an app's `tools/call`, sent on by Palaver to the app's own server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppToolCall {
    /// The tool whose app calls (its model-facing name, `<server>__<tool>`): the call goes to
    /// that tool's server.
    pub app_tool: String,
    /// The tool called, by its name on that server.
    pub name: String,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub arguments: Map<String, Value>,
    /// The conversation the app is drawn in: a call that needs the person's approval is asked
    /// about, and audited, there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_id: Option<String>,
}

/// `POST /apps/call`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AppCallOutcome {
    /// The call ran (a grant of the person's may have let it): the server's `CallToolResult`.
    Done {
        #[cfg_attr(feature = "openapi", schema(value_type = Object))]
        result: Value,
    },
    /// The tool runs only once the person approves this call: Palaver's card for it.
    Approval { approval: AppApproval },
}

/// An app's call waiting for the person's approval, as Palaver's card shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppApproval {
    /// Answered at `POST /apps/approvals/{id}`, once.
    pub id: String,
    pub call: crate::body::GuardedCall,
}

/// `POST /apps/approvals/{id}`: the person's answer on the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AppApprovalAnswer {
    pub approve: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn permissions_become_the_frames_allow() {
        let meta = json!({"camera": {}, "clipboardWrite": {}, "teleport": {}});
        let permissions = AppPermissions::from_meta(meta.as_object());
        assert_eq!(permissions.allow_attribute(), "camera; clipboard-write");
        assert_eq!(AppPermissions::from_meta(None).allow_attribute(), "");
    }
}
