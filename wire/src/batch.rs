//! Several pending asks answered at once (`POST /gpt/histories/pendingAsks/answers`, Palaver's
//! addition): each by a button of its simple card, each its own guarded answer, so one that
//! fails (expired, answered elsewhere) does not stop the others, and the result says which.

use serde::{Deserialize, Serialize};

/// The most answers one request may carry.
pub const BATCH_ANSWERS_MAX: usize = 50;

/// One ask and the button of its simple card that answers it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchAnswer {
    pub history_id: String,
    pub tool_call_id: String,
    pub button_id: String,
}

/// The request's body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchAnswers {
    pub answers: Vec<BatchAnswer>,
}

/// Why one answer of the batch was not taken: the problem the single answer would have had.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchProblem {
    pub status: u16,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// How one answer went: taken (its turn resumes, as after any answer), or its problem.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchOutcome {
    pub history_id: String,
    pub tool_call_id: String,
    pub answered: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<BatchProblem>,
}

/// Each answer's outcome, in the request's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchResults {
    pub results: Vec<BatchOutcome>,
}
