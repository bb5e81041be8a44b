//! An ask the model is still writing: what its arguments say so far — title, prompt, the
//! options' or fields' labels, the buttons' — shown inert and marked as being prepared. Only
//! strings are read from it, each cut short; nothing can be answered here.

use leptos::prelude::*;
use serde_json::Value;

use palaver_contract::asks::AskKind;
use palaver_contract::text::shorten;
use palaver_wire::conversation::model::AskPreviewEvent;

/// The most labels a preview lists, and how long each text may be.
const LABELS_SHOWN: usize = 12;
const TEXT_MAX: usize = 500;

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::trim).filter(|text| !text.is_empty()).map(|text| shorten(text, TEXT_MAX))
}

/// The labels the card will offer, as far as they are written.
fn labels(kind: AskKind, input: &Value) -> Vec<String> {
    let list = |key: &str, label: &str| -> Vec<String> {
        input[key].as_array().into_iter().flatten().filter_map(|item| text(&item[label])).take(LABELS_SHOWN).collect()
    };
    match kind {
        AskKind::Choice => list("options", "label"),
        AskKind::Form => list("fields", "label"),
        AskKind::Confirm => [text(&input["confirmLabel"]), text(&input["denyLabel"])].into_iter().flatten().collect(),
        AskKind::Questions => list("questions", "title"),
        AskKind::Markdown | AskKind::Files => Vec::new(),
    }
}

#[component]
pub fn AskPreviewCard(preview: AskPreviewEvent) -> impl IntoView {
    let input = preview.input.unwrap_or_default();
    let title = text(&input["title"]);
    let prompt = text(&input["prompt"]);
    let labels = labels(preview.kind, &input);
    view! {
        <section
            class="ask-card ask-card--preview"
            data-testid="ask-preview"
            aria-busy="true"
            aria-label="A question being prepared"
        >
            <p class="ask-card__preparing">"Preparing a question…"</p>
            {title.map(|title| view! { <h3 class="ask-card__title">{title}</h3> })}
            {prompt.map(|prompt| view! { <p class="ask-card__prompt">{prompt}</p> })}
            <ul class="ask-card__preview-labels">
                {labels.into_iter().map(|label| view! { <li>{label}</li> }).collect_view()}
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_the_strings_written_so_far_are_read() {
        let input = json!({"options": [{"id": "a", "label": "Solo"}, {"id": "b", "label": 7}, {"id": "c"}, {"label": " Team "}]});
        assert_eq!(labels(AskKind::Choice, &input), ["Solo", "Team"]);
        assert_eq!(labels(AskKind::Confirm, &json!({"confirmLabel": "Go"})), ["Go"]);
        assert!(labels(AskKind::Markdown, &json!({"markdown": "x"})).is_empty());
        let long = "x".repeat(2000);
        assert_eq!(text(&json!(long)).map(|text| text.chars().count()), Some(TEXT_MAX));
    }
}
