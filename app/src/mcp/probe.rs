//! `palaver mcp try`: connects to one MCP server as the chat does, lists its tools and calls
//! each with sample arguments read off its input schema, answering any question the server
//! asks the way a user who accepts each form as filled in would. For checking a server before
//! adding it to the configuration (and for the MCP conformance suite's client scenarios).

use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::McpHub;
use super::config::{McpConfig, ServerConfig};
use crate::turn::tools::{HostTool, PendingQuestion, ToolContext};
use crate::wire::McpServerState;

/// How long a server has to connect.
const CONNECT_WAIT: Duration = Duration::from_secs(30);

/// Sample arguments for a tool: a value of the right type for each required property.
fn sample_arguments(schema: &Value) -> Value {
    let properties = schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let required = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    let arguments: Map<String, Value> = required
        .iter()
        .filter_map(Value::as_str)
        .map(|name| {
            let property = properties.get(name).cloned().unwrap_or_default();
            let value = if let Some(default) = property.get("default") {
                default.clone()
            } else if let Some(first) = property.get("enum").and_then(|values| values.get(0)) {
                first.clone()
            } else {
                match property.get("type").and_then(Value::as_str) {
                    Some("number" | "integer") => json!(1),
                    Some("boolean") => json!(true),
                    Some("array") => json!([]),
                    Some("object") => json!({}),
                    _ => json!("palaver"),
                }
            };
            (name.to_string(), value)
        })
        .collect();
    Value::Object(arguments)
}

/// Connects, calls every tool, and prints what happened; `Err` when the server never connects.
pub async fn try_server(server: ServerConfig) -> Result<(), String> {
    let name = server.name.clone();
    let hub = McpHub::start(McpConfig { servers: vec![server], problems: Vec::new() });
    let started = std::time::Instant::now();
    loop {
        let status = hub.status().servers.remove(0);
        match status.state {
            McpServerState::Connected => break,
            _ if started.elapsed() > CONNECT_WAIT => {
                hub.shut_down().await;
                return Err(status.last_error.unwrap_or_else(|| format!("\"{name}\" did not connect.")));
            }
            _ => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    // MCP tools never touch Palaver's database; the context needs one all the same.
    let pool = crate::db::detached().map_err(|err| err.to_string())?;
    for tool in hub.mcp_tools() {
        let arguments = sample_arguments(&tool.input_schema());
        println!("call {} {arguments}", tool.mcp_name());
        let (questions, mut asked) = mpsc::channel::<PendingQuestion>(1);
        let context = ToolContext {
            pool: pool.clone(),
            user_id: String::new(),
            history_id: String::new(),
            idempotency_key: String::new(),
            questions: Some(questions),
        };
        let run = tool.execute(context, arguments);
        tokio::pin!(run);
        let output = loop {
            tokio::select! {
                output = &mut run => break output,
                Some(pending) = asked.recv() => {
                    let answer = pending.question.answer_as_filled_in();
                    println!("  answered the server's question: {}", answer.action());
                    let _ = pending.reply.send(answer);
                }
            }
        };
        match output {
            Ok(output) => println!("  {}", output.result),
            Err(error) => println!("  error: {error}"),
        }
    }
    hub.shut_down().await;
    Ok(())
}
