//! Wire types of conversations, shared by the server and the browser.

use serde::{Deserialize, Serialize};

/// A conversation in the list (the spec calls conversations histories).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistorySummary {
    pub id: String,
    pub title: Option<String>,
    pub created: String,
    pub updated: String,
}

/// One stored row of a conversation, in the order the conversation happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum HistoryRow {
    User { text: String },
    Assistant { text: String },
}

/// A conversation with its rows, as the chat shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryView {
    pub id: String,
    pub title: Option<String>,
    pub rows: Vec<HistoryRow>,
}

/// One event of a turn, as `POST /gpt/prompt` streams it (`data: {…}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TurnEvent {
    Text {
        text: String,
    },
    Error {
        error: String,
    },
    Done {
        done: bool,
        #[serde(rename = "historyId")]
        history_id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_have_the_spec_shapes() {
        let done = TurnEvent::Done { done: true, history_id: "h1".into(), title: None };
        assert_eq!(serde_json::to_string(&done).unwrap(), r#"{"done":true,"historyId":"h1"}"#);
        let text: TurnEvent = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
        assert_eq!(text, TurnEvent::Text { text: "hi".into() });
        let row = serde_json::to_value(HistoryRow::User { text: "x".into() }).unwrap();
        assert_eq!(row, serde_json::json!({"type": "user", "text": "x"}));
    }
}
