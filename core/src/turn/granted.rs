//! A guarded call a grant of its person's covers runs without a card; the audit trail records
//! it first, as it records every approval, so the record says what ran and under which grant.

use super::run::Turn;
use crate::audit::store::{Ending, record_alone};
use crate::grants::store::{self, Covering};
use crate::llm::ToolCall;
use palaver_wire::audit::{DecidedVia, Decider, GRANTED};
use palaver_wire::conversation::model::AskOrigin;

impl Turn {
    /// Records that `grant` runs `call`, and counts the use; false (logged) when it could not be
    /// recorded, and then the call is asked about instead.
    pub(super) async fn record_grant_run(&self, call: &ToolCall, grant: &Covering) -> bool {
        let decider = Decider { user_id: Some(self.ids.user_id.clone()), via: DecidedVia::Palaver };
        let ending = Ending {
            history_id: &self.ids.history_id,
            tool_call_id: &call.id,
            kind: "confirm",
            origin: Some(AskOrigin::Approval.as_str()),
            tool_name: Some(&call.name),
            decision: GRANTED,
            approved: Some(true),
            reason: None,
            scope: Some(grant.scope.as_str()),
            args_digest: Some(crate::audit::args_digest(&call.input)),
        };
        match record_alone(&self.runner.pool, &decider, &ending).await {
            Ok(()) => {
                // The count is for Settings; a call the grant ran is recorded either way.
                if let Err(err) = store::count_use(&self.runner.pool, &grant.id).await {
                    tracing::warn!(?err, "a grant's use could not be counted");
                }
                true
            }
            Err(err) => {
                tracing::error!(?err, tool = call.name, "a granted call could not be recorded; asking instead");
                false
            }
        }
    }
}
