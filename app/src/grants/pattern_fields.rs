//! The editable part of a grant's pattern, the same on an approval card's grant editor and in
//! Settings: a folder's or a beginning's text, a range's bounds.

use leptos::prelude::*;

use palaver_wire::grants::ArgumentPattern;

/// The text or the bounds of the chosen pattern, editable; nothing for one without them.
pub fn pattern_fields(chosen: RwSignal<ArgumentPattern>) -> Option<AnyView> {
    let text = |value: String, label: &'static str| {
        view! {
            <input
                type="text"
                aria-label=label
                data-testid="grant-pattern-text"
                prop:value=value
                on:input=move |event| {
                    let edited = event_target_value(&event);
                    chosen
                        .update(|pattern| match pattern {
                            ArgumentPattern::Under { path } => *path = edited,
                            ArgumentPattern::StartsWith { text } | ArgumentPattern::CommandStartsWith { text } => {
                                *text = edited;
                            }
                            _ => {}
                        });
                }
            />
        }
        .into_any()
    };
    let bound = |value: Option<f64>, label: &'static str, is_min: bool| {
        view! {
            <input
                type="number"
                aria-label=label
                prop:value=value.map(|bound| bound.to_string()).unwrap_or_default()
                on:input=move |event| {
                    let edited = event_target_value(&event).parse::<f64>().ok();
                    chosen
                        .update(|pattern| {
                            if let ArgumentPattern::Range { min, max } = pattern {
                                *(if is_min { min } else { max }) = edited;
                            }
                        });
                }
            />
        }
    };
    match chosen.get_untracked() {
        ArgumentPattern::Under { path } => Some(text(path, "Folder")),
        ArgumentPattern::StartsWith { text: start } | ArgumentPattern::CommandStartsWith { text: start } => {
            Some(text(start, "Starting with"))
        }
        ArgumentPattern::Range { min, max } => Some(
            view! {
                {bound(min, "Lowest", true)}
                " to "
                {bound(max, "Highest", false)}
            }
            .into_any(),
        ),
        _ => None,
    }
}
