//! A failed request's message, announced to screen readers.

use leptos::prelude::*;

use palaver_wire::error::AppError;

pub fn error_paragraph(error: &AppError) -> AnyView {
    view! {
        <p class="error" role="alert">
            {error.to_string()}
        </p>
    }
    .into_any()
}

/// The message of an action's failed result; nothing before it ran or when it went through.
pub fn error_alert<T>(result: Option<Result<T, AppError>>) -> Option<AnyView> {
    match result {
        Some(Err(error)) => Some(error_paragraph(&error)),
        _ => None,
    }
}
