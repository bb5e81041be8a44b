//! What the runner tests share: a runner on a temporary SQLite database with the scripted
//! mock model, driven through its public surface (start, its event stream, the stop switch).
#![allow(dead_code)] // Each test file uses its own part of this.

use std::path::PathBuf;
use std::sync::Arc;

use palaver_core::db::Pool;
use palaver_core::error::{AppError, Error};
use serde_json::{Value, json};

use futures::stream::BoxStream;
use palaver_contract::asks::AskSurface;
use palaver_core::accounts::auth::{Caller, CallerVia};
use palaver_core::conversation::running::RunningTurns;
use palaver_core::conversation::store::load_history;
use palaver_core::llm::{ChatModel, MockModel, ModelEvent, ModelRequest};
use palaver_core::turn::store::pending_ask;
use palaver_core::turn::{TurnDependencies, TurnInput, TurnRequest, TurnRunner, TurnSettings};
use palaver_wire::accounts::Role;
use palaver_wire::conversation::model::{HistoryRow, TurnEvent};

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub pool: Pool,
    pub runner: TurnRunner,
    pub running: RunningTurns,
    pub caller: Caller,
}

pub async fn harness(responses: Value) -> Harness {
    harness_with(responses, TurnSettings::default()).await
}

/// A harness whose runner has these settings; the model logs each request it gets
/// (`Harness::model_requests`).
pub async fn harness_with(responses: Value, settings: TurnSettings) -> Harness {
    harness_of(json!({ "responses": responses }), settings, TurnDependencies::default()).await
}

/// A harness whose runner works with these tools (its own, or an MCP server's).
pub async fn harness_using(responses: Value, dependencies: TurnDependencies) -> Harness {
    harness_of(json!({ "responses": responses }), TurnSettings::default(), dependencies).await
}

/// A harness on a whole mock script (its `title`, say).
pub async fn harness_of(script: Value, settings: TurnSettings, dependencies: TurnDependencies) -> Harness {
    harness_of_model("mock", script, settings, dependencies).await
}

/// A harness whose one model is the mock under another id (an image model's, say).
pub async fn harness_named(model_id: &str, responses: Value) -> Harness {
    let script = json!({ "responses": responses });
    harness_of_model(model_id, script, TurnSettings::default(), TurnDependencies::default()).await
}

/// The scripted mock, known by the id a test gives it.
struct Named {
    id: String,
    mock: MockModel,
}

impl ChatModel for Named {
    fn name(&self) -> &str {
        &self.id
    }

    fn stream(&self, request: ModelRequest) -> BoxStream<'static, ModelEvent> {
        self.mock.stream(request)
    }
}

async fn harness_of_model(
    model_id: &str,
    script: Value,
    settings: TurnSettings,
    dependencies: TurnDependencies,
) -> Harness {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = palaver_core::db::scratch_url(dir.path()).await.expect("a scratch database");
    let pool = palaver_core::db::connect(&url).await.expect("database");
    let log = Some(dir.path().join("model-requests.jsonl"));
    let mock = MockModel::from_json(&script.to_string(), log).expect("script");
    let model = Named { id: model_id.to_string(), mock };
    let running = RunningTurns::new(
        pool.clone(),
        palaver_core::signals::Signals::local(),
        palaver_core::conversation::running::DEFAULT_LEASE,
    );
    let models = palaver_core::llm::Models::single(Arc::new(model));
    let runner = TurnRunner::new(pool.clone(), models, settings, dependencies, running.clone());
    let user = palaver_core::accounts::service::create_account(&pool, "ada", "correct horse battery", Role::User)
        .await
        .expect("account");
    Harness { dir, pool, runner, running, caller: Caller { user, via: CallerVia::Session } }
}

impl Harness {
    /// A turn for the harness's user on the full surface.
    pub fn request(&self, history_id: Option<&str>, input: TurnInput) -> TurnRequest {
        TurnRequest::plain(self.caller.clone(), history_id.map(str::to_string), input, AskSurface::Full)
    }

    /// Runs a turn to its end and returns its events.
    pub async fn turn(&self, history_id: Option<&str>, input: TurnInput) -> Vec<TurnEvent> {
        self.turn_as(&self.caller, history_id, input).await
    }

    /// Runs a turn of `caller`'s to its end and returns its events.
    pub async fn turn_as(&self, caller: &Caller, history_id: Option<&str>, input: TurnInput) -> Vec<TurnEvent> {
        self.run(TurnRequest { caller: caller.clone(), ..self.request(history_id, input) }).await
    }

    /// Runs a request to its end and returns its events.
    pub async fn run(&self, request: TurnRequest) -> Vec<TurnEvent> {
        run_on(&self.runner, request).await
    }

