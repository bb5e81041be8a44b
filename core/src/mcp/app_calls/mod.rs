//! An MCP App's own tool calls, under the rules a model's call is under. A tool that needs the
//! person's approval runs only once they approve the call on Palaver's card (or a grant of theirs
//! covers it, where the model's call could run under one); the approval is audited in the
//! conversation the app is drawn in, like every other, and the call runs at most once. A tool
//! whose approvals an admin routed to someone else is not the person's to approve: an app may
//! not call it. One call of an app waits at a time.

pub mod store;

use serde_json::{Value, json};

use super::McpHub;
use super::apps::{AppProblem, send_app_call};
use crate::accounts::auth::Caller;
use crate::audit::store::{Ending, record, record_alone};
use crate::conversation::access::{HistoryAccess, authorize_history};
use crate::db::Pool;
use crate::error::AppResult;
use crate::grants::store as grants;
use crate::preferences::ServerChoices;
use crate::turn::tools::HostTool;
use crate::turn::tools::call_keys::shown_arguments;
use palaver_wire::apps::{AppApproval, AppCallOutcome, AppToolCall};
use palaver_wire::audit::{DecidedVia, Decider, GRANTED};
use palaver_wire::body::GuardedCall;
use palaver_wire::conversation::model::AskOrigin;
use store::HeldAppCall;

/// What the app is told when the person declines its call.
const DECLINED: &str = "The person declined this call.";

/// Apps' calls: the MCP servers they go to, and the database that holds those waiting for
/// approval. Cloning shares them.
#[derive(Clone)]
pub struct AppCalls {
    pool: Pool,
    hub: McpHub,
}

impl AppCalls {
    pub fn new(pool: Pool, hub: McpHub) -> Self {
        Self { pool, hub }
    }

    /// An app's `tools/call`: run now, or held for the person's approval.
    pub async fn call(&self, caller: &Caller, call: &AppToolCall) -> AppResult<Result<AppCallOutcome, AppProblem>> {
        let called = match self.hub.app_callee(call) {
            Ok(called) => called,
            Err(problem) => return Ok(Err(problem)),
        };
        if !called.needs_approval() {
            return Ok(send_app_call(&called, call.arguments.clone())
                .await
                .map(|result| AppCallOutcome::Done { result }));
        }
        let Some(history_id) = call.history_id.as_deref() else {
            return Ok(Err(AppProblem::Refused(format!(
                "The tool \"{}\" runs only after the person approves it, in the conversation the app is drawn in, \
                 which the call does not name.",
                call.name
            ))));
        };
        authorize_history(&self.pool, caller, history_id, HistoryAccess::Write).await?;
        let choices = ServerChoices::read(&self.pool).await?;
        if choices.approval_routes.iter().any(|route| route.covers(called.name(), called.server())) {
            return Ok(Err(AppProblem::Refused(format!(
                "The approvals of \"{}\" go to someone an admin named: an app cannot ask for them.",
                call.name
            ))));
        }
        let input = Value::Object(call.arguments.clone());
        // As for the model's calls: no grant runs a call every one of which must be approved,
        // one an admin took grants away from, or a destructive one. (An MCP tool's call with a
        // key its schema does not name never gets here.)
        let destructive = called.approval(&input).is_some_and(|approval| approval["destructive"] == true);
        let grantable = called.grantable() && !choices.ungranted_tools.iter().any(|tool| tool == called.name());
        let covering = match grantable && !destructive {
            true => grants::covering(&self.pool, &caller.user.id, called.name(), history_id, &input).await?,
            false => None,
        };
        if let Some(grant) = covering {
            let decider = Decider { user_id: Some(caller.user.id.clone()), via: DecidedVia::Palaver };
            let call_id = app_call_id(&crate::db::new_id());
            let ending = ending(history_id, &call_id, called.name(), &input, GRANTED, Some(grant.scope.as_str()));
            record_alone(&self.pool, &decider, &ending).await?;
            // The count is for Settings; the call the grant ran is recorded either way.
            if let Err(err) = grants::count_use(&self.pool, &grant.id).await {
                tracing::warn!(?err, "a grant's use could not be counted");
            }
            return Ok(send_app_call(&called, call.arguments.clone())
                .await
                .map(|result| AppCallOutcome::Done { result }));
        }
        let id = crate::db::new_id();
        let held = HeldAppCall {
            history_id: history_id.to_string(),
            app_tool: call.app_tool.clone(),
            tool_name: call.name.clone(),
            arguments: input.to_string(),
        };
        if !store::hold(&self.pool, &id, &caller.user.id, &held).await? {
            return Ok(Err(AppProblem::Refused("Another call of this app waits for the person's approval.".into())));
        }
        let guarded = GuardedCall {
            tool_name: called.name().to_string(),
            tool_title: called.title(),
            server: Some(called.server_name().to_string()),
            arguments: shown_arguments(&called.input_schema(), &input),
        };
        Ok(Ok(AppCallOutcome::Approval { approval: AppApproval { id, call: guarded } }))
    }

    /// The person's answer to the card of the call held under `id`: the call's result when they
    /// approve (the call runs now, once), a result saying they declined otherwise. The answer
    /// and the taking of the held call are one transaction.
    pub async fn decide(&self, caller: &Caller, id: &str, approve: bool) -> AppResult<Result<Value, AppProblem>> {
        let mut tx = crate::db::begin(&self.pool).await?;
        // A call held in a conversation deleted since is not waiting any more.
        let Some(held) = store::take(&mut tx, id, &caller.user.id).await? else {
            return Ok(Err(AppProblem::NotWaiting));
        };
        let call = AppToolCall {
            app_tool: held.app_tool.clone(),
            name: held.tool_name.clone(),
            arguments: held.arguments(),
            history_id: Some(held.history_id.clone()),
        };
        // The server may have changed since the card was shown: its tool is found again.
        let called = self.hub.app_callee(&call);
        let tool_name = called.as_ref().map_or(held.tool_name.as_str(), |called| called.name());
        let input = Value::Object(call.arguments.clone());
        let decision = if approve { "accept" } else { "decline" };
        let call_id = app_call_id(id);
        let ending = Ending {
            approved: Some(approve),
            ..ending(&held.history_id, &call_id, tool_name, &input, decision, approve.then_some("once"))
        };
        record(&mut tx, &Decider::person(&caller.user.id, caller.decided_via()), &ending).await?;
        tx.commit().await?;
        if !approve {
            return Ok(Ok(declined_result()));
        }
        Ok(match called {
            Ok(called) => send_app_call(&called, call.arguments).await,
            Err(problem) => Err(problem),
        })
    }
}

/// The id an app's call has in the audit trail: apps' calls have no model call id.
fn app_call_id(id: &str) -> String {
    format!("app-{id}")
}

/// The audit entry of an app's call of `tool_name` ending with `decision`.
fn ending<'a>(
    history_id: &'a str,
    call_id: &'a str,
    tool_name: &'a str,
    input: &Value,
    decision: &'a str,
    scope: Option<&'a str>,
) -> Ending<'a> {
    Ending {
        history_id,
        tool_call_id: call_id,
        kind: "confirm",
        origin: Some(AskOrigin::Approval.as_str()),
        tool_name: Some(tool_name),
        decision,
        approved: Some(true),
        reason: None,
        scope,
        args_digest: Some(crate::audit::args_digest(input)),
    }
}

/// The `CallToolResult` an app gets for a call the person declined.
fn declined_result() -> Value {
    json!({"content": [{"type": "text", "text": DECLINED}], "isError": true})
}
