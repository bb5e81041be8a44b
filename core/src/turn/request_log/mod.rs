//! What the request log (`ai_requests.metadata`) says of a turn: the asks it made or answered,
//! how its reply checked as a block document, whether it was stopped; and how long it keeps
//! what the model was sent and sent back.

use serde::Serialize;

use super::pending::StoredPendingAsk;
use palaver_contract::asks::AskKind;
use palaver_contract::blocks::{BlockErrorCode, BlockWarningCode};
use palaver_wire::conversation::model::AskOrigin;

pub(super) mod store;

impl super::TurnRunner {
    /// Empties the request log's prompts and replies older than the settings keep them
    /// (`TurnSettings::request_text_kept`); returns how many.
    pub async fn forget_old_request_text(&self) -> crate::error::AppResult<u64> {
        let kept = crate::db::seconds(self.settings.request_text_kept);
        store::forget_old_text(&self.pool, kept).await
    }
}

/// `ai_requests.metadata`: what a turn asked or answered, how its reply checked as a document,
/// and whether the user stopped it.
#[derive(Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestLogMetadata {
    /// The ask a prompt turn paused on, or the ask an answer turn answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ask: Option<AskLog>,
    /// The ask an answer turn paused on next.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_ask: Option<AskLog>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ui_blocks: Option<UiBlocksLog>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

/// Where an ask was when the turn logged it: asked, or answered with an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AskPhase {
    Asked,
    Answered(&'static str),
}

/// One ask in the request log.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AskLog {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<&'static str>,
    pub kind: AskKind,
    pub phase: &'static str,
    pub tool_call_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<AskOrigin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
}

impl AskLog {
    pub fn of(pending: &StoredPendingAsk, phase: AskPhase) -> Self {
        let (phase, action) = match phase {
            AskPhase::Asked => ("asked", None),
            AskPhase::Answered(action) => ("answered", Some(action)),
        };
        Self {
            action,
            kind: pending.ask.kind,
            phase,
            tool_call_id: pending.ask.tool_call_id.clone(),
            origin: pending.ask.origin,
            tool_name: pending.ask.tool_name.clone(),
        }
    }
}

/// How a reply checked as a block document.
#[derive(Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UiBlocksLog {
    pub ok: bool,
    pub error_codes: Vec<BlockErrorCode>,
    pub warning_codes: Vec<BlockWarningCode>,
    pub repaired: bool,
}
