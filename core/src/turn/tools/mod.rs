//! Host tools: tools the model calls that run on the server, some only after the user
//! approves. Ships the demo todo tools the spec's examples use (`todos`, their rows in `store`);
//! MCP servers' tools come in through the same trait, from a [`ToolSource`] (`crate::mcp`).

pub mod call_keys;
pub mod input;
pub mod question;
mod store;
mod todos;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use crate::db::Pool;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

use crate::llm::{ContentPart, ModelMessage};
use palaver_wire::impact::{Impact, ToolHints};

use todos::{AddTodo, CompleteTodo, DeleteCompletedTodos, ListTodos, ScheduleReminder};

/// What a tool run knows about its call.
#[derive(Clone)]
pub struct ToolContext {
    pub pool: Pool,
    pub user_id: String,
    pub history_id: String,
    /// `<turnId>:<toolCallId>`: the same call never runs twice under one key.
    pub idempotency_key: String,
    /// Where the tool sends a question for the user while it runs; the turn asks it.
    pub questions: Option<mpsc::Sender<PendingQuestion>>,
    /// For a call sent again after it needed input: the person's answers.
    pub answers: Option<input::InputAnswers>,
    /// Where the tool tells the turn what happens while it runs.
    pub news: Option<mpsc::Sender<CallNews>>,
}

/// What a running call tells its turn.
pub enum CallNews {
    /// What it is doing now, shown live. Advisory: one is dropped while the turn is busy.
    Status(String),
    /// Its server runs it as a task (MCP's tasks extension): the turn stores the task with its
    /// draft, so that a restart picks it up, and says so on `stored` before the task is followed.
    Task { task_id: String, stored: oneshot::Sender<()> },
}

/// A tool's question on its way to the user, and where the answer goes.
pub struct PendingQuestion {
    pub question: question::ToolQuestion,
    pub reply: oneshot::Sender<question::QuestionAnswer>,
    /// How long the call can wait on the answer: the ask expires then (sooner when asks
    /// expire sooner), and the call ends.
    pub answer_within: Duration,
}

/// What a tool gives back: the JSON result (stored and shown), and parts only the model sees
/// on this turn (an image, say), which are never stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolOutput {
    pub result: Value,
    pub parts: Vec<ContentPart>,
}

impl From<Value> for ToolOutput {
    fn from(result: Value) -> Self {
        ToolOutput { result, parts: Vec::new() }
    }
}

impl ToolOutput {
    /// The output as the model sees it: the result, then the parts.
    pub fn message(self, call_id: &str, tool_name: &str) -> ModelMessage {
        ModelMessage::Tool {
            tool_call_id: call_id.to_string(),
            tool_name: tool_name.to_string(),
            result: self.result,
            parts: self.parts,
        }
    }
}

/// How a run ends well: with its output, or needing the person's input before it can finish
/// (the turn asks, then runs the call again with the answers).
#[derive(Clone, Debug, PartialEq)]
pub enum ToolReply {
    Done(ToolOutput),
    NeedsInput(input::InputRequired),
}

impl From<Value> for ToolReply {
    fn from(result: Value) -> Self {
        ToolReply::Done(result.into())
    }
}

impl From<ToolOutput> for ToolReply {
    fn from(output: ToolOutput) -> Self {
        ToolReply::Done(output)
    }
}

pub type ToolRun = BoxFuture<'static, Result<ToolReply, String>>;

/// What a guarded tool's side-effect-free check found, before its approval is asked and again
/// just before the approved call runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Preflight {
    /// The call can go ahead. `fingerprint` names what was checked: when the second check
    /// finds it changed, the approval is stale and the call does not run. `impact` is what
    /// the approver is told the call will do.
    Ready { fingerprint: Option<String>, impact: Option<Impact> },
    /// The call must not run: no card, and the model is told why.
    Denied { reason: String },
    /// Nothing to approve: this is the call's result.
    Completed { output: ToolOutput },
}

pub type PreflightRun = BoxFuture<'static, Result<Preflight, String>>;

/// The schema keyword that marks an input property only the person may supply: the model is
/// offered the tool without it, and the person is asked (`turn::arguments`).
pub const PERSON_ONLY: &str = "x-palaver-person-only";

