//! The keyless demo agent drives every ask kind and the approval, over the real HTTP API.

use crate::common::{TestApp, streamed_text};
use palaver_wire::accounts::Role;
use serde_json::json;

#[tokio::test]
async fn the_demo_asks_and_reads_the_answer() {
    let app = TestApp::with_demo().await;
    let ada = app.user("ada", Role::User).await;
    let turn = app.prompt(&ada, json!({"prompt": "Set up billing for my team"})).await;
    let ask = turn.iter().find(|event| event.get("ask").is_some()).expect("the demo asks");
    assert_eq!(ask["ask"]["kind"], "choice");
    let history = ask["historyId"].clone();
    let tool_call_id = ask["ask"]["toolCallId"].clone();
    let answer = json!({"historyId": history, "askResponse": {"toolCallId": tool_call_id, "action": "accept", "content": {"selected": ["team"]}}});
    let reply = app.prompt(&ada, answer).await;
    assert_eq!(streamed_text(&reply), "You chose **Team**. Done!");
}

#[tokio::test]
async fn the_demo_todos_need_approval_to_delete() {
    let app = TestApp::with_demo().await;
    let ada = app.user("ada", Role::User).await;
    let added = app.prompt(&ada, json!({"prompt": "add todo water the plants"})).await;
    assert_eq!(streamed_text(&added), "Added **water the plants** to your todos.");
    let history = added.last().unwrap()["historyId"].clone();
    sqlx::query("UPDATE todos SET completed = 1").execute(&app.pool).await.unwrap();

    let turn = app.prompt(&ada, json!({"prompt": "delete my completed todos", "historyId": history})).await;
    let ask = turn.iter().find(|event| event.get("ask").is_some()).expect("an approval");
    assert_eq!(ask["ask"]["origin"], "approval");
    let body = json!({"historyId": history, "askResponse": {"toolCallId": ask["ask"]["toolCallId"], "action": "accept", "content": {"confirmed": true}}});
    let done = app.prompt(&ada, body).await;
    assert_eq!(streamed_text(&done), "Deleted 1 completed todo(s).");
    let list = app.prompt(&ada, json!({"prompt": "list my todos", "historyId": history})).await;
    assert_eq!(streamed_text(&list), "Your todo list is empty. Try **add todo buy milk**.");
}
