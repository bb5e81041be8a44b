//! Host tools: tools the model calls that run on the server, some only after the user
//! approves. Ships the demo todo tools the spec's examples use.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use sqlx::SqlitePool;

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

fn strict_object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": properties, "required": required})
}

fn database_error(err: sqlx::Error) -> String {
    tracing::error!(%err, "todo tool failed");
    "The todo list could not be reached.".to_string()
}

async fn todos(pool: &SqlitePool, user_id: &str) -> Result<Value, String> {
    let rows: Vec<(String, String, bool)> =
        sqlx::query_as("SELECT id, title, completed FROM todos WHERE owner_id = ?1 ORDER BY created_at, id")
            .bind(user_id)
            .fetch_all(pool)
            .await
            .map_err(database_error)?;
    Ok(json!(
        rows.into_iter()
            .map(|(id, title, completed)| json!({"id": id, "title": title, "completed": completed}))
            .collect::<Vec<_>>()
    ))
}

struct ListTodos;

impl HostTool for ListTodos {
    fn name(&self) -> &'static str {
        "listTodos"
    }
    fn description(&self) -> &'static str {
        "List the signed-in user's todos."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({}), &[])
    }
    fn execute(&self, context: ToolContext, _input: Value) -> BoxFuture<'static, Result<Value, String>> {
        Box::pin(async move { Ok(json!({"todos": todos(&context.pool, &context.user_id).await?})) })
    }
}

struct AddTodo;

impl HostTool for AddTodo {
    fn name(&self) -> &'static str {
        "addTodo"
    }
    fn description(&self) -> &'static str {
        "Add a todo to the signed-in user's list."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({"title": {"type": "string", "minLength": 1, "maxLength": 200}}), &["title"])
    }
    fn execute(&self, context: ToolContext, input: Value) -> BoxFuture<'static, Result<Value, String>> {
        Box::pin(async move {
            let title = input["title"]
                .as_str()
                .map(str::trim)
                .filter(|title| !title.is_empty())
                .ok_or("addTodo needs a title.")?;
            // The idempotency key is the id, so a replayed call adds nothing twice.
            let id = format!(
                "todo_{}",
                crate::accounts::auth::secret_hash(&context.idempotency_key).get(..24).unwrap_or_default()
            );
            sqlx::query("INSERT OR IGNORE INTO todos (id, owner_id, title) VALUES (?1, ?2, ?3)")
                .bind(&id)
                .bind(&context.user_id)
                .bind(title)
                .execute(&context.pool)
                .await
                .map_err(database_error)?;
            Ok(json!({"todo": {"id": id, "title": title, "completed": false}}))
        })
    }
}

struct CompleteTodo;

impl HostTool for CompleteTodo {
    fn name(&self) -> &'static str {
        "completeTodo"
    }
    fn description(&self) -> &'static str {
        "Mark one of the signed-in user's todos as done."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({"id": {"type": "string", "minLength": 1}}), &["id"])
    }
    fn execute(&self, context: ToolContext, input: Value) -> BoxFuture<'static, Result<Value, String>> {
        Box::pin(async move {
            let id = input["id"].as_str().ok_or("completeTodo needs an id.")?.to_string();
            let done = sqlx::query("UPDATE todos SET completed = 1 WHERE id = ?1 AND owner_id = ?2")
                .bind(&id)
                .bind(&context.user_id)
                .execute(&context.pool)
                .await
                .map_err(database_error)?;
            if done.rows_affected() == 0 {
                return Err(format!("There is no todo with the id \"{id}\"."));
            }
            Ok(json!({"completed": id}))
        })
    }
}

pub struct DeleteCompletedTodos;

impl HostTool for DeleteCompletedTodos {
    fn name(&self) -> &'static str {
        "deleteCompletedTodos"
    }
    fn description(&self) -> &'static str {
        "Delete all of the signed-in user's completed todos."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({}), &[])
    }
    fn approval(&self, _input: &Value) -> Option<Value> {
        Some(json!({
            "confirmLabel": "Delete",
            "denyLabel": "Keep them",
            "destructive": true,
            "prompt": "Delete all of your completed todos? You can't undo this.",
        }))
    }
    fn execute(&self, context: ToolContext, _input: Value) -> BoxFuture<'static, Result<Value, String>> {
        Box::pin(async move {
            let deleted = sqlx::query("DELETE FROM todos WHERE owner_id = ?1 AND completed = 1")
                .bind(&context.user_id)
                .execute(&context.pool)
                .await
                .map_err(database_error)?;
            Ok(json!({"deleted": deleted.rows_affected()}))
        })
    }
}

#[cfg(test)]
mod tests {
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
