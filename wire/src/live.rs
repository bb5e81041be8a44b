//! Live events: what happens to a user's asks, turns and conversations, pushed to each of
//! their open tabs and devices (`GET /gpt/events`), so a new ask, an answer given elsewhere or a
//! finished turn shows without a reload. Each event has an id; a client that reconnects with
//! `Last-Event-ID` gets what it missed (the newest 256 of the last hour), or `resync` when that
//! is gone. Events are stored, so every instance on one database delivers them
//! (`palaver_core::live`). These are the events as both sides read them.

use serde::{Deserialize, Serialize};

/// One live event, as `data: {"<name>": {…}}` (the turn stream's style).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LiveEvent {
    /// A conversation waits on a new ask (or again, on one whose answer was undone).
    AskCreated(AskCreated),
    /// A pending ask ended: answered, cancelled or expired.
    AskResolved(AskResolved),
    TurnStarted(HistoryRef),
    TurnDone(TurnDone),
    /// Another version of a message is shown (its rows changed without a turn).
    BranchShown(HistoryRef),
    /// A conversation was created, renamed (also by its first turn), deleted, or kept
    /// differently: pinned, archived or shared (and back).
    HistoryChanged(HistoryChanged),
    /// Events were missed beyond the buffer (or the server restarted): load everything again.
    Resync(Resync),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskCreated {
    pub history_id: String,
    pub tool_call_id: String,
    pub kind: palaver_contract::asks::AskKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskResolved {
    pub history_id: String,
    pub tool_call_id: String,
    /// `answered`, `cancelled` or `expired` (the ask row's status).
    pub ending: String,
    /// The answer's action (`accept`, `decline`, `cancel`).
    pub action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryRef {
    pub history_id: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnDone {
    pub history_id: String,
    /// The ask the turn paused on, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_ask: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HistoryChange {
    Created,
    Renamed,
    Deleted,
    Pinned,
    Unpinned,
    Archived,
    Unarchived,
    Shared,
    Unshared,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryChanged {
    pub history_id: String,
    pub change: HistoryChange,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Resync {}

impl LiveEvent {
    /// The conversation the event is about (none for `resync`).
    pub fn history_id(&self) -> Option<&str> {
        match self {
            LiveEvent::AskCreated(event) => Some(&event.history_id),
            LiveEvent::AskResolved(event) => Some(&event.history_id),
            LiveEvent::TurnStarted(event) => Some(&event.history_id),
            LiveEvent::TurnDone(event) => Some(&event.history_id),
            LiveEvent::BranchShown(event) => Some(&event.history_id),
            LiveEvent::HistoryChanged(event) => Some(&event.history_id),
            LiveEvent::Resync(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_named_by_their_only_key() {
        let event = LiveEvent::TurnDone(TurnDone { history_id: "h1".into(), pending_ask: None });
        assert_eq!(serde_json::to_string(&event).unwrap(), r#"{"turnDone":{"historyId":"h1"}}"#);
        assert_eq!(serde_json::to_string(&LiveEvent::Resync(Resync {})).unwrap(), r#"{"resync":{}}"#);
    }
}
