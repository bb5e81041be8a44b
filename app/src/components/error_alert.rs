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

/// What went wrong, said where it went wrong (a screen reader hears it at once); nothing while
/// `message` holds none.
#[component]
pub fn ErrorLine(#[prop(into)] message: Signal<Option<String>>) -> impl IntoView {
    move || {
        message.get().map(|text| {
            view! {
                <p class="error" role="alert">
                    {text}
                </p>
            }
        })
    }
}

/// The message of an action's failed result; nothing before it ran or when it went through.
pub fn error_alert<T>(result: Option<Result<T, AppError>>) -> Option<AnyView> {
    match result {
        Some(Err(error)) => Some(error_paragraph(&error)),
        _ => None,
    }
}
