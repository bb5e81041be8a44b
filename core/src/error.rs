//! The services' error: the kind a client is told ([`AppError`], from the wire), what caused it,
//! and where it was raised. Conversions make one and do nothing else; the adapter that answers
//! the client (a route's layer, a server function) logs it once, with the request id, and sends
//! only the kind.

use std::error::Error as StdError;
use std::fmt;
use std::panic::Location;

pub use palaver_wire::error::{AppError, FieldError};

type Cause = Box<dyn StdError + Send + Sync>;

pub struct Error {
    kind: AppError,
    cause: Option<Cause>,
    location: &'static Location<'static>,
}

pub type AppResult<T> = Result<T, Error>;

impl Error {
    /// An error of `kind` raised here, with no cause beyond itself.
    #[track_caller]
    pub fn new(kind: AppError) -> Self {
        Self { kind, cause: None, location: Location::caller() }
    }

    /// Something failed that the client can do nothing about: it is told only that. Pass a
    /// closure (`map_err(|err| Error::internal(err))`), not the function: through a function
    /// pointer the location recorded would be inside `map_err`.
    #[track_caller]
    pub fn internal(cause: impl Into<Cause>) -> Self {
        Self::new(AppError::Internal).caused_by(cause)
    }

    pub fn caused_by(mut self, cause: impl Into<Cause>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    /// What the client is told.
    pub fn kind(&self) -> &AppError {
        &self.kind
    }

    pub fn into_kind(self) -> AppError {
        self.kind
    }

    /// Where the error was raised (the `?` or the constructor's caller).
    pub fn location(&self) -> &'static Location<'static> {
        self.location
    }

    /// Whether the failure is the server's own, not the client's.
    pub fn is_internal(&self) -> bool {
        self.kind.status_code() >= 500
    }

    /// The one log line of an error, written by the adapter that answers the client (`what`
    /// names the request): the server's own failures as errors, the client's at debug level.
    pub fn log(&self, request_id: &str, what: &str) {
        if self.is_internal() {
            tracing::error!(request_id, error = %self, "{what} failed");
        } else {
            tracing::debug!(request_id, error = %self, "{what} was refused");
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at {})", self.kind, self.location)?;
        if let Some(cause) = &self.cause {
            write!(f, ": {cause}")?;
            let mut source = cause.source();
            while let Some(inner) = source {
                write!(f, ": {inner}")?;
                source = inner.source();
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("kind", &self.kind)
            .field("cause", &self.cause)
            .field("location", &format_args!("{}", self.location))
            .finish()
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.cause.as_deref().map(|cause| cause as &(dyn StdError + 'static))
    }
}

impl From<AppError> for Error {
    #[track_caller]
    fn from(kind: AppError) -> Self {
        Self::new(kind)
    }
}

/// PostgreSQL's `character_not_in_repertoire`: a bound text held a NUL, which its text type
/// cannot hold (an id or a name a client sent; stored text is cleaned of NULs before).
const NUL_IN_TEXT: &str = "22021";

impl From<sqlx::Error> for Error {
    #[track_caller]
    fn from(err: sqlx::Error) -> Self {
        if err.as_database_error().and_then(|database| database.code()).is_some_and(|code| code == NUL_IN_TEXT) {
            let kind =
                AppError::BadRequest("A text sent holds a NUL character (U+0000), which Palaver does not take.".into());
            return Self::new(kind).caused_by(err);
        }
        Self::internal(err)
    }
}

impl From<serde_json::Error> for Error {
    #[track_caller]
    fn from(err: serde_json::Error) -> Self {
        Self::internal(err)
    }
}

/// A database result whose unique-constraint violation means something to the client.
pub trait ResultExt<T> {
    /// A unique-constraint violation becomes `kind`; any other error stays what it was.
    fn on_constraint(self, kind: impl FnOnce() -> AppError) -> AppResult<T>;
}

impl<T> ResultExt<T> for Result<T, sqlx::Error> {
    #[track_caller]
    fn on_constraint(self, kind: impl FnOnce() -> AppError) -> AppResult<T> {
        let location = Location::caller();
        self.map_err(|err| {
            let unique = err.as_database_error().is_some_and(|database| database.is_unique_violation());
            let error = if unique { Error::new(kind()).caused_by(err) } else { Error::from(err) };
            Error { location, ..error }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> AppResult<()> {
        Err(sqlx::Error::RowNotFound)?
    }

    #[test]
    fn an_error_keeps_its_cause_and_where_it_was_raised() {
        let err = stored().unwrap_err();
        assert_eq!(err.kind(), &AppError::Internal);
        assert!(err.location().file().ends_with("error.rs"), "{}", err.location());
        assert!(err.to_string().contains("no rows returned"), "{err}");
        assert!(err.source().is_some());
        assert!(err.is_internal());
    }

    #[test]
    fn a_kind_alone_is_not_internal() {
        let err = Error::from(AppError::HistoryNotFound);
        assert!(!err.is_internal());
        assert!(err.source().is_none());
        assert_eq!(err.into_kind(), AppError::HistoryNotFound);
    }
}
