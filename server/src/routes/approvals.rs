//! The approvals an admin routed to someone other than the person who asked (Palaver's
//! addition): `GET /gpt/approvals/waiting` lists those waiting for the caller, and
//! `POST /gpt/approvals/answer` answers one by a button of its card, as the turn's answer would
//! (guarded, audited with the approver as its decider, the call running once, as its owner).
//! The person who asked cannot answer through these or any other route.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use palaver_contract::asks::AskSurface;
use palaver_core::db::Pool;
use palaver_core::error::AppError;
use palaver_core::turn::store::routed_to;
use palaver_core::turn::{TurnRequest, TurnRunner};
use palaver_wire::batch::BatchAnswer;
use palaver_wire::body::{ApprovalDecision, Data, WaitingApproval};

use super::headless::{button_answer, turn_problem};
use crate::auth::Authenticated;
use crate::problem::Problem;

#[utoipa::path(get, path = "/gpt/approvals/waiting", tag = "approvals", operation_id = "approvals_waiting",
    summary = "List the approvals routed to the caller",
    description = "Approvals of others' calls that an admin routed to the caller (by name, or to any admin), newest first. Answer one with POST /gpt/approvals/answer.",
    responses((status = 200, description = "Successful response", body = Data<Vec<WaitingApproval>>)))]
pub async fn waiting(
    State(pool): State<Pool>,
    Authenticated(caller): Authenticated,
) -> Result<Json<Data<Vec<WaitingApproval>>>, Problem> {
    let items = routed_to(&pool, &caller.user.id, caller.is_admin()).await?;
    let data = items
        .into_iter()
        .filter_map(|item| {
            let ask = item.pending.ask;
            Some(WaitingApproval {
                prompt: ask.input["prompt"].as_str().unwrap_or_default().to_string(),
                call: ask.guarded_call(),
                impact: ask.impact,
                tool_hints: ask.tool_hints,
                routed: ask.routed?,
                history_id: item.history_id,
                tool_call_id: ask.tool_call_id,
                name: item.name,
                requester: item.requester.unwrap_or_default(),
                simple: ask.simple,
                expires_at: ask.expires_at,
                created: item.pending.created,
            })
        })
        .collect();
    Ok(Json(Data { data }))
}

#[utoipa::path(post, path = "/gpt/approvals/answer", tag = "approvals", operation_id = "approvals_answer",
    summary = "Answer an approval routed to the caller, by a button of its card",
    request_body = BatchAnswer,
    responses((status = 200, description = "Decided: the call runs (approved) or is denied", body = Data<ApprovalDecision>),
        (status = 202, description = "The first of two approvals: the call waits for a second approver", body = Data<ApprovalDecision>),
        (status = 403, description = "The approval is not routed to the caller, or the caller asked for it", body = crate::problem::ProblemBody),
        (status = 409, description = "No longer pending, or already approved by the caller", body = crate::problem::ProblemBody)))]
pub async fn answer(
    State(turns): State<TurnRunner>,
    State(pool): State<Pool>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<(StatusCode, Json<Data<ApprovalDecision>>), Problem> {
    let BatchAnswer { history_id, tool_call_id, button_id } = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request("Invalid request body")
            .with_detail(format!("Send {{historyId, toolCallId, buttonId}}: {err}."))
    })?;
    let input = button_answer(&pool, &history_id, tool_call_id.clone(), &button_id).await?;
    let request = TurnRequest::plain(caller, Some(history_id.clone()), input, AskSurface::Full);
    let decided = match turns.start(request).await {
        Ok(_) => true,
        Err(err) if matches!(err.kind(), AppError::SecondApprovalNeeded) => false,
        Err(err) => return Err(turn_problem(err)),
    };
    let status = if decided { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(Data { data: ApprovalDecision { history_id, tool_call_id, decided } })))
}
