//! Shared test harness: a real SQLite database in a temp folder, the mock model, and the router.

#![allow(dead_code)]

use std::path::PathBuf;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use leptos::prelude::LeptosOptions;
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

pub struct TestApp {
    pub router: Router,
    pub dir: TempDir,
    pub pool: sqlx::SqlitePool,
}

impl TestApp {
    /// A fresh app whose model follows `script` (the mock model's JSON format).
    pub async fn with_mock(script: &str) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let script_path = dir.path().join("mock.json");
        std::fs::write(&script_path, script).expect("write the mock script");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("test.db").display());
        let pool = app::db::connect(&url).await.expect("database");
        let model = app::llm::model_from_spec(
            &format!("mock:{}", script_path.display()),
            Some(dir.path().join("mock-log.jsonl")),
        )
        .expect("mock model");
        let options = LeptosOptions::builder().output_name("palaver").build();
        let router = server::router(server::app_state(options, pool.clone(), model));
        Self { router, dir, pool }
    }

    pub fn mock_log(&self) -> Vec<Value> {
        let path: PathBuf = self.dir.path().join("mock-log.jsonl");
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).expect("log line is JSON"))
            .collect()
    }

    pub async fn request(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, String, Option<String>) {
        let mut builder = Request::builder().method(method).uri(uri);
        let body = match body {
            Some(json) => {
                builder = builder.header(header::CONTENT_TYPE, "application/json");
                Body::from(json.to_string())
            }
            None => Body::empty(),
        };
        let response = self.router.clone().oneshot(builder.body(body).unwrap()).await.expect("response");
        let status = response.status();
        let content_type =
            response.headers().get(header::CONTENT_TYPE).map(|value| value.to_str().unwrap().to_string());
        let bytes = response.into_body().collect().await.expect("body").to_bytes();
        (status, String::from_utf8(bytes.to_vec()).expect("utf-8 body"), content_type)
    }

    pub async fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, text, _) = self.request(method, uri, body).await;
        (status, serde_json::from_str(&text).unwrap_or_else(|_| panic!("JSON body, got {text}")))
    }

    /// Posts to `/gpt/prompt` and returns the streamed events.
    pub async fn prompt(&self, body: Value) -> Vec<Value> {
        let (status, text, content_type) = self.request("POST", "/gpt/prompt", Some(body)).await;
        assert_eq!(status, StatusCode::OK, "{text}");
        assert_eq!(content_type.as_deref(), Some("text/event-stream"));
        sse_events(&text)
    }
}

pub fn sse_events(text: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter_map(|block| block.lines().find_map(|line| line.strip_prefix("data: ")))
        .map(|data| serde_json::from_str(data).expect("event is JSON"))
        .collect()
}

/// The text of a turn's `{text}` events, joined.
pub fn streamed_text(events: &[Value]) -> String {
    events.iter().filter_map(|event| event["text"].as_str()).collect()
}
