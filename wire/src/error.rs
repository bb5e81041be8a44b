//! The kinds of error a client is told: the HTTP API's problem bodies and the server
//! functions' errors carry one. What caused it stays on the server (`palaver_core::error::Error`).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum AppError {
    #[error("{0}")]
    BadRequest(String),
    /// No session or bearer token, or one that is no longer valid.
    #[error("{0}")]
    Unauthorized(String),
    /// The conversation does not exist, or is deleted.
    #[error("History not found")]
    HistoryNotFound,
    /// Someone else's conversation (or, for an admin, one they may read but not change).
    #[error("Not authorized to access this history")]
    NotHistoryOwner,
    #[error("Sign-up is closed. Ask an admin for an account.")]
    SignUpClosed,
    #[error("That username is taken.")]
    UsernameTaken,
    #[error("Token not found")]
    TokenNotFound,
    /// A request authenticated by an API token asked for another token: tokens are made from a
    /// signed-in session, so none outlives what it was made with.
    #[error("An API token cannot create API tokens. Create them in Settings, signed in with your password.")]
    TokenCannotMakeTokens,
    /// No live grant of the caller's by that id (never given, or revoked already).
    #[error("Grant not found")]
    GrantNotFound,
    #[error("Only admins can do this.")]
    AdminsOnly,
    /// The account is disabled by an admin (told only after a right password).
    #[error("This account is disabled. Ask an admin to enable it.")]
    AccountDisabled,
    #[error("User not found")]
    UserNotFound,
    /// A regenerate or edit while a reply runs on the conversation.
    #[error("A reply is running on this conversation: stop it, or wait for it, first.")]
    ReplyRunning,
    /// A regenerate or edit on a conversation with no message of the user's.
    #[error("There is no message to send again.")]
    NothingToRedo,
    /// Another version of a message was asked for while an ask waits on the conversation.
    #[error("A question waits for your answer here: answer or skip it first.")]
    AskWaiting,
    /// The conversation changed since the client saw it (another tab or device moved first).
    #[error("The conversation changed since you saw it. Reload it and try again.")]
    ConversationChanged,
    /// The change would leave no enabled admin.
    #[error("Palaver needs an admin: make another account admin first.")]
    LastAdmin,
    /// An approval routed to someone else, answered by the person who asked or by someone the
    /// route does not name (403).
    #[error("This approval waits for {approver}; you cannot answer it.")]
    ApprovalRoutedElsewhere { approver: String },
    /// Under the two-person rule, the first approver approving again (409).
    #[error("You approved this already: it waits for a second, different approver.")]
    AlreadyApproved,
    /// Under the two-person rule, the first approval: recorded, and the call waits (202).
    #[error("Your approval is recorded: the call runs once a second approver approves.")]
    SecondApprovalNeeded,
    /// An answer names an ask the conversation is not waiting on (409).
    #[error("This ask is no longer pending")]
    StaleAsk { tool_call_id: String },
    /// An answer to an ask that ended unanswered at `expires_at` (409, like any stale answer).
    #[error("This ask is no longer pending")]
    ExpiredAsk { tool_call_id: String, expires_at: String },
    /// An answer that fails the ask's validation (400, with the errors).
    #[error("Invalid askResponse")]
    InvalidAnswer { fields: Vec<FieldError> },
    /// Too many attempts; the client may try again after `retry_after_secs`.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_secs: u64 },
    /// The cause is logged once, where the error leaves the server; clients only learn that
    /// something failed.
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
            AppError::NotHistoryOwner
            | AppError::SignUpClosed
            | AppError::AdminsOnly
            | AppError::AccountDisabled
            | AppError::TokenCannotMakeTokens
            | AppError::ApprovalRoutedElsewhere { .. } => 403,
            AppError::HistoryNotFound | AppError::TokenNotFound | AppError::GrantNotFound | AppError::UserNotFound => {
                404
            }
            AppError::UsernameTaken
            | AppError::LastAdmin
            | AppError::ReplyRunning
            | AppError::NothingToRedo
            | AppError::AskWaiting
            | AppError::ConversationChanged
            | AppError::StaleAsk { .. }
            | AppError::ExpiredAsk { .. }
            | AppError::AlreadyApproved => 409,
            AppError::SecondApprovalNeeded => 202,
            AppError::InvalidAnswer { .. } => 400,
            AppError::TooManyRequests { .. } => 429,
            AppError::Internal | AppError::ServerFn(_) => 500,
        }
    }
}

#[cfg(feature = "server-fn")]
impl server_fn::error::FromServerFnError for AppError {
    type Encoder = server_fn::codec::JsonEncoding;

    fn from_server_fn_error(value: server_fn::error::ServerFnErrorErr) -> Self {
        use server_fn::error::ServerFnErrorErr;
        match value {
            // The caller sent arguments the function cannot take: the caller's mistake.
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::MissingArg(_) => AppError::BadRequest(value.to_string()),
            _ => AppError::ServerFn(value.to_string()),
        }
    }
}

/// One validation error as the API sends it in `fields`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldError {
    pub code: String,
    pub fix: String,
    pub message: String,
    pub path: String,
}

impl From<&palaver_contract::asks::AskError> for FieldError {
    fn from(error: &palaver_contract::asks::AskError) -> Self {
        FieldError {
            code: error.code.to_string(),
            fix: error.fix.clone(),
            message: error.message.clone(),
            path: error.path.to_string(),
        }
    }
}

pub type AppResult<T> = Result<T, AppError>;
