//! `/apps/*` (Palaver's addition): MCP Apps for the chat page. Which tools have an app; a
//! tool's app, read from its server and given with the origin of the sandbox to draw it in; and
//! an app's own `tools/call`, sent to its server's tools that let apps call them
//! (`palaver_core::mcp::apps`), after the person's approval on Palaver's card where the tool
//! needs one (`palaver_core::mcp::app_calls`); and what an app tells the model
//! (`palaver_core::conversation::app_contexts`).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::IntoParams;

use palaver_core::conversation::app_contexts;
use palaver_core::db::Pool;
use palaver_core::mcp::app_calls::AppCalls;
use palaver_core::mcp::{AppProblem, AppsSandbox, McpHub};
use palaver_wire::apps::{AppApprovalAnswer, AppCallOutcome, AppModelContext, AppToolCall, AppTools, AppView};

use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// `GET /apps/tools`: the tools whose apps the chat draws (none where apps are not served).
#[utoipa::path(get, path = "/apps/tools", tag = "apps", operation_id = "apps_tools",
    summary = "The tools with an MCP App",
    responses((status = 200, description = "Their model-facing names", body = AppTools)))]
pub async fn tools(
    State(mcp): State<McpHub>,
    State(apps): State<AppsSandbox>,
    Authenticated(_caller): Authenticated,
) -> Json<AppTools> {
    let tools = if apps.origins.is_some() { mcp.app_tools() } else { Vec::new() };
    Json(AppTools { tools })
}

/// `GET /apps/view`'s query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ViewOf {
    /// The tool whose app to draw, by its model-facing name (`<server>__<tool>`).
    tool: String,
    /// Another `ui://` view of the tool's server to draw instead: the app a question of its
    /// call names (`app.resourceUri` of the ask).
    uri: Option<String>,
    /// With `toolCallId`: the call the app is drawn for, in this conversation, whose app's
    /// context (`modelContext`) comes with the view.
    history_id: Option<String>,
    tool_call_id: Option<String>,
}

/// `GET /apps/view`: a tool's app as its MCP server gives it now, and the sandbox origin to
/// draw it in; for a call, what its app told the model last.
#[utoipa::path(get, path = "/apps/view", tag = "apps", operation_id = "apps_view",
    summary = "A tool's MCP App", params(ViewOf),
    responses((status = 200, description = "The app's view and its sandbox", body = AppView),
        (status = 403, description = "The conversation is not the caller's", body = ProblemBody),
        (status = 404, description = "No such tool or conversation, it has no app, or apps are not drawn here", body = ProblemBody),
        (status = 502, description = "The server did not give a view Palaver can draw", body = ProblemBody),
        (status = 503, description = "The app's server is not connected", body = ProblemBody)))]
pub async fn view(
    State(pool): State<Pool>,
    State(mcp): State<McpHub>,
    State(apps): State<AppsSandbox>,
    Authenticated(caller): Authenticated,
    Query(ViewOf { tool, uri, history_id, tool_call_id }): Query<ViewOf>,
) -> Result<Json<AppView>, Problem> {
    if apps.origins.is_none() {
        return Err(Problem::new(StatusCode::NOT_FOUND, "MCP Apps are not drawn here: PALAVER_APPS_ADDR is not set."));
    }
    let model_context = match (history_id, tool_call_id) {
        (Some(history), Some(call)) => app_contexts::read(&pool, &caller, &history, &call).await?,
        _ => None,
    };
    let document = mcp.app_document(&tool, uri.as_deref()).await.map_err(app_problem)?;
    let sandbox_origin = apps.origin_for(&document.server).unwrap_or_default();
    Ok(Json(AppView { document, sandbox_origin, model_context }))
}

/// `PUT /apps/context`: what the app drawn for a tool call tells the model
/// (`ui/update-model-context`). The model reads it from its next step on, and the app gets it
/// back when it is drawn again.
#[utoipa::path(put, path = "/apps/context", tag = "apps", operation_id = "apps_context",
    summary = "Keep what an MCP App tells the model", request_body = AppModelContext,
    responses((status = 204, description = "Kept (or, with neither content nor structuredContent, cleared)"),
        (status = 400, description = "Not a context, too large, or no call with an app by that id in the conversation", body = ProblemBody),
        (status = 403, description = "The conversation is not the caller's", body = ProblemBody),
        (status = 404, description = "No such conversation", body = ProblemBody)))]
