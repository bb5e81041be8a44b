//! `palaver mcp try`: connects to one MCP server as the chat does and lists its tools. It is
//! safe to point at a server one does not know: by default it calls only the tools the server
//! marks read-only (`readOnlyHint: true`), with sample arguments read off their input schemas,
//! and declines any question the server asks. `--call-all` calls every tool, and
//! `--answer-defaults` answers each question the way a user who accepts each form as filled in
//! would (what the MCP conformance suite's client scenarios need). For checking a server before
//! adding it to the configuration.

use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use super::McpHub;
use super::config::{McpConfig, ServerConfig};
use super::tool::McpTool;
use crate::turn::tools::input::{InputAnswers, MAX_INPUT_ROUNDS};
use crate::turn::tools::question::{QuestionAnswer, ToolQuestion};
use crate::turn::tools::{HostTool, PendingQuestion, ToolContext, ToolReply};
use palaver_wire::body::McpServerState;

/// What `palaver mcp try` may do beyond listing the tools and calling the read-only ones.
#[derive(Clone, Copy, Debug, Default)]
pub struct TryOptions {
    /// Call every tool, also those that may change things.
    pub call_all: bool,
    /// Answer the server's questions with their defaults (else they are declined).
    pub answer_defaults: bool,
}

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

/// Connects, lists the tools, calls those `options` allow and prints what happened; `Err`
/// when the server never connects.
pub async fn try_server(server: ServerConfig, options: TryOptions) -> Result<(), String> {
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
    if options.call_all {
        eprintln!(
            "warning: --call-all calls every tool with made-up arguments, also those that may write, delete or send."
        );
    }
    let tools: Vec<McpTool> = hub.mcp_tools().collect();
    let names: Vec<&str> = tools.iter().map(McpTool::mcp_name).collect();
    println!("tools: {}", names.join(", "));
    let (called, skipped): (Vec<&McpTool>, Vec<&McpTool>) =
        tools.iter().partition(|tool| options.call_all || tool.read_only());
    // MCP tools never touch Palaver's database; the context needs one all the same.
    let pool = crate::db::detached().map_err(|err| err.to_string())?;
    for tool in called {
        call(tool, &pool, options).await;
    }
    if !skipped.is_empty() {
        let names: Vec<&str> = skipped.iter().map(|tool| tool.mcp_name()).collect();
        println!(
            "skipped (not marked read-only, so they may change things; --call-all calls them): {}",
            names.join(", ")
        );
    }
    hub.shut_down().await;
    Ok(())
}

/// Calls `tool` with sample arguments, answering or declining its questions (asked while it
/// runs, or as input it requires before it finishes), and prints what came back.
async fn call(tool: &McpTool, pool: &crate::db::Pool, options: TryOptions) {
    let arguments = sample_arguments(&tool.input_schema());
    println!("call {} {arguments}", tool.mcp_name());
    let mut answers = None;
    for _ in 0..=MAX_INPUT_ROUNDS {
        let (questions, mut asked) = mpsc::channel::<PendingQuestion>(1);
        let context = ToolContext {
            pool: pool.clone(),
            user_id: String::new(),
            history_id: String::new(),
            idempotency_key: String::new(),
            questions: Some(questions),
            answers: answers.take(),
            news: None,
        };
        let run = tool.execute(context, arguments.clone());
        tokio::pin!(run);
        let reply = loop {
            tokio::select! {
                reply = &mut run => break reply,
                Some(pending) = asked.recv() => {
                    let answer = answer(&pending.question, options);
                    println!("  the server asked a question: {}", answer.action());
                    let _ = pending.reply.send(answer);
                }
            }
        };
        match reply {
            Ok(ToolReply::Done(output)) => return println!("  {}", output.result),
            Ok(ToolReply::NeedsInput(input)) => {
                let mut responses = Map::new();
                for (key, request) in &input.requests {
                    let answer = match ToolQuestion::input_request(tool.server().unwrap_or_default(), request) {
                        Ok(question) => answer(&question, options),
                        Err(problem) => return println!("  error: {problem}"),
                    };
                    println!("  the server needs input ({key}): {}", answer.action());
                    responses.insert(key.clone(), answer.elicit_result());
                }
                answers = Some(InputAnswers { responses, request_state: input.request_state, task_id: input.task_id });
            }
            Err(error) => return println!("  error: {error}"),
        }
    }
    println!("  error: the server still needed input after {MAX_INPUT_ROUNDS} rounds");
}

/// The answer `palaver mcp try` gives a question: as it is filled in, or declined.
fn answer(question: &ToolQuestion, options: TryOptions) -> QuestionAnswer {
    if options.answer_defaults { question.answer_as_filled_in() } else { QuestionAnswer::Decline }
}
