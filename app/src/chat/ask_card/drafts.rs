//! The answers being prepared in a page's pending ask cards, kept by the page. The transcript
//! is rebuilt when a turn ends (or another device answers), and its cards with it: a rebuilt
//! card carries on with what was picked, typed or uploaded, and an upload that finishes in
//! between lands in it.

use leptos::prelude::*;
use serde_json::{Map, Value};

/// A choice card's draft: the options picked, the "other" text, the list's search filter.
#[derive(Clone, Copy)]
pub struct ChoiceDraft {
    pub selected: RwSignal<Vec<String>>,
    pub other: RwSignal<String>,
    pub search: RwSignal<String>,
    pub touched: RwSignal<bool>,
}

#[derive(Clone, Copy)]
pub struct MarkdownDraft {
    pub text: RwSignal<String>,
    pub touched: RwSignal<bool>,
}

#[derive(Clone, Copy)]
pub struct FormDraft {
    pub values: RwSignal<Map<String, Value>>,
    pub touched: RwSignal<bool>,
}

/// A question set's draft: each question's answer so far, `{picked, custom?}` by question id
/// (a single-pick question answered in the user's own words has `custom`, even while empty).
#[derive(Clone, Copy)]
pub struct QuestionsDraft {
    pub answers: RwSignal<Map<String, Value>>,
    pub touched: RwSignal<bool>,
}

/// A files card's draft, with the uploads still in flight (file name, progress from 0 to 1).
#[derive(Clone, Copy)]
pub struct FilesDraft {
    pub picked: RwSignal<Vec<Value>>,
    pub touched: RwSignal<bool>,
    pub uploading: RwSignal<Vec<(String, f64)>>,
    pub upload_errors: RwSignal<Vec<String>>,
}

/// One card's draft, by kind.
#[derive(Clone, Copy)]
pub enum AskDraft {
    Choice(ChoiceDraft),
    Markdown(MarkdownDraft),
    Form(FormDraft),
    Files(FilesDraft),
    Questions(QuestionsDraft),
}

/// A kind's draft as it is kept among the others.
pub trait KindDraft: Copy {
    fn kept(self) -> AskDraft;
    fn of(draft: AskDraft) -> Option<Self>;
}

macro_rules! kind_draft {
    ($draft:ident, $variant:ident) => {
        impl KindDraft for $draft {
            fn kept(self) -> AskDraft {
                AskDraft::$variant(self)
            }
            fn of(draft: AskDraft) -> Option<Self> {
                match draft {
                    AskDraft::$variant(draft) => Some(draft),
                    _ => None,
                }
            }
        }
    };
}

kind_draft!(ChoiceDraft, Choice);
kind_draft!(MarkdownDraft, Markdown);
kind_draft!(FormDraft, Form);
kind_draft!(FilesDraft, Files);
kind_draft!(QuestionsDraft, Questions);

#[derive(Clone, Copy)]
struct AskDrafts {
    owner: StoredValue<Owner>,
    /// The conversation shown (tool call ids are only unique within one).
    conversation: Signal<Option<String>>,
    /// By conversation and tool call id (a page shows a handful).
    kept: StoredValue<Vec<(String, AskDraft)>>,
}

/// Lets the ask cards under the current owner (a page showing `conversation`) keep their
/// drafts in it.
pub fn provide_ask_drafts(conversation: Signal<Option<String>>) {
    if let Some(owner) = Owner::current() {
        provide_context(AskDrafts { owner: StoredValue::new(owner), conversation, kept: StoredValue::new(Vec::new()) });
    }
}

/// The draft of the answer to `tool_call_id`, made by `make`: the page's when it keeps drafts
/// (made on first use, under the page), else the card's own.
pub fn use_ask_draft<T: KindDraft>(tool_call_id: &str, make: impl FnOnce() -> T) -> T {
    let Some(drafts) = use_context::<AskDrafts>() else { return make() };
    let key = format!("{}/{tool_call_id}", drafts.conversation.get_untracked().unwrap_or_default());
    let kept = drafts
        .kept
        .with_value(|kept| kept.iter().find(|(kept_key, _)| *kept_key == key).and_then(|(_, draft)| T::of(*draft)));
    kept.unwrap_or_else(|| {
        let draft = drafts.owner.with_value(|owner| owner.with(make));
        drafts.kept.update_value(|kept| kept.push((key, draft.kept())));
        draft
    })
}
