//! API errors as the spec's JSON: `{status, title, detail}`.

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use app::error::AppError;

#[derive(Debug)]
pub struct Problem {
    pub status: StatusCode,
    pub title: String,
    pub detail: Option<String>,
    /// Seconds a client should wait before trying again (429).
    pub retry_after: Option<u64>,
}

impl Problem {
    pub fn new(status: StatusCode, title: impl Into<String>) -> Self {
        Self { status, title: title.into(), detail: None, retry_after: None }
    }

    pub fn bad_request(title: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, title)
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

impl From<AppError> for Problem {
    fn from(err: AppError) -> Self {
        let status = StatusCode::from_u16(err.status_code()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let retry_after = match &err {
            AppError::TooManyRequests { retry_after_secs, .. } => Some(*retry_after_secs),
            _ => None,
        };
        Problem { retry_after, ..Problem::new(status, err.to_string()) }
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let mut body = json!({"status": self.status.as_u16(), "title": self.title});
        if let Some(detail) = self.detail {
            body["detail"] = detail.into();
        }
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}
