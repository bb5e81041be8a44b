//! What Palaver's AG-UI face supports, as AG-UI's `AgentCapabilities`.

/// What Palaver's AG-UI face supports (`GET /agui/capabilities`): streamed runs a client can
/// attach to again, its own tools (host and MCP) and the app's, state and message snapshots, and
/// every ask as an interrupt.
pub fn capabilities() -> ag_ui::capabilities::AgentCapabilities {
    use ag_ui::capabilities::{
        AgentCapabilities, HumanInTheLoopCapabilities, IdentityCapabilities, StateCapabilities, ToolsCapabilities,
        TransportCapabilities,
    };
    AgentCapabilities {
        identity: Some(IdentityCapabilities {
            name: Some("Palaver".into()),
            kind: Some("palaver".into()),
            description: Some(
                "A self-hosted chat whose agent asks typed questions mid-turn; each ask is an interrupt.".into(),
            ),
            version: Some(env!("CARGO_PKG_VERSION").into()),
            ..Default::default()
        }),
        transport: Some(TransportCapabilities { streaming: Some(true), resumable: Some(true), ..Default::default() }),
        tools: Some(ToolsCapabilities { supported: Some(true), client_provided: Some(false), ..Default::default() }),
        state: Some(StateCapabilities { snapshots: Some(true), persistent_state: Some(true), ..Default::default() }),
        human_in_the_loop: Some(HumanInTheLoopCapabilities {
            supported: Some(true),
            approvals: Some(true),
            interrupts: Some(true),
            ..Default::default()
        }),
        ..Default::default()
    }
}
