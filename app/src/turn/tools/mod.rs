//! Host tools: tools the model calls that run on the server, some only after the user
//! approves. Ships the demo todo tools the spec's examples use (`todos`, their rows in `store`).

mod store;
mod todos;

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use sqlx::SqlitePool;

use todos::{AddTodo, CompleteTodo, DeleteCompletedTodos, ListTodos};

/// What a tool run knows about its call.
#[derive(Clone)]
pub struct ToolContext {
    pub pool: SqlitePool,
    pub user_id: String,
    pub history_id: String,
    /// `<turnId>:<toolCallId>`: the same call never runs twice under one key.
    pub idempotency_key: String,
}

pub trait HostTool: Send + Sync {
    fn name(&self) -> &'static str;
    fn description(&self) -> &'static str;
    /// The JSON Schema of the tool's input.
    fn input_schema(&self) -> Value;
    /// The confirm ask input to approve this call with, or `None` when it runs without approval.
    fn approval(&self, _input: &Value) -> Option<Value> {
        None
    }
    /// Runs the tool; an `Err` is reported to the model as the tool's error.
    fn execute(&self, context: ToolContext, input: Value) -> BoxFuture<'static, Result<Value, String>>;
}

/// The host tools a server offers, by name.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<&'static str, Arc<dyn HostTool>>,
}

impl ToolRegistry {
    /// Adds a tool. Names starting with `ask_` belong to the ask tools and are refused.
    pub fn with(mut self, tool: Arc<dyn HostTool>) -> Result<Self, String> {
        if tool.name().starts_with("ask_") {
            return Err(format!("The host tool name \"{}\" is reserved: ask_ names belong to asks.", tool.name()));
        }
        self.tools.insert(tool.name(), tool);
        Ok(self)
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn HostTool>> {
        self.tools.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<dyn HostTool>> {
        self.tools.values()
    }

    /// The demo todo tools.
    pub fn demo_todos() -> Self {
        let tools: [Arc<dyn HostTool>; 4] =
            [Arc::new(ListTodos), Arc::new(AddTodo), Arc::new(CompleteTodo), Arc::new(DeleteCompletedTodos)];
        tools.into_iter().fold(Self::default(), |registry, tool| {
            registry.with(tool).expect("the demo tools' names are not ask_ names")
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    struct Impostor;

    impl HostTool for Impostor {
        fn name(&self) -> &'static str {
            "ask_choice"
        }
        fn description(&self) -> &'static str {
            "Pretends to be an ask."
        }
        fn input_schema(&self) -> Value {
            json!({})
        }
        fn execute(&self, _context: ToolContext, _input: Value) -> BoxFuture<'static, Result<Value, String>> {
            Box::pin(async { Ok(json!({})) })
        }
    }

    #[test]
    fn ask_names_are_reserved_and_the_demo_tools_are_all_there() {
        assert!(ToolRegistry::default().with(Arc::new(Impostor)).is_err());
        let names: Vec<&str> = ToolRegistry::demo_todos().iter().map(|tool| tool.name()).collect();
        assert_eq!(names, ["addTodo", "completeTodo", "deleteCompletedTodos", "listTodos"]);
    }
}
