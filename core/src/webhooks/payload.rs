//! What a delivery posts (`WebhookPayload`, documented in `palaver_wire::webhooks`), written
//! once when the event is seen, so every attempt sends the same bytes under the same signature
//! scheme.

use crate::error::AppResult;
use crate::turn::store::StoredPendingAsk;
use palaver_wire::live::{AskResolved, TurnDone};
use palaver_wire::webhooks::{
    ASK_CREATED, ASK_RESOLVED, PING, TURN_DONE, WebhookAnswerLinks, WebhookAsk, WebhookConversation, WebhookData,
    WebhookPayload, WebhookResolved,
};

/// An event about to be written: its id and time, and the conversation it happened in.
pub(super) struct Event<'a> {
    pub id: &'a str,
    pub created_at: String,
    pub conversation: WebhookConversation,
}

fn body(id: &str, event_type: &str, created_at: String, data: WebhookData) -> AppResult<String> {
    let payload = WebhookPayload { id: id.to_string(), event_type: event_type.to_string(), created_at, data };
    Ok(serde_json::to_string(&payload)?)
}

/// The headless API's URLs for the conversation's ask, on `public_url` (relative without one).
pub(super) fn answer_links(public_url: Option<&str>, history_id: &str) -> WebhookAnswerLinks {
    let base = public_url.map(|url| url.trim_end_matches('/')).unwrap_or_default();
    WebhookAnswerLinks {
        turn: format!("{base}/gpt/histories/{history_id}/turn"),
        batch: format!("{base}/gpt/histories/pendingAsks/answers"),
        pending_asks: format!("{base}/gpt/histories/pendingAsks"),
        open: format!("{base}/?c={history_id}"),
    }
}

pub(super) fn ping(id: &str, created_at: String) -> AppResult<String> {
    body(id, PING, created_at, WebhookData::default())
}

pub(super) fn ask_created(event: Event<'_>, pending: &StoredPendingAsk, public_url: Option<&str>) -> AppResult<String> {
    let ask = &pending.ask;
    let data = WebhookData {
        answer: Some(answer_links(public_url, &event.conversation.id)),
        ask: Some(WebhookAsk {
            tool_call_id: ask.tool_call_id.clone(),
            kind: ask.kind,
            prompt: ask.simple.text.clone(),
            simple: ask.simple.clone(),
            expires_at: ask.expires_at.clone(),
        }),
        conversation: Some(event.conversation),
        ..WebhookData::default()
    };
    body(event.id, ASK_CREATED, event.created_at, data)
}

pub(super) fn ask_resolved(event: Event<'_>, resolved: &AskResolved) -> AppResult<String> {
    let data = WebhookData {
        conversation: Some(event.conversation),
        resolved: Some(WebhookResolved {
            tool_call_id: resolved.tool_call_id.clone(),
            ending: resolved.ending.clone(),
            action: resolved.action.clone(),
            reason: resolved.reason.clone(),
        }),
        ..WebhookData::default()
    };
    body(event.id, ASK_RESOLVED, event.created_at, data)
}

pub(super) fn turn_done(event: Event<'_>, done: &TurnDone) -> AppResult<String> {
    let data = WebhookData {
        conversation: Some(event.conversation),
        pending_ask: done.pending_ask.clone(),
        ..WebhookData::default()
    };
    body(event.id, TURN_DONE, event.created_at, data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_absolute_on_the_public_url_and_relative_without() {
        let links = answer_links(Some("https://chat.example.com/"), "h1");
        assert_eq!(links.turn, "https://chat.example.com/gpt/histories/h1/turn");
        assert_eq!(links.open, "https://chat.example.com/?c=h1");
        assert_eq!(answer_links(None, "h1").pending_asks, "/gpt/histories/pendingAsks");
    }

    #[test]
    fn a_ping_is_id_type_time_and_empty_data() {
        let ping = ping("e1", "2026-01-01T00:00:00.000Z".into()).unwrap();
        assert_eq!(ping, r#"{"id":"e1","type":"ping","createdAt":"2026-01-01T00:00:00.000Z","data":{}}"#);
    }
}
