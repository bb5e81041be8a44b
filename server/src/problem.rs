//! API errors as the spec's JSON: `{status, title, detail}`. A service's error becomes one
//! without side effects; its cause rides on the response to [`crate::observe::observe`], which
//! logs it once with the request's id.

use std::sync::Arc;

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use palaver_wire::error::AppError;

#[derive(Debug)]
pub struct Problem {
    pub status: StatusCode,
    pub title: String,
    pub detail: Option<String>,
    /// Seconds a client should wait before trying again (429).
    pub retry_after: Option<u64>,
    /// The field errors of an invalid answer.
    /// (Boxed: a problem is every route's error, and stays small.)
    pub fields: Option<Box<Value>>,
    /// A machine-readable code (the headless routes' `code`).
    pub code: Option<&'static str>,
    /// Put `fields` under `meta` (the headless routes) rather than at the top level.
    pub fields_in_meta: bool,
    /// The service's error behind it, for the log.
    pub cause: Option<Arc<palaver_core::error::Error>>,
}

/// A service's error on its way to the log, in the response's extensions.
#[derive(Clone)]
pub struct Cause(pub Arc<palaver_core::error::Error>);

impl Problem {
    pub fn new(status: StatusCode, title: impl Into<String>) -> Self {
        Self {
            status,
            title: title.into(),
            detail: None,
            retry_after: None,
            fields: None,
            code: None,
            fields_in_meta: false,
            cause: None,
        }
    }

    pub fn bad_request(title: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, title)
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// With the title as its detail when it has none, as the reference answers every refusal
    /// of `POST /gpt/prompt` (its `detail ?? message`, which is the title).
    pub fn or_title_as_detail(mut self) -> Self {
        if self.detail.is_none() {
            self.detail = Some(self.title.clone());
        }
        self
    }

    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    pub fn with_fields(mut self, fields: Value) -> Self {
        self.fields = Some(Box::new(fields));
        self
    }

    /// As the headless routes send it: `fields` under `meta`.
    pub fn fields_in_meta(mut self) -> Self {
        self.fields_in_meta = true;
        self
    }
}

impl From<AppError> for Problem {
    fn from(err: AppError) -> Self {
        let status = StatusCode::from_u16(err.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let problem = Problem::new(status, err.to_string());
        match err {
            AppError::TooManyRequests { retry_after_secs, .. } => {
                Problem { retry_after: Some(retry_after_secs), ..problem }
            }
            AppError::StaleAsk { tool_call_id } => {
                problem.with_detail(format!("Tool call {tool_call_id} is not the ask this conversation is waiting on."))
            }
            AppError::ExpiredAsk { tool_call_id, expires_at } => problem.with_code("ASK_EXPIRED").with_detail(format!(
                "Tool call {tool_call_id} expired unanswered at {expires_at}, so nothing was done. Send a new message to go on."
            )),
            AppError::InvalidAnswer { fields } => problem
                .with_detail("The answer does not match the ask. See fields.")
                .with_fields(serde_json::to_value(fields).unwrap_or_default()),
            _ => problem,
        }
    }
}

impl From<palaver_core::error::Error> for Problem {
    fn from(err: palaver_core::error::Error) -> Self {
        let err = Arc::new(err);
        Problem { cause: Some(err.clone()), ..Problem::from(err.kind().clone()) }
    }
}

/// A problem as the API sends it (the reference's `APIError`).
#[derive(Serialize, ToSchema)]
pub struct ProblemBody {
    /// The HTTP status, again.
    status: u16,
    /// What went wrong, in one line (the spec's title for each case).
    title: String,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    /// A machine-readable code (`UNKNOWN_BUTTON`, `ASK_EXPIRED`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'static str>,
    /// The field errors of an invalid answer (Palaver's routes).
    #[serde(skip_serializing_if = "Option::is_none")]
    fields: Option<Value>,
    /// The field errors as the headless routes send them: `{fields}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    meta: Option<Value>,
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let (fields, meta) = match (self.fields.map(|fields| *fields), self.fields_in_meta) {
            (Some(fields), true) => (None, Some(json!({"fields": fields}))),
            (fields, _) => (fields, None),
        };
        let body = ProblemBody {
            status: self.status.as_u16(),
            title: self.title,
            detail: self.detail,
            code: self.code,
            fields,
            meta,
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        if let Some(cause) = self.cause {
            response.extensions_mut().insert(Cause(cause));
        }
        response
    }
}

/// Where the JSON API's routes are (every one in the route table but the pages a mail's links
/// open, and no other page or server function).
const API_PREFIXES: [&str; 12] = [
    "/gpt/",
    "/apps/",
    "/agui",
    "/auth/",
    "/admin/",
    "/files/",
    "/push/",
    "/shared/",
    "/webhooks",
    "/mail/settings",
    "/health",
    "/openapi.json",
];

/// Whether `path` is the JSON API's: its errors are problems.
pub fn is_api_path(path: &str) -> bool {
    API_PREFIXES.iter().any(|prefix| path.starts_with(prefix))
}

/// An error response something below the handlers made in plain text (a body over the size
/// limit, a malformed multipart body, a path that does not parse) in the API's JSON shape,
/// its text as the detail. Pages and server functions keep their own.
pub async fn plain_errors_as_problems(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let api = is_api_path(request.uri().path());
    let response = next.run(request).await;
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/plain"));
    if !api || !plain || !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let status = response.status();
    let detail = match axum::body::to_bytes(response.into_body(), PLAIN_ERROR_MAX_BYTES).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let title = status.canonical_reason().unwrap_or("Error");
    let problem = Problem::new(status, title);
    if detail.is_empty() { problem } else { problem.with_detail(detail) }.into_response()
}

/// The most of a plain-text error body kept as a problem's detail.
const PLAIN_ERROR_MAX_BYTES: usize = 16 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_of_the_table_and_nothing_else_is_the_apis() {
        for route in crate::api_route_table() {
            let link_page = crate::auth::is_mail_link_page(&route.path);
            assert!(is_api_path(&route.path) != link_page, "{} is an API route or a mail link's page", route.path);
        }
        for (function, _) in crate::SERVER_FN_ACCESS {
            assert!(!is_api_path(function), "{function} is a server function");
        }
        for page in ["/", "/c/abc", "/s/abc", "/login", "/settings", "/watch", "/storybook", "/pkg/palaver.wasm"] {
            assert!(!is_api_path(page), "{page} is a page");
        }
    }
}
