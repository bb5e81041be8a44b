//! A call's arguments against its tool's input schema. A key the schema's `properties` do not
//! name is *unnamed*. A tool whose schema is closed (`additionalProperties: false`) does not
//! take unnamed keys, and neither does an MCP server's tool, whatever its schema says: a server
//! may ignore a key it does not know (server-filesystem does), so a call the person approved
//! could do something other than what its unnamed keys suggest. Such a call is refused before
//! anything is asked or run, and the model is told which keys and what the tool takes. Where a
//! tool does take them, its approval shows them flagged and offers no grant.

use serde_json::{Value, json};

use super::HostTool;
use palaver_wire::body::CallArgument;
use palaver_wire::grants::ArgumentKind;

/// The keys the schema names, in its order: its `required` names as it lists them, then its
/// other `properties`. (Palaver reads JSON objects into sorted maps, so the order a server
/// wrote its properties in is not kept; its `required` list is.)
fn schema_order(schema: &Value) -> Vec<&str> {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    let required = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
    let mut order: Vec<&str> = Vec::new();
    for key in required.chain(properties.keys().map(String::as_str)) {
        if properties.contains_key(key) && !order.contains(&key) {
            order.push(key);
        }
    }
    order
}

/// The keys of `input` the schema does not name.
pub fn unnamed_keys(schema: &Value, input: &Value) -> Vec<String> {
    let Some(arguments) = input.as_object() else { return Vec::new() };
    let named = schema.get("properties").and_then(Value::as_object);
    arguments.keys().filter(|key| named.is_none_or(|named| !named.contains_key(*key))).cloned().collect()
}

/// The keys of `input` that `tool` does not take: its call is refused when there are any.
pub fn refused_keys(tool: &dyn HostTool, input: &Value) -> Vec<String> {
    if tool.takes_unnamed_arguments() { Vec::new() } else { unnamed_keys(&tool.input_schema(), input) }
}

/// Every argument of the call: those the schema names, in its order, then the others, flagged.
pub fn shown_arguments(schema: &Value, input: &Value) -> Vec<CallArgument> {
    let Some(arguments) = input.as_object() else { return Vec::new() };
    let named = schema_order(schema);
    let in_schema = named.iter().filter_map(|key| Some((*key, arguments.get(*key)?, false)));
    let outside = arguments
        .iter()
        .filter(|(key, _)| !named.contains(&key.as_str()))
        .map(|(key, value)| (key.as_str(), value, true));
    in_schema
        .chain(outside)
        .map(|(key, value, outside_schema)| {
            let property = &schema["properties"][key];
            let choices = property["enum"].as_array().cloned().unwrap_or_default();
            let kind = Some(ArgumentKind::of(key, property));
            CallArgument { key: key.to_string(), value: value.clone(), outside_schema, kind, choices }
        })
        .collect()
}

/// The result of a call refused for arguments its tool does not take: what the model is told.
pub fn refused_result(tool: &str, refused: &[String], schema: &Value) -> Value {
    let quoted = |keys: &[&str]| keys.iter().map(|key| format!("\"{key}\"")).collect::<Vec<_>>().join(", ");
    let refused: Vec<&str> = refused.iter().map(String::as_str).collect();
    let takes = schema_order(schema);
    let takes_line = if takes.is_empty() {
        "It takes no arguments.".to_string()
    } else {
        format!("It takes only {}.", quoted(&takes))
    };
    json!({
        "error": format!(
            "The call was not run: {tool} does not take {}. {takes_line} Call it again with only the arguments it takes.",
            quoted(&refused)
        ),
        "reason": "unknown_arguments",
        "unknownArguments": refused,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_file_schema() -> Value {
        json!({
            "type": "object",
            "properties": {"content": {"type": "string"}, "path": {"type": "string"}},
            "required": ["path", "content"],
        })
    }

    /// Six made-up keys that sort before `content` and `path`, as the red team sent them.
    fn hidden_keys_call() -> Value {
        json!({
            "aa_note": "harmless", "ab_mode": "append", "ac_backup": true, "ad_target": "/tmp/x",
            "ae_encoding": "utf-8", "af_dry_run": true,
            "content": "payload", "path": "/home/alice/.bashrc",
        })
    }

    #[test]
    fn the_schema_keys_come_first_in_its_order_then_every_other_key_flagged() {
        let shown = shown_arguments(&write_file_schema(), &hidden_keys_call());
        let keys: Vec<(&str, bool)> =
            shown.iter().map(|argument| (argument.key.as_str(), argument.outside_schema)).collect();
        assert_eq!(
            keys,
            [
                ("path", false),
                ("content", false),
                ("aa_note", true),
                ("ab_mode", true),
                ("ac_backup", true),
                ("ad_target", true),
                ("ae_encoding", true),
                ("af_dry_run", true),
            ]
        );
        assert_eq!(shown[0].value, json!("/home/alice/.bashrc"), "values are kept whole");
    }

    #[test]
    fn a_key_is_named_only_by_the_schemas_properties() {
        let schema = json!({"properties": {"path": {}}, "required": ["path", "ghost"]});
        assert_eq!(unnamed_keys(&schema, &json!({"path": "a", "ghost": 1})), ["ghost"]);
        assert_eq!(unnamed_keys(&json!({"type": "object"}), &json!({"any": 1})), ["any"]);
        assert!(unnamed_keys(&schema, &Value::Null).is_empty());
        let order: Vec<String> = shown_arguments(&schema, &json!({"path": "a"})).into_iter().map(|a| a.key).collect();
        assert_eq!(order, ["path"], "a named key the call leaves out is not shown");
    }

    #[test]
    fn the_refusal_tells_the_model_what_to_leave_out_and_what_the_tool_takes() {
        let result = refused_result("files__write_file", &["aa_note".into(), "ab_mode".into()], &write_file_schema());
        assert_eq!(result["reason"], "unknown_arguments");
        assert_eq!(result["unknownArguments"], json!(["aa_note", "ab_mode"]));
        assert_eq!(
            result["error"],
            "The call was not run: files__write_file does not take \"aa_note\", \"ab_mode\". \
             It takes only \"path\", \"content\". Call it again with only the arguments it takes."
        );
        let none = refused_result("t", &["x".into()], &json!({"type": "object"}));
        assert!(none["error"].as_str().unwrap().contains("It takes no arguments."), "{none}");
    }
}
