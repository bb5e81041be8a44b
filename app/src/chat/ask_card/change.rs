//! "Change answer" under an answered ask's summary, while the server says the answer can still
//! be changed (nothing but its reply came after it, its window is open). It takes the answer
//! back (`POST /gpt/histories/{id}/asks/{askId}/reopen`) with the answer kept as the card's
//! draft; the live event that follows reloads the conversation, which shows the card waiting
//! again and no reply below it. At the window's end the button goes.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::drafts::{keep_as_draft, shown_conversation};
use palaver_contract::asks::AskKind;
use palaver_wire::body::Data;
use palaver_wire::conversation::deadline;

/// What the answered ask's card offers: the answer given, and until when it can be changed.
pub(super) struct Changeable {
    pub(super) tool_call_id: String,
    pub(super) kind: AskKind,
    pub(super) response: Option<Value>,
    pub(super) until: String,
}

#[component]
pub(super) fn ChangeAnswer(changeable: Changeable, busy: RwSignal<bool>) -> impl IntoView {
    let Changeable { tool_call_id, kind, response, until } = changeable;
    let open = RwSignal::new(true);
    // Browser only: the page from the server has no clock to agree with.
    Effect::new(move |_| {
        let left = deadline::epoch_ms(&until).map_or(0, |deadline| deadline - crate::browser::now_ms());
        let Ok(left) = u64::try_from(left) else { return open.set(false) };
        if let Ok(handle) = set_timeout_with_handle(move || open.set(false), std::time::Duration::from_millis(left)) {
            on_cleanup(move || handle.clear());
        }
    });
    let sending = RwSignal::new(false);
    let failed = RwSignal::new(None::<String>);
    let draft = response.as_ref().and_then(|response| draft_of(kind, response));
    let change = move |_| {
        let Some(conversation) = shown_conversation() else { return };
        let tool_call_id = tool_call_id.clone();
        keep_as_draft(&tool_call_id, draft.as_ref());
        let url = format!("/gpt/histories/{conversation}/asks/{tool_call_id}/reopen");
        sending.set(true);
        leptos::task::spawn_local(async move {
            // Done: the conversation is reloaded on the live event the server sends.
            if let Err(message) = crate::http::send::<_, Data<Value>>("POST", &url, &json!({})).await {
                keep_as_draft(&tool_call_id, None);
                failed.set(Some(message));
                sending.set(false);
            }
        });
    };
    view! {
        <Show when=move || open.get() && failed.get().is_none()>
            <button
                type="button"
                class="ask-button ask-card__change"
                data-testid="ask-change"
                disabled=move || busy.get() || sending.get()
                on:click=change.clone()
            >
                "Change answer"
            </button>
        </Show>
        {move || {
            failed
                .get()
                .map(|message| {
                    view! {
                        <p class="error" role="alert" data-testid="ask-change-error">
                            {message}
                        </p>
                    }
                })
        }}
    }
}

/// An answer as its card's draft (what the card keeps for a reload): the picks, text, values,
/// files or answers it sent. Only an accepted answer has one; an approval's buttons have none.
fn draft_of(kind: AskKind, response: &Value) -> Option<Value> {
    let content = response.get("content").filter(|_| response["action"] == "accept")?;
    let mut draft = match kind {
        AskKind::Choice => {
            json!({"selected": content["selected"], "other": content["other"].as_str().unwrap_or_default()})
        }
        AskKind::Markdown => json!({"text": content["markdown"]}),
        AskKind::Form => json!({"values": content["values"]}),
        AskKind::Files => json!({"picked": content["files"]}),
        AskKind::Questions => json!({"answers": content["answers"]}),
        AskKind::Confirm => return None,
    };
    draft["touched"] = json!(true);
    Some(draft)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accepted_answer_becomes_its_cards_draft() {
        let choice = json!({"action": "accept", "content": {"selected": ["team"], "other": "Ours"}});
        assert_eq!(
            draft_of(AskKind::Choice, &choice),
            Some(json!({"selected": ["team"], "other": "Ours", "touched": true}))
        );
        let questions = json!({"action": "accept", "content": {"answers": {"q1": {"picked": ["a"]}}}});
        assert_eq!(
            draft_of(AskKind::Questions, &questions),
            Some(json!({"answers": {"q1": {"picked": ["a"]}}, "touched": true}))
        );
        assert_eq!(draft_of(AskKind::Choice, &json!({"action": "decline"})), None);
        assert_eq!(draft_of(AskKind::Confirm, &json!({"action": "accept", "content": {"confirmed": false}})), None);
    }
}
