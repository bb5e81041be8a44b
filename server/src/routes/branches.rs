//! `PUT /gpt/histories/{id}/branches` (Palaver's addition): shows another version of a
//! message, one that an edit or a regenerate kept (`replaceLast` / `replaceFrom` on
//! `POST /gpt/prompt`).

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use palaver_core::conversation::Conversations;
use palaver_core::turn::TurnRunner;
use palaver_wire::body::Data;
use palaver_wire::conversation::document::HistoryDocument;

use super::gpt::history_problem;
use crate::auth::Authenticated;
use crate::problem::{Problem, ProblemBody};

/// The body of `PUT /gpt/histories/{id}/branches`.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShowBranch {
    /// The index in `prompts` of a message with versions (its `branches`).
    row: u32,
    /// The version to show, from 0 (`branches.shown` is the one shown).
    position: u32,
    /// How many rows the client shows: when sent, the conversation must still have as many.
    #[serde(default)]
    seen_rows: Option<u32>,
}

/// `PUT /gpt/histories/{id}/branches`: shows the version `position` of the message at `row`;
/// the rows shown there until now become a version in turn. Nothing changes while a reply
/// runs (409) or an ask waits (409); the owner's other tabs hear `{branchShown}`.
#[utoipa::path(put, path = "/gpt/histories/{id}/branches", tag = "gpthistories", operation_id = "gpthistories_branches",
    summary = "Show another version of a message",
    description = "Show a version an edit or a regenerate kept; answers with the conversation as it now reads",
    params(("id" = String, Path, description = "The conversation's id")), request_body = ShowBranch,
    responses((status = 200, description = "Shown", body = Data<HistoryDocument>),
        (status = 400, description = "The row has no such version", body = ProblemBody),
        (status = 409, description = "A reply runs, an ask waits, or the conversation changed since it was read", body = ProblemBody)))]
pub async fn show_branch(
    State(turns): State<TurnRunner>,
    State(conversations): State<Conversations>,
    Authenticated(caller): Authenticated,
    Path(id): Path<String>,
    body: axum::body::Bytes,
) -> Result<Json<Data<HistoryDocument>>, Problem> {
    let ShowBranch { row, position, seen_rows } = serde_json::from_slice(&body).map_err(|err| {
        Problem::bad_request("The body must be {row, position, seenRows?}: whole numbers from 0")
            .with_detail(err.to_string())
    })?;
    turns
        .show_branch(&caller, &id, row.into(), position.into(), seen_rows.map(i64::from))
        .await
        .map_err(history_problem)?;
    let history = conversations.read(&caller, &id).await.map_err(history_problem)?;
    Ok(Json(Data { data: HistoryDocument::from(history) }))
}
