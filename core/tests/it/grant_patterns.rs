//! Grants narrower than a tool, on the runner: a grant by argument pattern covers the calls
//! that match it and no other, a grant that ran out stops covering between two calls, a turn
//! grant ends with its turn, and a grant the answer asks for is refused when it does not cover
//! the call approved, lasts too long or uses a pattern its argument cannot take.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use crate::common::{Harness, asked, harness_using};
use palaver_core::error::AppError;
use palaver_core::turn::TurnDependencies;
use palaver_core::turn::tools::{HostTool, ToolContext, ToolRun};
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};
use palaver_wire::grants::{AllowedBy, GrantScope};

/// Writes a file: approved, and grantable.
struct WriteFile {
    runs: Arc<AtomicUsize>,
}

impl HostTool for WriteFile {
    fn name(&self) -> &str {
        "write_file"
    }
    fn description(&self) -> &str {
        "Write a file."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "additionalProperties": false,
               "properties": {"path": {"type": "string"}, "content": {"type": "string"}}})
    }
    fn approval(&self, input: &Value) -> Option<Value> {
        Some(json!({"prompt": format!("Write {}?", input["path"].as_str().unwrap_or_default())}))
    }
    fn execute(&self, _context: ToolContext, input: Value) -> ToolRun {
        let runs = self.runs.clone();
        Box::pin(async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok(json!({"written": input["path"]}).into())
        })
    }
}

pub(crate) fn write(id: &str, path: &str) -> Value {
    json!({"toolCalls": [{"id": id, "name": "write_file", "input": {"path": path, "content": "x"}}]})
}

pub(crate) async fn with_write_file(responses: Value) -> (Harness, Arc<AtomicUsize>) {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut dependencies = TurnDependencies::default();
    dependencies.tools.insert(Arc::new(WriteFile { runs: runs.clone() })).expect("a free tool name");
    (harness_using(responses, dependencies).await, runs)
}

fn approve_with(grant: Value) -> Value {
    json!({"action": "accept", "content": {"confirmed": true}, "grant": grant})
}

/// Under `data/shared/`, any content, in this conversation.
fn shared_folder_grant(scope: &str) -> Value {
    json!({"scope": scope, "lifetimeSeconds": 3600, "arguments": {
        "path": {"match": "under", "path": "data/shared/"}, "content": {"match": "any"}}})
}

fn allowed_by(rows: &[HistoryRow], call: &str) -> Option<AllowedBy> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolCall { tool_call_id, allowed_by, .. } if tool_call_id == call => allowed_by.clone(),
        _ => None,
    })
}

#[tokio::test]
async fn a_pattern_grant_covers_the_calls_that_match_it_and_no_other() {
    let done = json!({"text": "Written."});
    let (h, runs) = with_write_file(json!([
        write("c1", "data/shared/a.txt"),
        done,
        write("c2", "data/shared/notes/b.txt"),
        done,
        write("c3", "data/private/c.txt"),
    ]))
    .await;
    let (history, events) = h.prompt(None, "Write a").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("conversation"))).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);

    let (_, events) = h.prompt(Some(&history), "Write b").await;
    assert_eq!(asked(&events), None, "in the folder: no card");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    let Some(AllowedBy::Patterns { scope, arguments }) = allowed_by(&h.rows(&history).await, "c2") else {
        panic!("the row says which grant ran it");
    };
    assert_eq!(scope, GrantScope::Conversation);
    assert_eq!(palaver_wire::grants::patterns_words(&arguments), "path in data/shared/ or below");

    let (_, events) = h.prompt(Some(&history), "Write c").await;
    assert!(asked(&events).is_some(), "outside the folder: asked");
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    let grants = palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap();
    assert_eq!((grants.len(), grants[0].uses), (1, 1), "one grant, one call run under it");
    assert!(grants[0].expires.is_some(), "it runs out");
}

#[tokio::test]
async fn a_path_that_climbs_out_of_the_folder_is_asked_about() {
    let (h, runs) = with_write_file(json!([
        write("c1", "data/shared/a.txt"), {"text": "Written."},
        write("c2", "data/shared/../private/b.txt"),
    ]))
    .await;
    let (history, events) = h.prompt(None, "Write a").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("always"))).await.unwrap();
    let (_, events) = h.prompt(Some(&history), "Write b").await;
    assert!(asked(&events).is_some(), "`..` is never covered");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_grant_that_ran_out_stops_covering_between_two_calls() {
    let done = json!({"text": "Written."});
    let (h, runs) = with_write_file(json!([
        write("c1", "data/shared/a.txt"),
        done,
        write("c2", "data/shared/b.txt"),
        done,
        write("c3", "data/shared/c.txt"),
    ]))
    .await;
    let (history, events) = h.prompt(None, "Write a").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("conversation"))).await.unwrap();
    let (_, events) = h.prompt(Some(&history), "Write b").await;
    assert_eq!(asked(&events), None, "still live");
    // Its hour is over.
    sqlx::query("UPDATE approval_grants SET expires_at = '2000-01-01T00:00:00.000Z'").execute(&h.pool).await.unwrap();
    let (_, events) = h.prompt(Some(&history), "Write c").await;
    assert!(asked(&events).is_some(), "ran out: asked");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
    assert!(palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap().is_empty(), "not listed");
}

