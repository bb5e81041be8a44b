//! A guarded tool's check, before its approval is asked and again just before the approved
//! call runs: what it checked (a second check that finds it changed makes the approval stale)
//! and what it found the call will do, for the approver.

use serde_json::json;
use tokio::sync::mpsc;

use super::run::Turn;
use super::tools::{HostTool, Preflight, ToolOutput};
use crate::llm::ToolCall;
use palaver_wire::impact::Impact;

impl Turn {
    /// Runs a guarded tool's check before its approval. `None` when it ended the call (denied,
    /// or completed with nothing to approve: its rows and the model's result are in); else what
    /// the check found, for the check before the run.
    pub(super) async fn preflight(&mut self, tool: &dyn HostTool, call: &ToolCall) -> Option<Checked> {
        let Some(check) = tool.preflight(self.context(&call.id, mpsc::channel(1).0, None, None), &call.input) else {
            return Some(Checked::default());
        };
        match ready_or_refused(check.await) {
            Ok(checked) => Some(checked),
            Err(output) => {
                let result = output.result.clone();
                self.end_unrun_call(call, result, output.message(&call.id, &call.name)).await;
                None
            }
        }
    }

    /// The guarded tool's check again, just before its approved call runs (`approved`: what the
    /// first check found). `Err` with the call's result when it must not run: denied, done
    /// meanwhile, or what was approved has changed (a stale approval).
    pub(super) async fn check_again(&mut self, call: &ToolCall, approved: Option<&str>) -> Result<(), ToolOutput> {
        let Some(tool) = self.tools.get(&call.name).cloned() else { return Ok(()) };
        let Some(check) = tool.preflight(self.context(&call.id, mpsc::channel(1).0, None, None), &call.input) else {
            return Ok(());
        };
        match ready_or_refused(check.await)?.fingerprint {
            fingerprint if fingerprint.as_deref() == approved => Ok(()),
            _ => Err(json!({"approved": false, "reason": "stale_approval", "message": STALE_APPROVAL}).into()),
        }
    }
}

/// What a ready check found: what it checked, and what the call will do.
#[derive(Default)]
pub(super) struct Checked {
    pub(super) fingerprint: Option<String>,
    pub(super) impact: Option<Impact>,
}

/// A check's finding: ready, or the call's result when it must not run.
fn ready_or_refused(found: Result<Preflight, String>) -> Result<Checked, ToolOutput> {
    match found {
        Ok(Preflight::Ready { fingerprint, impact }) => Ok(Checked { fingerprint, impact }),
        Ok(Preflight::Completed { output }) => Err(output),
        Ok(Preflight::Denied { reason }) => Err(json!({"approved": false, "reason": reason}).into()),
        Err(message) => Err(json!({"approved": false, "reason": "check_failed", "message": message}).into()),
    }
}

/// Why an approved call did not run when its tool's second check found things changed.
const STALE_APPROVAL: &str = "What was approved changed before the call ran, so it did not run. \
Tell the user and ask again if it is still wanted.";
