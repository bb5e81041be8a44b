//! One error type for server functions and the HTTP API.

use leptos::server_fn::codec::JsonEncoding;
use leptos::server_fn::error::{FromServerFnError, ServerFnErrorErr};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    /// No session or bearer token, or one that is no longer valid.
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    /// Too many attempts; the client may try again after `retry_after_secs`.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_secs: u64 },
    /// Details are logged where the error happens; clients only learn that something failed.
    #[error("Something went wrong on the server. Please try again.")]
    Internal,
    #[error("{0}")]
    ServerFn(String),
}

impl AppError {
    pub fn status_code(&self) -> u16 {
        match self {
            AppError::BadRequest(_) => 400,
            AppError::Unauthorized(_) => 401,
            AppError::Forbidden(_) => 403,
            AppError::NotFound(_) => 404,
            AppError::Conflict(_) => 409,
            AppError::TooManyRequests { .. } => 429,
            AppError::Internal | AppError::ServerFn(_) => 500,
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::ServerFn(value.to_string())
    }
}

#[cfg(feature = "ssr")]
impl From<sqlx::Error> for AppError {
    fn from(err: sqlx::Error) -> Self {
        tracing::error!(%err, "database error");
        AppError::Internal
    }
}

pub type AppResult<T> = Result<T, AppError>;