#[tokio::test]
async fn a_turn_grant_ends_with_its_turn() {
    let (h, runs) = with_write_file(json!([
        write("c1", "data/shared/a.txt"),
        write("c2", "data/shared/b.txt"), {"text": "Both written."},
        write("c3", "data/shared/c.txt"),
    ]))
    .await;
    let (history, events) = h.prompt(None, "Write two files").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("turn"))).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 2, "the same turn's next call ran under the grant");
    assert_eq!(h.pending(&history).await, None);
    assert!(palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap().is_empty(), "over");
    let (_, events) = h.prompt(Some(&history), "Write c").await;
    assert!(asked(&events).is_some(), "the next turn asks again");
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_turn_grant_lives_through_its_turns_next_question_and_ends_with_the_turn() {
    let question = json!({"toolCalls": [{"id": "q1", "name": "ask_choice", "input": {
        "prompt": "Which file next?", "select": "one",
        "options": [{"id": "c", "label": "c.txt"}, {"id": "d", "label": "d.txt"}]}}]});
    let (h, runs) = with_write_file(json!([
        write("c1", "data/shared/a.txt"),
        question,
        write("c2", "data/shared/c.txt"), {"text": "Both written."},
        {"text": "Hello again."},
    ]))
    .await;
    let (history, events) = h.prompt(None, "Write two files").await;
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("turn"))).await.unwrap();
    let question = h.pending(&history).await.expect("the turn asks which file next");
    assert_eq!(palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap().len(), 1, "still live");
    h.try_answer(&history, &question, json!({"action": "accept", "content": {"selected": ["c"]}})).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 2, "the call after the question ran under the turn's grant");
    assert_eq!(h.pending(&history).await, None);
    assert!(palaver_core::grants::store::list(&h.pool, &h.caller.user.id).await.unwrap().is_empty(), "over");
    // A prompt where no turn grant lives has none to end, and the conversation goes on.
    let (_, events) = h.prompt(Some(&history), "Hi").await;
    assert!(events.iter().any(|event| matches!(event, TurnEvent::Done { .. })), "{events:?}");
}

#[tokio::test]
async fn a_grant_that_misses_the_call_lasts_too_long_or_does_not_fit_is_refused() {
    let (h, runs) = with_write_file(json!([write("c1", "data/shared/a.txt"), {"text": "Written."}])).await;
    let (history, events) = h.prompt(None, "Write a").await;
    let ask = asked(&events).unwrap();
    let refused = |grant: Value| {
        let (h, history, ask) = (&h, history.clone(), ask.clone());
        async move {
            match h.try_answer(&history, &ask, approve_with(grant)).await {
                Err(AppError::InvalidAnswer { fields }) => (fields[0].code.clone(), fields[0].path.clone()),
                other => panic!("refused, not {other:?}"),
            }
        }
    };
    let elsewhere = json!({"scope": "always", "arguments": {
        "path": {"match": "under", "path": "data/private/"}, "content": {"match": "any"}}});
    assert_eq!(refused(elsewhere).await, ("GRANT_MISSES_CALL".into(), "grant.arguments".into()));
    let forever = json!({"scope": "always", "lifetimeSeconds": 99_999_999});
    assert_eq!(refused(forever).await, ("GRANT_LIFETIME".into(), "grant.lifetimeSeconds".into()));
    let escaping = json!({"scope": "always", "arguments": {
        "path": {"match": "under", "path": "data/../"}, "content": {"match": "any"}}});
    assert_eq!(refused(escaping).await, ("GRANT_PATTERN".into(), "grant.arguments.path".into()));
    let unknown = json!({"scope": "always", "arguments": {"mode": {"match": "any"}}});
    assert_eq!(refused(unknown).await, ("GRANT_ARGUMENT_UNKNOWN".into(), "grant.arguments.mode".into()));
    assert_eq!(refused(json!("forever")).await.0, "GRANT_UNKNOWN");
    assert_eq!(runs.load(Ordering::SeqCst), 0, "nothing ran");
    // The ask still waits, and a grant that fits is taken.
    h.try_answer(&history, &ask, approve_with(shared_folder_grant("always"))).await.unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_tool_an_admin_lists_never_offers_a_grant_and_its_grants_stop_covering() {
    let done = json!({"text": "Written."});
    let (h, runs) =
        with_write_file(json!([write("c1", "data/shared/a.txt"), done, write("c2", "data/shared/b.txt"),])).await;
    let (history, events) = h.prompt(None, "Write a").await;
    assert!(events.iter().any(|e| matches!(e, TurnEvent::Ask { ask, .. } if ask.grantable)), "offered at first");
    h.try_answer(&history, &asked(&events).unwrap(), approve_with(shared_folder_grant("always"))).await.unwrap();
    h.runner.preferences().save_ungranted_tools(&[" write_file ".into(), String::new()]).await.unwrap();
    let (_, events) = h.prompt(Some(&history), "Write b").await;
    let offered = events.iter().find_map(|e| match e {
        TurnEvent::Ask { ask, .. } => Some(ask.grantable),
        _ => None,
    });
    assert_eq!(offered, Some(false), "asked, with no grant offered, though a grant exists");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let refused = h.try_answer(&history, &asked(&events).unwrap(), approve_with(json!("conversation"))).await;
    assert!(matches!(refused, Err(AppError::InvalidAnswer { fields }) if fields[0].code == "GRANT_NOT_OFFERED"));
    let odd = h.runner.preferences().save_ungranted_tools(&["two words".into()]).await;
    assert!(odd.unwrap_err().to_string().contains("“two words” is not a tool name"));
}
