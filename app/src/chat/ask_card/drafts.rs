//! The answers being prepared in a page's pending ask cards, kept by the page. The transcript
//! is rebuilt when a turn ends (or another device answers), and its cards with it: a rebuilt
//! card carries on with what was picked, typed or uploaded, and an upload that finishes in
//! between lands in it. The tab keeps each draft too (sessionStorage), so a reload carries on
//! with it, until the ask is no longer pending.

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

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

/// A kind's draft as it is kept among the others, and across a reload.
pub trait KindDraft: Copy + Send + Sync + 'static {
    fn kept(self) -> AskDraft;
    fn of(draft: AskDraft) -> Option<Self>;
    /// What a reload carries on with (read tracked: the tab keeps it as it changes).
    fn saved(self) -> Value;
    /// Takes back what [`KindDraft::saved`] wrote.
    fn restore(self, saved: &Value);
}

/// Sets `signal` from `saved[key]`, when it holds a value of its type.
fn restore<T: DeserializeOwned + Send + Sync + 'static>(signal: RwSignal<T>, saved: &Value, key: &str) {
    if let Some(value) = saved.get(key).and_then(|value| serde_json::from_value(value.clone()).ok()) {
        signal.set(value);
    }
}

macro_rules! kind_draft {
    ($draft:ident, $variant:ident, [$($field:ident: $key:literal),+]) => {
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
            fn saved(self) -> Value {
                json!({ $($key: self.$field.get(),)+ "touched": self.touched.get() })
            }
            fn restore(self, saved: &Value) {
                $(restore(self.$field, saved, $key);)+
                restore(self.touched, saved, "touched");
            }
        }
    };
}

kind_draft!(ChoiceDraft, Choice, [selected: "selected", other: "other"]);
kind_draft!(MarkdownDraft, Markdown, [text: "text"]);
kind_draft!(FormDraft, Form, [values: "values"]);
kind_draft!(FilesDraft, Files, [picked: "picked"]);
kind_draft!(QuestionsDraft, Questions, [answers: "answers"]);

/// Where the tab keeps the draft of the answer to `tool_call_id` in `conversation`.
fn session_key(conversation: &str, tool_call_id: &str) -> String {
    format!("palaver.draft.{conversation}/{tool_call_id}")
}

/// Forgets the tab's copy of a draft whose ask is no longer pending.
pub fn forget_ask_draft(tool_call_id: &str) {
    if let Some(drafts) = use_context::<AskDrafts>() {
        let conversation = drafts.conversation.get_untracked().unwrap_or_default();
        crate::browser::keep_for_session(&session_key(&conversation, tool_call_id), None);
    }
}

/// The conversation the page shows, when it keeps drafts.
pub fn shown_conversation() -> Option<String> {
    use_context::<AskDrafts>().and_then(|drafts| drafts.conversation.get_untracked())
}

/// Makes `saved` (as [`KindDraft::saved`] writes it) the draft of the answer to `tool_call_id`,
/// for its card to carry on with once its ask is pending again (an answer being changed);
/// `None` forgets it.
pub fn keep_as_draft(tool_call_id: &str, saved: Option<&Value>) {
    let Some(drafts) = use_context::<AskDrafts>() else { return };
    let conversation = drafts.conversation.get_untracked().unwrap_or_default();
    // The card makes its draft afresh, from what the tab keeps.
    let key = format!("{conversation}/{tool_call_id}");
    drafts.kept.update_value(|kept| kept.retain(|(kept_key, _)| *kept_key != key));
    let saved = saved.map(Value::to_string);
    crate::browser::keep_for_session(&session_key(&conversation, tool_call_id), saved.as_deref());
}

#[derive(Clone, Copy)]
struct AskDrafts {
    owner: StoredValue<Owner>,
    /// The conversation shown (tool call ids are only unique within one).
    conversation: Signal<Option<String>>,
    /// By conversation and tool call id (a page shows a handful).
    kept: StoredValue<Vec<(String, AskDraft)>>,
    /// Fires when drafts the tab kept were taken back after the page was hydrated: the cards
    /// show them by being made again.
    restored: Trigger,
}

/// Lets the ask cards under the current owner (a page showing `conversation`) keep their
/// drafts in it.
pub fn provide_ask_drafts(conversation: Signal<Option<String>>) {
    if let Some(owner) = Owner::current() {
        provide_context(AskDrafts {
            owner: StoredValue::new(owner),
            conversation,
            kept: StoredValue::new(Vec::new()),
            restored: Trigger::new(),
        });
    }
}

/// The draft of the answer to `tool_call_id`, made by `make`: the page's when it keeps drafts
/// (made on first use, under the page, from what the tab kept before a reload), else the card's
/// own.
pub fn use_ask_draft<T: KindDraft>(tool_call_id: &str, make: impl FnOnce() -> T) -> T {
    let Some(drafts) = use_context::<AskDrafts>() else { return make() };
    let conversation = drafts.conversation.get_untracked().unwrap_or_default();
    let key = format!("{conversation}/{tool_call_id}");
    let kept = drafts
        .kept
        .with_value(|kept| kept.iter().find(|(kept_key, _)| *kept_key == key).and_then(|(_, draft)| T::of(*draft)));
    kept.unwrap_or_else(|| {
        let draft =
            drafts.owner.with_value(|owner| owner.with(|| kept_for_the_tab(make(), &conversation, tool_call_id)));
        drafts.kept.update_value(|kept| kept.push((key, draft.kept())));
        draft
    })
}

/// Makes the card whose controls read the page's drafts again when the tab's were taken back.
pub fn track_restored_drafts() {
    if let Some(drafts) = use_context::<AskDrafts>() {
        drafts.restored.track();
    }
}

/// `draft`, carrying on with what the tab kept of it before a reload, and kept by the tab as it
/// changes. A page being hydrated shows what the server rendered first: the kept draft is taken
/// back after, and the cards made again.
fn kept_for_the_tab<T: KindDraft>(draft: T, conversation: &str, tool_call_id: &str) -> T {
    let key = session_key(conversation, tool_call_id);
    let saved = {
        let key = key.clone();
        move || crate::browser::kept_for_session(&key).and_then(|saved| serde_json::from_str::<Value>(&saved).ok())
    };
    let hydrating = !crate::browser::hydrated();
    if !hydrating && let Some(saved) = saved() {
        draft.restore(&saved);
    }
    let restored = use_context::<AskDrafts>().map(|drafts| drafts.restored);
    Effect::new(move |first_run_done: Option<()>| {
        if first_run_done.is_none()
            && hydrating
            && let Some(saved) = saved()
        {
            untrack(|| draft.restore(&saved));
            restored.inspect(|restored| restored.notify());
        }
        crate::browser::keep_for_session(&key, Some(&draft.saved().to_string()));
    });
    draft
}