pub async fn context(
    State(pool): State<Pool>,
    State(mcp): State<McpHub>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<StatusCode, Problem> {
    let AppModelContext { history_id, tool_call_id, context } = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request(
            "The body must be {historyId, toolCallId, context}: the app's conversation, its tool call and what it tells the model",
        )
        .with_detail(err.to_string())
    })?;
    let app_tools = mcp.app_tools();
    let links_app = |tool: &str| app_tools.iter().any(|app_tool| app_tool == tool);
    app_contexts::keep(&pool, &caller, &history_id, &tool_call_id, &context, links_app).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /apps/call`: an app's `tools/call`, answered with the server's `CallToolResult`, or,
/// for a tool that needs the person's approval, with Palaver's card for the call.
#[utoipa::path(post, path = "/apps/call", tag = "apps", operation_id = "apps_call",
    summary = "Call a tool from an MCP App", request_body = AppToolCall,
    responses((status = 200, description = "The server's CallToolResult, or the approval the call waits for", body = AppCallOutcome),
        (status = 400, description = "The body is not an app's call", body = ProblemBody),
        (status = 403, description = "The app may not call that tool, or the conversation is not the caller's", body = ProblemBody),
        (status = 404, description = "No such tool or conversation, or the tool has no app", body = ProblemBody),
        (status = 502, description = "The server failed the call", body = ProblemBody),
        (status = 503, description = "The app's server is not connected", body = ProblemBody)))]
pub async fn call(
    State(pool): State<Pool>,
    State(mcp): State<McpHub>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<Json<AppCallOutcome>, Problem> {
    let call: AppToolCall = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request(
            "The body must be {appTool, name, arguments, historyId?}: the app's tool, the tool it calls, its arguments \
             and the conversation the app is drawn in",
        )
        .with_detail(err.to_string())
    })?;
    Ok(Json(AppCalls::new(pool, mcp).call(&caller, &call).await?.map_err(app_problem)?))
}

/// `GET /apps/resource`'s query.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ResourceOf {
    /// The tool whose app reads, by its model-facing name: the read goes to that tool's server.
    tool: String,
    /// The resource's URI on that server.
    uri: String,
}

/// `GET /apps/resource`: an app's `resources/read`, answered with its server's
/// `ReadResourceResult`.
#[utoipa::path(get, path = "/apps/resource", tag = "apps", operation_id = "apps_resource",
    summary = "Read a resource for an MCP App", params(ResourceOf),
    responses((status = 200, description = "The server's ReadResourceResult", body = serde_json::Value),
        (status = 404, description = "No such tool, or it has no app", body = ProblemBody),
        (status = 502, description = "The server failed the read", body = ProblemBody),
        (status = 503, description = "The app's server is not connected", body = ProblemBody)))]
pub async fn resource(
    State(mcp): State<McpHub>,
    Authenticated(_caller): Authenticated,
    Query(ResourceOf { tool, uri }): Query<ResourceOf>,
) -> Result<Json<serde_json::Value>, Problem> {
    Ok(Json(mcp.app_resource(&tool, &uri).await.map_err(app_problem)?))
}

/// `POST /apps/approvals/{id}`: the person's answer to the card of an app's call. Approved, the
/// call runs now, once, and its `CallToolResult` is the answer; declined, the answer is a
/// `CallToolResult` that says so. Either way the audit trail records it.
#[utoipa::path(post, path = "/apps/approvals/{id}", tag = "apps", operation_id = "apps_approve",
    summary = "Approve or decline an MCP App's call", request_body = AppApprovalAnswer,
    params(("id" = String, Path, description = "The approval, as `POST /apps/call` gave it")),
    responses((status = 200, description = "The CallToolResult the app gets", body = serde_json::Value),
        (status = 400, description = "The body is not {approve}", body = ProblemBody),
        (status = 403, description = "The app may no longer call that tool", body = ProblemBody),
        (status = 404, description = "The call is not waiting (answered already, over an hour old, or not the caller's)", body = ProblemBody),
        (status = 502, description = "The server failed the call", body = ProblemBody),
        (status = 503, description = "The app's server is not connected", body = ProblemBody)))]
pub async fn approve(
    State(pool): State<Pool>,
    State(mcp): State<McpHub>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<serde_json::Value>, Problem> {
    let AppApprovalAnswer { approve } = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request("The body must be {approve}: true to run the call, false to decline it")
            .with_detail(err.to_string())
    })?;
    Ok(Json(AppCalls::new(pool, mcp).decide(&caller, &id, approve).await?.map_err(app_problem)?))
}

fn app_problem(problem: AppProblem) -> Problem {
    let status = match &problem {
        AppProblem::NoSuchTool(_) | AppProblem::NoApp(_) | AppProblem::NotWaiting => StatusCode::NOT_FOUND,
        AppProblem::NotConnected(_) => StatusCode::SERVICE_UNAVAILABLE,
        AppProblem::BadView { .. } | AppProblem::CallFailed { .. } => StatusCode::BAD_GATEWAY,
        AppProblem::Refused(_) => StatusCode::FORBIDDEN,
    };
    Problem::new(status, problem.to_string())
}
