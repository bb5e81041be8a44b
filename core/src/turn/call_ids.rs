//! Tool-call ids. Every ask gets an id Palaver mints ([`mint`]): clients answer it and its
//! rows are updated by it, whatever the model sent. The model keeps its own ids while they are
//! new to the conversation, else gets one Palaver mints: providers reuse ids across turns, and
//! some send none, so an id is checked against every call the conversation has, and the model
//! is told the replacement from then on (a provider refuses two calls by one id).

use std::collections::{HashMap, HashSet};

use crate::llm::{ModelMessage, ToolCall};
use palaver_wire::conversation::model::HistoryRow;

/// The ids of one model call's tool calls.
pub(super) struct CallIds {
    taken: HashSet<String>,
    /// The id each of the step's model ids was given (its pieces and its call share one).
    given: HashMap<String, String>,
}

/// The prefix of the ids of the model's own asks (approvals and argument asks have theirs).
pub(super) const ASK_PREFIX: &str = "ask_";

/// The prefix of the ids of tools' questions.
pub(super) const QUESTION_PREFIX: &str = "question_";

/// The prefix of an id minted for a model's call whose own id was taken or missing.
const CALL_PREFIX: &str = "call_";

/// A new id, unique everywhere (a UUID v7), after `prefix`.
pub(super) fn mint(prefix: &str) -> String {
    format!("{prefix}{}", uuid::Uuid::now_v7().simple())
}

impl CallIds {
    /// The ids the conversation holds: its rows (the model's ids of its asks too), and the
    /// calls of this turn so far.
    pub(super) fn taken_by<'r>(rows: impl Iterator<Item = &'r HistoryRow>, messages: &[ModelMessage]) -> Self {
        let mut taken: HashSet<String> = rows
            .flat_map(|row| match row {
                HistoryRow::ToolCall { tool_call_id, model_call_id, .. }
                | HistoryRow::ToolResult { tool_call_id, model_call_id, .. } => {
                    [Some(tool_call_id.clone()), model_call_id.clone()]
                }
                _ => [None, None],
            })
            .flatten()
            .collect();
        for message in messages {
            if let ModelMessage::Assistant { tool_calls, .. } = message {
                taken.extend(tool_calls.iter().map(|call| call.id.clone()));
            }
        }
        CallIds { taken, given: HashMap::new() }
    }

    /// The id for the call the model names `model_id` (the same for its streamed pieces).
    pub(super) fn ours(&mut self, model_id: &str) -> String {
        if let Some(id) = self.given.get(model_id) {
            return id.clone();
        }
        let id =
            if model_id.is_empty() || self.taken.contains(model_id) { mint(CALL_PREFIX) } else { model_id.to_string() };
        self.taken.insert(id.clone());
        self.given.insert(model_id.to_string(), id.clone());
        id
    }

    /// The id for a finished call: its pieces' id, or a new one when the step has a call by
    /// that id already (a model that sent one id twice in a step).
    pub(super) fn for_call(&mut self, call: &ToolCall, step: &[ToolCall]) -> String {
        let id = self.ours(&call.id);
        if step.iter().any(|earlier| earlier.id == id) {
            let fresh = mint(CALL_PREFIX);
            self.taken.insert(fresh.clone());
            return fresh;
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(id: &str) -> ToolCall {
        ToolCall { id: id.into(), name: "ask_confirm".into(), input: json!({}) }
    }

    #[test]
    fn a_new_id_is_kept_and_a_reused_or_missing_one_is_replaced() {
        let rows = [
            HistoryRow::ToolCall {
                tool_name: "ask_confirm".into(),
                tool_call_id: "call_1".into(),
                args: json!({}),
                ask: None,
                allowed_by: None,
                model_call_id: None,
                client_tool: false,
            },
            HistoryRow::ToolCall {
                tool_name: "ask_confirm".into(),
                tool_call_id: mint(ASK_PREFIX),
                args: json!({}),
                ask: None,
                allowed_by: None,
                model_call_id: Some("call_3".into()),
                client_tool: false,
            },
        ];
        let mut ids = CallIds::taken_by(rows.iter(), &[]);
        assert_ne!(ids.ours("call_3"), "call_3", "an ask's model id is taken as well");
        assert_eq!(ids.ours("call_2"), "call_2");
        assert_eq!(ids.ours("call_2"), "call_2", "its pieces and its call share it");
        let reused = ids.ours("call_1");
        assert!(reused.starts_with("call_") && reused != "call_1", "{reused}");
        let missing = ids.ours("");
        assert!(missing.starts_with("call_") && missing.len() > 10);
        let first = call("dup");
        let first_id = ids.for_call(&first, &[]);
        let twice = ids.for_call(&call("dup"), &[ToolCall { id: first_id.clone(), ..first }]);
        assert_ne!(twice, first_id, "one id twice in a step gets two");
    }
}
