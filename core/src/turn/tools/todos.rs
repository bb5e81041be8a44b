//! The demo todo tools the spec's examples use; deleting completed todos needs approval, and a
//! reminder's time is one only the person may give (an argument ask).

use crate::db::Pool;
use serde_json::{Value, json};

use super::{HostTool, Preflight, PreflightRun, ToolContext, ToolRun, store};
use palaver_wire::impact::{Impact, Undo};

fn strict_object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "additionalProperties": false, "properties": properties, "required": required})
}

fn database_error(err: sqlx::Error) -> String {
    tracing::error!(%err, "todo tool failed");
    "The todo list could not be reached.".to_string()
}

async fn todos(pool: &Pool, user_id: &str) -> Result<Value, String> {
    let rows = store::list(pool, user_id).await.map_err(database_error)?;
    Ok(json!(
        rows.into_iter()
            .map(|(id, title, completed)| json!({"id": id, "title": title, "completed": completed}))
            .collect::<Vec<_>>()
    ))
}

pub struct ListTodos;

impl HostTool for ListTodos {
    fn name(&self) -> &str {
        "listTodos"
    }
    fn description(&self) -> &str {
        "List the signed-in user's todos."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({}), &[])
    }
    fn execute(&self, context: ToolContext, _input: Value) -> ToolRun {
        Box::pin(async move { Ok(json!({"todos": todos(&context.pool, &context.user_id).await?}).into()) })
    }
}

pub struct AddTodo;

impl HostTool for AddTodo {
    fn name(&self) -> &str {
        "addTodo"
    }
    fn description(&self) -> &str {
        "Add a todo to the signed-in user's list."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({"title": {"type": "string", "minLength": 1, "maxLength": 200}}), &["title"])
    }
    fn execute(&self, context: ToolContext, input: Value) -> ToolRun {
        Box::pin(async move {
            let title = input["title"]
                .as_str()
                .map(str::trim)
                .filter(|title| !title.is_empty())
                .ok_or("addTodo needs a title.")?;
            let id = add_todo(&context, title).await?;
            Ok(json!({"todo": {"id": id, "title": title, "completed": false}}).into())
        })
    }
}

/// Adds a todo whose id is the call's idempotency key, so a replayed call adds nothing twice.
async fn add_todo(context: &ToolContext, title: &str) -> Result<String, String> {
    let id =
        format!("todo_{}", crate::accounts::auth::secret_hash(&context.idempotency_key).get(..24).unwrap_or_default());
    store::add(&context.pool, &id, &context.user_id, title).await.map_err(database_error)?;
    Ok(id)
}

pub struct ScheduleReminder;

impl HostTool for ScheduleReminder {
    fn name(&self) -> &str {
        "scheduleReminder"
    }
    fn description(&self) -> &str {
        "Put a reminder on the signed-in user's todo list. The user gives its time."
    }
    fn input_schema(&self) -> Value {
        strict_object(
            json!({
                "title": {"type": "string", "minLength": 1, "maxLength": 160, "description": "What to be reminded of"},
                "time": {
                    "type": "string",
                    "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$",
                    "description": "When to remind you, as HH:mm on a 24-hour clock (such as 09:30)",
                    super::PERSON_ONLY: true,
                },
            }),
            &["title", "time"],
        )
    }
    fn execute(&self, context: ToolContext, input: Value) -> ToolRun {
        Box::pin(async move {
            let title = input["title"].as_str().map(str::trim).filter(|title| !title.is_empty());
            let (Some(title), Some(time)) = (title, input["time"].as_str()) else {
                return Err("scheduleReminder needs a title and a time.".to_string());
            };
            let todo = format!("{title} (at {time})");
            let id = add_todo(&context, &todo).await?;
            Ok(json!({"reminder": {"id": id, "title": title, "time": time}}).into())
        })
    }
}

pub struct CompleteTodo;

impl HostTool for CompleteTodo {
    fn name(&self) -> &str {
        "completeTodo"
    }
    fn description(&self) -> &str {
        "Mark one of the signed-in user's todos as done."
    }
    fn input_schema(&self) -> Value {
        strict_object(json!({"id": {"type": "string", "minLength": 1}}), &["id"])
    }
    fn execute(&self, context: ToolContext, input: Value) -> ToolRun {
        Box::pin(async move {
            let id = input["id"].as_str().ok_or("completeTodo needs an id.")?.to_string();
            if !store::complete(&context.pool, &id, &context.user_id).await.map_err(database_error)? {
                return Err(format!("There is no todo with the id \"{id}\"."));
            }
            Ok(json!({"completed": id}).into())
        })
    }
}

pub struct DeleteCompletedTodos;

impl HostTool for DeleteCompletedTodos {
    fn name(&self) -> &str {
        "deleteCompletedTodos"
    }
    fn description(&self) -> &str {
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
    /// No completed todos: nothing to delete, so nothing to approve. Otherwise the check names
    /// the completed todos, so an approval given for others is stale.
    fn preflight(&self, context: ToolContext, _input: &Value) -> Option<PreflightRun> {
        Some(Box::pin(async move {
            let todos = store::list(&context.pool, &context.user_id).await.map_err(database_error)?;
            let mut completed: Vec<(String, String)> =
                todos.into_iter().filter(|(_, _, completed)| *completed).map(|(id, title, _)| (id, title)).collect();
            if completed.is_empty() {
                return Ok(Preflight::Completed { output: json!({"deleted": 0}).into() });
            }
            completed.sort();
            let ids: Vec<&str> = completed.iter().map(|(id, _)| id.as_str()).collect();
            let impact =
                Impact { summary: Some(deletion_summary(&completed)), undo: Some(Undo::Impossible), cost: None };
            Ok(Preflight::Ready { fingerprint: Some(ids.join(",")), impact: Some(impact) })
        }))
    }
    fn execute(&self, context: ToolContext, _input: Value) -> ToolRun {
        Box::pin(async move {
            let deleted = store::delete_completed(&context.pool, &context.user_id).await.map_err(database_error)?;
            Ok(json!({"deleted": deleted}).into())
        })
    }
}

/// What deleting these completed todos (`(id, title)`) does, in a sentence that names the first
/// few.
fn deletion_summary(completed: &[(String, String)]) -> String {
    const NAMED: usize = 3;
    let named: Vec<String> = completed.iter().take(NAMED).map(|(_, title)| format!("“{title}”")).collect();
    let rest = completed.len().saturating_sub(NAMED);
    let more = if rest > 0 { format!(" and {rest} more") } else { String::new() };
    match completed.len() {
        1 => format!("Deletes 1 completed todo: {}.", named.join(", ")),
        count => format!("Deletes {count} completed todos: {}{more}.", named.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_the_first_todos_and_counts_the_rest() {
        let todos = |count: usize| (0..count).map(|n| (n.to_string(), format!("todo {n}"))).collect::<Vec<_>>();
        assert_eq!(deletion_summary(&todos(1)), "Deletes 1 completed todo: “todo 0”.");
        assert_eq!(deletion_summary(&todos(5)), "Deletes 5 completed todos: “todo 0”, “todo 1”, “todo 2” and 2 more.");
    }
}