    /// A runner on the harness's database as a restarted process has it: nothing in memory,
    /// a model scripted with `responses`, and these tools.
    pub fn restarted(&self, responses: Value, dependencies: TurnDependencies) -> TurnRunner {
        let model = MockModel::from_json(&json!({ "responses": responses }).to_string(), None).unwrap();
        TurnRunner::new(
            self.pool.clone(),
            palaver_core::llm::Models::single(Arc::new(model)),
            TurnSettings::default(),
            dependencies,
            RunningTurns::new(
                self.pool.clone(),
                palaver_core::signals::Signals::local(),
                palaver_core::conversation::running::DEFAULT_LEASE,
            ),
        )
    }

    pub async fn prompt(&self, history_id: Option<&str>, text: &str) -> (String, Vec<TurnEvent>) {
        let events = self.turn(history_id, TurnInput::Prompt(text.into())).await;
        (history_of(&events), events)
    }

    pub async fn answer(&self, history_id: &str, tool_call_id: &str, response: Value) -> Vec<TurnEvent> {
        self.turn(Some(history_id), TurnInput::Answer { tool_call_id: tool_call_id.into(), response }).await
    }

    /// Answers, and runs the turn that resumes to its end; the error when the answer is refused.
    pub async fn try_answer(&self, history_id: &str, tool_call_id: &str, response: Value) -> Result<(), AppError> {
        let input = TurnInput::Answer { tool_call_id: tool_call_id.into(), response };
        let mut handle = self.runner.start(self.request(Some(history_id), input)).await.map_err(Error::into_kind)?;
        while handle.events.recv().await.is_some() {}
        Ok(())
    }

    /// Another account, signed in: a second person on the same runner.
    pub async fn another_user(&self, name: &str) -> Caller {
        let user =
            palaver_core::accounts::service::create_account(&self.pool, name, "correct horse battery", Role::User)
                .await
                .expect("account");
        Caller { user, via: CallerVia::Session }
    }

    pub async fn rows(&self, history_id: &str) -> Vec<HistoryRow> {
        load_history(&self.pool, history_id).await.expect("load").expect("the conversation").rows
    }

    pub async fn pending(&self, history_id: &str) -> Option<String> {
        pending_ask(&self.pool, history_id).await.expect("pending ask").map(|pending| pending.ask.tool_call_id)
    }

    /// Gives the harness's user a completed todo, so `deleteCompletedTodos` has one to delete
    /// (with none, its check completes the call without asking).
    pub async fn seed_completed_todo(&self, title: &str) {
        sqlx::query("INSERT INTO todos (id, owner_id, title, completed) VALUES ($1, $2, $1, 1)")
            .bind(title)
            .bind(&self.caller.user.id)
            .execute(&self.pool)
            .await
            .expect("a todo");
    }

    /// The requests the model got, in order (as the mock logs them: system, messages, tools).
    pub fn model_requests(&self) -> Vec<Value> {
        let path: PathBuf = self.dir.path().join("model-requests.jsonl");
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).expect("a logged request is JSON"))
            .collect()
    }
}

pub fn history_of(events: &[TurnEvent]) -> String {
    match events.last() {
        Some(TurnEvent::Done { history_id, .. }) => history_id.clone(),
        other => panic!("a turn ends with done, not {other:?}"),
    }
}

/// Runs a request on `runner` to its end and returns its events.
pub async fn run_on(runner: &TurnRunner, request: TurnRequest) -> Vec<TurnEvent> {
    let mut handle = runner.start(request).await.expect("the turn starts");
    let mut events = Vec::new();
    while let Some(event) = handle.events.recv().await {
        events.push(event);
    }
    events
}

pub fn asked(events: &[TurnEvent]) -> Option<String> {
    events.iter().find_map(|event| match event {
        TurnEvent::Ask { ask, .. } => Some(ask.tool_call_id.clone()),
        _ => None,
    })
}

pub fn resolved(events: &[TurnEvent]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::AskResolved { ask_resolved } => {
                Some((ask_resolved.tool_call_id.clone(), ask_resolved.action.clone()))
            }
            _ => None,
        })
        .collect()
}

pub fn text(events: &[TurnEvent]) -> String {
    events
        .iter()
        .filter_map(|event| match event {
            TurnEvent::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// The result a turn reported for the tool call `id`.
pub fn tool_result(events: &[TurnEvent], id: &str) -> Option<Value> {
    events.iter().find_map(|event| match event {
        TurnEvent::ToolResult { tool_result } if tool_result.tool_call_id == id => Some(tool_result.result.clone()),
        _ => None,
    })
}
