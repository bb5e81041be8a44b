//! `POST /gpt/histories/{id}/asks/{askId}/reopen` (Palaver's addition): takes back an answer
//! so its person can change it, while the conversation has not gone further than its reply
//! (`palaver_core::turn::reopen`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;

use palaver_core::turn::TurnRunner;
use palaver_wire::body::Data;
use palaver_wire::conversation::model::PendingAskView;

use super::gpt::history_problem;
use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// `POST /gpt/histories/{id}/asks/{askId}/reopen`: the answer to the ask `askId` is withdrawn
/// and its reply removed; the ask waits again, as it was, for a new answer. The owner's other
/// tabs and devices hear `{askCreated}`.
#[utoipa::path(post, path = "/gpt/histories/{id}/asks/{askId}/reopen", tag = "gpthistories",
    operation_id = "gpthistories_ask_reopen", summary = "Change an answer: make its ask pending again",
    description = "Withdraws an answer given in the last two minutes while nothing but its reply came after it \
        (no later message, no later ask, no tool call that ran because of it; an MCP server's question and an \
        approval that approved cannot be changed). Answers with the ask, pending again under the same id and expiry.",
    params(("id" = String, Path, description = "The conversation's id"),
        ("askId" = String, Path, description = "The ask's toolCallId")),
    responses((status = 200, description = "The ask waits again", body = Data<PendingAskView>),
        (status = 409, description = "The answer can no longer be changed (the title says why)", body = ProblemBody)))]
pub async fn reopen_ask(
    State(turns): State<TurnRunner>,
    Authenticated(caller): Authenticated,
    Path((id, ask_id)): Path<(String, String)>,
) -> Result<Json<Data<PendingAskView>>, Problem> {
    match turns.reopen_answer(&caller, &id, &ask_id).await.map_err(history_problem)? {
        Ok(pending) => Ok(Json(Data { data: pending })),
        Err(refused) => Err(Problem::new(StatusCode::CONFLICT, refused.sentence()).or_title_as_detail()),
    }
}
