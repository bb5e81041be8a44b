//! Approvers other than oneself: an admin routes the approvals of given tools (by name, or every
//! tool of an MCP server) to a named person or to any admin, and may ask for two distinct
//! approvers (the two-person rule). Such an approval waits in the approver's inbox; the person
//! whose turn asked sees whom it waits for and cannot answer it on any surface, nor turn it into
//! a grant.

use serde::{Deserialize, Serialize};

/// Who may answer a routed approval.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Approver {
    /// This person (by id; `username` as the admin named them, for words).
    User { id: String, username: String },
    /// Any admin.
    Admins,
}

impl Approver {
    /// Whether the person `user_id` (an admin or not) may answer for this approver.
    pub fn admits(&self, user_id: &str, is_admin: bool) -> bool {
        match self {
            Approver::User { id, .. } => id == user_id,
            Approver::Admins => is_admin,
        }
    }

    /// The approver in words: "bob", "an admin".
    pub fn words(&self) -> String {
        match self {
            Approver::User { username, .. } => username.clone(),
            Approver::Admins => "an admin".into(),
        }
    }
}

/// An admin's rule: the approvals of these calls go to `approver`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApprovalRoute {
    /// The tool, by the name the model calls it (`<server>__<tool>` for an MCP server's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Every tool of this MCP server (its name in the configuration).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    pub approver: Approver,
    /// 2 for the two-person rule.
    pub approvals: u8,
}

impl ApprovalRoute {
    /// Whether the rule routes a call of `tool` (on `server`, for an MCP tool).
    pub fn covers(&self, tool: &str, server: Option<&str>) -> bool {
        self.tool.as_deref() == Some(tool) || (self.server.is_some() && self.server.as_deref() == server)
    }
}

/// A rule as an admin writes it: `{"tool" | "server": …, "approver": "<username>" | "admins",
/// "approvals": 1 | 2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalRouteInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    pub approver: String,
    #[serde(default = "one")]
    pub approvals: u8,
}

fn one() -> u8 {
    1
}

/// An approval routed to someone else, as the pending ask keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoutedApproval {
    pub approver: Approver,
    /// How many distinct approvers must approve: 1, or 2 under the two-person rule.
    pub needed: u8,
    /// Under the two-person rule, the first approver once they approved (id and name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_approver: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_approver_name: Option<String>,
}

impl RoutedApproval {
    /// A routed approval as `route` makes it, before anyone approved.
    pub fn new(route: &ApprovalRoute) -> Self {
        RoutedApproval {
            approver: route.approver.clone(),
            needed: route.approvals,
            first_approver: None,
            first_approver_name: None,
        }
    }

    /// What the requester's card says instead of its buttons.
    pub fn waiting_words(&self) -> String {
        let approver = self.approver.words();
        match (&self.first_approver_name, self.needed) {
            (Some(first), 2) => format!("Approved by {first}; waiting for a second approval from {approver}."),
            (None, 2) => format!("Waiting for two approvals from {approver}."),
            _ => format!("Waiting for {approver} to approve or deny."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_routes_its_tool_or_every_tool_of_its_server() {
        let by_tool = ApprovalRoute {
            tool: Some("files__write_file".into()),
            server: None,
            approver: Approver::Admins,
            approvals: 1,
        };
        assert!(by_tool.covers("files__write_file", Some("files")));
        assert!(!by_tool.covers("files__read_file", Some("files")));
        let by_server = ApprovalRoute { tool: None, server: Some("files".into()), ..by_tool };
        assert!(by_server.covers("files__read_file", Some("files")));
        assert!(!by_server.covers("publishNote", None));
    }

    #[test]
    fn a_named_approver_admits_only_that_person_and_admins_any_admin() {
        let bob = Approver::User { id: "u_bob".into(), username: "bob".into() };
        assert!(bob.admits("u_bob", false) && !bob.admits("u_ada", true));
        assert!(Approver::Admins.admits("u_ada", true) && !Approver::Admins.admits("u_bob", false));
    }
}
