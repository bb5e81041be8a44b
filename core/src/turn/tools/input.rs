//! A call that cannot finish without the person: an MCP server's `InputRequiredResult` (the
//! 2026-07-28 revision's multi round-trip requests), and the answers the call is retried with.
//! Unlike a question asked while a call runs, nothing waits in the process: the turn stores
//! what was asked with its ask, so the answer may come after a restart.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::question::QuestionAnswer;

/// The most times one call is sent again with answers before Palaver gives up on it.
pub const MAX_INPUT_ROUNDS: u32 = 10;

/// What a server needs before it can finish a call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequired {
    /// Each request (`{method, params}`) under the key its answer goes back under.
    pub requests: Vec<(String, Value)>,
    /// The server's state for the retry, sent back exactly as it came (never read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// For a call the server runs as a task: the task that waits on the answers (they go to
    /// it with `tasks/update`, and the task is followed on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_id: Option<String>,
}

/// A call's retry after it needed input: the answers by request key, and the state unchanged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputAnswers {
    pub responses: Map<String, Value>,
    pub request_state: Option<String>,
    pub task_id: Option<String>,
}

impl QuestionAnswer {
    /// The answer as an elicitation's result (`ElicitResult`): content only when accepted.
    pub fn elicit_result(&self) -> Value {
        match self {
            QuestionAnswer::Accept(content) => json!({"action": "accept", "content": content}),
            other => json!({"action": other.action()}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_elicit_results() {
        assert_eq!(
            QuestionAnswer::Accept(json!({"name": "Ada"})).elicit_result(),
            json!({"action": "accept", "content": {"name": "Ada"}})
        );
        assert_eq!(QuestionAnswer::Decline.elicit_result(), json!({"action": "decline"}));
        assert_eq!(QuestionAnswer::Cancel.elicit_result(), json!({"action": "cancel"}));
    }
}
