//! `POST /gpt/histories/pendingAsks/answers` (Palaver's addition): several pending asks answered
//! at once, each by a button of its simple card, each as `POST /gpt/histories/{id}/turn` with
//! that button would (its own guarded answer, audited, its turn resuming on its own); one that
//! fails does not stop the others, and each outcome says how it went.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use palaver_contract::asks::AskSurface;
use palaver_core::conversation::access::{HistoryAccess, authorize_history};
use palaver_core::db::Pool;
use palaver_core::turn::{TurnRequest, TurnRunner};
use palaver_wire::batch::{BATCH_ANSWERS_MAX, BatchAnswer, BatchAnswers, BatchOutcome, BatchProblem, BatchResults};
use palaver_wire::body::Data;

use super::headless::{access_problem, button_answer, turn_problem};
use crate::auth::Authenticated;
use crate::problem::Problem;

#[utoipa::path(post, path = "/gpt/histories/pendingAsks/answers", tag = "gpthistories",
    operation_id = "gpthistories_pendingAsks_answers",
    summary = "Answer several pending asks at once, each by a button of its simple card",
    request_body = BatchAnswers,
    responses((status = 200, description = "Each answer's outcome, in order", body = Data<BatchResults>),
        (status = 400, description = "The body is not a list of answers", body = crate::problem::ProblemBody)))]
pub async fn answer_many(
    State(turns): State<TurnRunner>,
    State(pool): State<Pool>,
    Authenticated(caller): Authenticated,
    body: Bytes,
) -> Result<Json<Data<BatchResults>>, Problem> {
    let BatchAnswers { answers } = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request("Invalid request body")
            .with_detail(format!("Send {{\"answers\": [{{historyId, toolCallId, buttonId}}, …]}}: {err}."))
    })?;
    if answers.is_empty() || answers.len() > BATCH_ANSWERS_MAX {
        return Err(Problem::bad_request("Invalid request body").with_detail(format!(
            "Send between 1 and {BATCH_ANSWERS_MAX} answers; this request has {}.",
            answers.len()
        )));
    }
    let mut results = Vec::with_capacity(answers.len());
    for answer in answers {
        let taken = answer_one(&turns, &pool, &caller, &answer).await;
        let problem = taken.err().map(|problem| {
            if let Some(cause) = &problem.cause {
                tracing::error!(?cause, history = answer.history_id, "one answer of a batch failed");
            }
            BatchProblem {
                status: problem.status.as_u16(),
                title: problem.title,
                detail: problem.detail,
                code: problem.code.map(str::to_owned),
            }
        });
        let BatchAnswer { history_id, tool_call_id, .. } = answer;
        results.push(BatchOutcome { history_id, tool_call_id, answered: problem.is_none(), problem });
    }
    Ok(Json(Data { data: BatchResults { results } }))
}

/// One answer, as the headless turn takes a button: its turn then runs on by itself.
async fn answer_one(
    turns: &TurnRunner,
    pool: &Pool,
    caller: &palaver_core::accounts::auth::Caller,
    answer: &BatchAnswer,
) -> Result<(), Problem> {
    authorize_history(pool, caller, &answer.history_id, HistoryAccess::Write)
        .await
        .map_err(|err| access_problem(err, caller.is_admin()))?;
    let input = button_answer(pool, &answer.history_id, answer.tool_call_id.clone(), &answer.button_id).await?;
    let request = TurnRequest::plain(caller.clone(), Some(answer.history_id.clone()), input, AskSurface::Full);
    turns.start(request).await.map_err(turn_problem)?;
    Ok(())
}