pub trait HostTool: Send + Sync {
    fn name(&self) -> &str;
    /// The title a person reads the tool by, when it has one (else its name in words).
    fn title(&self) -> Option<String> {
        None
    }
    fn description(&self) -> &str;
    /// The JSON Schema of the tool's input.
    fn input_schema(&self) -> Value;
    /// The confirm ask input to approve this call with, or `None` when it runs without approval.
    fn approval(&self, _input: &Value) -> Option<Value> {
        None
    }
    /// The tool's check before its approval (see [`Preflight`]); `None`: it has none.
    fn preflight(&self, _context: ToolContext, _input: &Value) -> Option<PreflightRun> {
        None
    }
    /// Whether the user may allow this tool's calls for a conversation or for good (when its
    /// approval is not destructive); false when every call must be approved.
    fn grantable(&self) -> bool {
        true
    }
    /// Whether the tool takes arguments its input schema does not name (see [`call_keys`]):
    /// not when the schema is closed (`additionalProperties: false`).
    fn takes_unnamed_arguments(&self) -> bool {
        self.input_schema().get("additionalProperties") != Some(&Value::Bool(false))
    }
    /// How the tool's MCP server describes it (its annotations), for a server's tool.
    fn hints(&self) -> Option<ToolHints> {
        None
    }
    /// Whether the tool links an MCP App, which is drawn for its calls (an MCP server's tool).
    fn links_app(&self) -> bool {
        false
    }
    /// The MCP server the tool is on (its name in Palaver's configuration), for a server's tool.
    fn server(&self) -> Option<&str> {
        None
    }
    /// Lets go of what the tool's server holds for a call whose input will never come (the
    /// question ended unanswered): a task that waits on it is cancelled.
    fn abandon(&self, _input: &input::InputRequired) {}
    /// Runs the tool; an `Err` is reported to the model as the tool's error. Dropping the
    /// future (the user stopped the turn) abandons the call.
    fn execute(&self, context: ToolContext, input: Value) -> ToolRun;
}

/// Host tools that come and go while Palaver runs (an MCP server's, once it connects): each
/// turn takes those there are when it starts.
pub trait ToolSource: Send + Sync {
    fn tools(&self) -> Vec<Arc<dyn HostTool>>;
}

/// The host tools a server offers, by name.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn HostTool>>,
}

impl ToolRegistry {
    /// Adds a tool. Names starting with `ask_` belong to the ask tools, and a name already
    /// taken stays with its first tool: both are refused.
    pub fn insert(&mut self, tool: Arc<dyn HostTool>) -> Result<(), String> {
        let name = tool.name().to_string();
        if name.starts_with("ask_") {
            return Err(format!("The host tool name \"{name}\" is reserved: ask_ names belong to asks."));
        }
        if self.tools.contains_key(&name) {
            return Err(format!("There is a host tool named \"{name}\" already."));
        }
        self.tools.insert(name, tool);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn HostTool>> {
        self.tools.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn HostTool>> {
        self.tools.values()
    }

    /// The demo todo tools.
    pub fn demo_todos() -> Self {
        let tools: [Arc<dyn HostTool>; 5] = [
            Arc::new(ListTodos),
            Arc::new(AddTodo),
            Arc::new(CompleteTodo),
            Arc::new(DeleteCompletedTodos),
            Arc::new(ScheduleReminder),
        ];
        let mut registry = Self::default();
        for tool in tools {
            registry.insert(tool).expect("the demo tools' names are neither ask_ names nor repeated");
        }
        registry
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    struct Impostor;

    impl HostTool for Impostor {
        fn name(&self) -> &str {
            "ask_choice"
        }
        fn description(&self) -> &str {
            "Pretends to be an ask."
        }
        fn input_schema(&self) -> Value {
            json!({})
        }
        fn execute(&self, _context: ToolContext, _input: Value) -> ToolRun {
            Box::pin(async { Ok(json!({}).into()) })
        }
    }

    #[test]
    fn ask_names_are_reserved_and_the_demo_tools_are_all_there() {
        assert!(ToolRegistry::default().insert(Arc::new(Impostor)).is_err());
        assert!(ToolRegistry::demo_todos().insert(Arc::new(todos::ListTodos)).is_err(), "a name is taken once");
        let demo = ToolRegistry::demo_todos();
        let names: Vec<&str> = demo.iter().map(|tool| tool.name()).collect();
        assert_eq!(names, ["addTodo", "completeTodo", "deleteCompletedTodos", "listTodos", "scheduleReminder"]);
    }

    #[test]
    fn a_closed_schema_takes_no_unnamed_arguments() {
        let delete = ToolRegistry::demo_todos().get("deleteCompletedTodos").cloned().unwrap();
        assert!(!delete.takes_unnamed_arguments(), "the demo tools' schemas are closed");
        assert_eq!(call_keys::refused_keys(delete.as_ref(), &json!({"everything": true})), ["everything"]);
        assert!(Impostor.takes_unnamed_arguments(), "an open schema takes them (flagged on its approval)");
        assert!(call_keys::refused_keys(&Impostor, &json!({"anything": 1})).is_empty());
    }
}
