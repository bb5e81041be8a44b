//! Tools a client offers for one turn (an AG-UI app's own tools, which run in the app): the
//! model is offered them beside Palaver's. A call to one is streamed and stored like any call,
//! marked as the client's, and the turn ends with its step; the call stays open until the
//! client sends its result, and a turn goes on from that (`TurnInput::ToolResults`). What a
//! turn does with them is in `client_calls`.

mod store;

use serde_json::Value;

use super::tools::ToolRegistry;
use crate::error::{AppError, AppResult};
use palaver_wire::conversation::model::HistoryRow;
pub(super) use store::append_client_results;

/// A tool the client runs: its name, what it does, and its arguments' JSON Schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientTool {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// What the client's run of a call gave.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientResult {
    pub call_id: String,
    pub result: Value,
}

/// A call of a client's tool with no result yet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpenCall<'r> {
    pub id: &'r str,
    pub name: &'r str,
    pub args: &'r Value,
}

/// The most tools a client may offer a turn.
const MAX_CLIENT_TOOLS: usize = 64;

/// The longest description and parameters schema (as JSON text) a client's tool may have: they
/// go to the model on every step.
const MAX_DESCRIPTION: usize = 2_000;
const MAX_PARAMETERS: usize = 16 * 1024;

/// The calls of the client's tools in `rows` that have no result row.
pub fn open_calls(rows: &[HistoryRow]) -> Vec<OpenCall<'_>> {
    rows.iter()
        .filter_map(|row| match row {
            HistoryRow::ToolCall { tool_name, tool_call_id, args, client_tool: true, .. } => {
                Some(OpenCall { id: tool_call_id, name: tool_name, args })
            }
            _ => None,
        })
        .filter(|call| {
            !rows
                .iter()
                .any(|row| matches!(row, HistoryRow::ToolResult { tool_call_id, .. } if tool_call_id == call.id))
        })
        .collect()
}

/// The rows that answer open calls with the client's results; `None` when one of the results
/// is for no open call (answered already, or never the client's).
pub fn result_rows(rows: &[HistoryRow], results: &[ClientResult]) -> Option<Vec<HistoryRow>> {
    let open = open_calls(rows);
    results
        .iter()
        .map(|result| {
            let call = open.iter().find(|call| call.id == result.call_id)?;
            Some(HistoryRow::ToolResult {
                tool_name: call.name.to_string(),
                tool_call_id: call.id.to_string(),
                result: result.result.clone(),
                model_call_id: None,
            })
        })
        .collect()
}

/// Whether `id` is a call of a client's tool in `rows` that has its result.
pub fn answered(rows: &[HistoryRow], id: &str) -> bool {
    let called = rows
        .iter()
        .any(|row| matches!(row, HistoryRow::ToolCall { tool_call_id, client_tool: true, .. } if tool_call_id == id));
    called && open_calls(rows).iter().all(|call| call.id != id)
}

/// Refuses client tools the model could not be offered: a name that is not 1 to 64 letters,
/// digits, `_` or `-` (what providers take), one given twice, or one of Palaver's own; and
/// parameters that are not a JSON Schema object, or a description or schema past its size.
pub fn check(tools: &[ClientTool], own: &ToolRegistry) -> AppResult<()> {
    if tools.len() > MAX_CLIENT_TOOLS {
        return Err(AppError::BadRequest(format!("At most {MAX_CLIENT_TOOLS} client tools can be offered.")).into());
    }
    for (index, tool) in tools.iter().enumerate() {
        let name = &tool.name;
        let well_formed = !name.is_empty()
            && name.len() <= 64
            && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-'));
        let problem = if !well_formed {
            Some("must be 1 to 64 letters, digits, '_' or '-'")
        } else if tools[..index].iter().any(|earlier| earlier.name == *name) {
            Some("is offered twice")
        } else if name.starts_with("ask_") || own.get(name).is_some() {
            Some("is the name of one of Palaver's own tools")
        } else if tool.description.chars().count() > MAX_DESCRIPTION {
            Some("has a description longer than 2,000 characters")
        } else if !tool.parameters.is_object() || tool.parameters.get("type").is_some_and(|kind| kind != "object") {
            Some("has parameters that are not a JSON Schema of an object")
        } else if tool.parameters.to_string().len() > MAX_PARAMETERS {
            Some("has a parameters schema larger than 16 KiB")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(AppError::BadRequest(format!("The client tool \"{name}\" {problem}.")).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(id: &str, client_tool: bool) -> HistoryRow {
        HistoryRow::ToolCall {
            tool_name: "pick_colour".into(),
            tool_call_id: id.into(),
            args: json!({"of": "sky"}),
            ask: None,
            allowed_by: None,
            model_call_id: None,
            client_tool,
        }
    }

    fn result(id: &str) -> HistoryRow {
        HistoryRow::ToolResult {
            tool_name: "pick_colour".into(),
            tool_call_id: id.into(),
            result: json!("blue"),
            model_call_id: None,
        }
    }

    #[test]
    fn a_client_call_is_open_until_its_result_row() {
        let rows = [call("c1", true), result("c1"), call("c2", true), call("h1", false)];
        let open: Vec<&str> = open_calls(&rows).iter().map(|call| call.id).collect();
        assert_eq!(open, ["c2"]);
        assert!(answered(&rows, "c1"));
        assert!(!answered(&rows, "c2"));
        assert!(!answered(&rows, "h1"), "a host tool's call is not the client's");
    }

    #[test]
    fn client_tools_palaver_cannot_offer_are_refused_by_name() {
        let tool = |name: &str| ClientTool { name: name.into(), description: String::new(), parameters: json!({}) };
        let own = ToolRegistry::demo_todos();
        assert!(check(&[tool("pick_colour"), tool("confirm-order")], &own).is_ok());
        for (tools, says) in [
            (vec![tool("has space")], "must be 1 to 64"),
            (vec![tool("a"), tool("a")], "offered twice"),
            (vec![tool("ask_choice")], "Palaver's own"),
            (vec![tool("addTodo")], "Palaver's own"),
            (vec![ClientTool { parameters: json!(true), ..tool("pick") }], "not a JSON Schema of an object"),
            (
                vec![ClientTool { parameters: json!({"type": "string"}), ..tool("pick") }],
                "not a JSON Schema of an object",
            ),
            (vec![ClientTool { description: "x".repeat(2_001), ..tool("pick") }], "longer than 2,000"),
        ] {
            let refused = check(&tools, &own).unwrap_err().kind().to_string();
            assert!(refused.contains(says), "{refused}");
        }
    }
}
