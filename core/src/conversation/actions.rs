//! Host actions: what a document's callbacks call (`POST /gpt/actions`). The built-in two
//! serve the interactive blocks: `scaleStepper` rescales a stepper's items to a new value, and
//! `toggleChecklist` applies a tick. Both work on the block as the agent wrote it in the
//! conversation, never on what the device sends, so a client cannot forge a block.

use std::collections::BTreeMap;

use palaver_contract::blocks::{SCALE_STEPPER, TOGGLE_CHECKLIST};
use serde_json::Value;

use super::access::{HistoryAccess, authorize_history};
use super::service::Conversations;
use super::store;
use crate::accounts::auth::Caller;
use crate::error::{AppResult, Error};
use palaver_contract::blocks::model::Block;
use palaver_contract::blocks::{
    apply_checklist_state, is_stepper_value_allowed, scale_stepper_block, unknown_checklist_item_ids,
};
use palaver_wire::body::HostActionBody;
use palaver_wire::conversation::model::HistoryRow;

/// Why a host action did not run.
#[derive(Debug, thiserror::Error)]
pub enum HostActionError {
    #[error("\"{0}\" is not a registered host action.")]
    Unknown(String),
    #[error("{0}")]
    Invalid(String),
    #[error("No {kind} \"{id}\" was found in this conversation's replies.")]
    BlockNotFound { kind: &'static str, id: String },
    #[error(transparent)]
    App(#[from] Error),
}

/// The names of the host actions this server runs.
pub const HOST_ACTIONS: [&str; 2] = [SCALE_STEPPER, TOGGLE_CHECKLIST];

impl Conversations {
    /// Runs a host action for the conversation's owner; returns the blocks that replace their
    /// namesakes on the device.
    pub async fn run_host_action(
        &self,
        caller: &Caller,
        request: HostActionBody,
    ) -> Result<Vec<Block>, HostActionError> {
        authorize_history(&self.pool, caller, &request.history_id, HistoryAccess::Write).await?;
        let blocks = self.host_action_blocks(&request).await?;
        for block in &blocks {
            let Some(id) = block.id() else { continue };
            let json = serde_json::to_string(block).map_err(|err| Error::internal(err))?;
            store::save_block_state(&self.pool, &request.history_id, id, &json).await?;
        }
        Ok(blocks)
    }

    /// The blocks a host action returns, computed from the blocks as the agent wrote them.
    async fn host_action_blocks(&self, request: &HostActionBody) -> Result<Vec<Block>, HostActionError> {
        let block_id = || {
            request
                .block_id
                .clone()
                .ok_or_else(|| HostActionError::Invalid("blockId is required for this action.".into()))
        };
        match request.name.as_str() {
            SCALE_STEPPER => {
                let id = block_id()?;
                let Some(Block::Stepper(stepper)) = self.written_block(&request.history_id, &id, "stepper").await?
                else {
                    return Err(HostActionError::BlockNotFound { kind: "stepper", id });
                };
                let value = request
                    .payload
                    .get("value")
                    .and_then(Value::as_f64)
                    .ok_or_else(|| HostActionError::Invalid("payload.value must be a number.".into()))?;
                if !is_stepper_value_allowed(&stepper, value) {
                    return Err(HostActionError::Invalid(format!(
                        "payload.value must be a step of {} between {} and {}.",
                        palaver_contract::text::js_number(stepper.step.unwrap_or(1.0)),
                        palaver_contract::text::js_number(stepper.min),
                        palaver_contract::text::js_number(stepper.max)
                    )));
                }
                Ok(vec![Block::Stepper(scale_stepper_block(&stepper, value))])
            }
            TOGGLE_CHECKLIST => {
                let id = block_id()?;
                let Some(Block::Checklist(checklist)) =
                    self.written_block(&request.history_id, &id, "checklist").await?
                else {
                    return Err(HostActionError::BlockNotFound { kind: "checklist", id });
                };
                let invalid = || {
                    HostActionError::Invalid("payload needs itemId (a string), checked (true or false) and state (an object of true or false).".into())
                };
                let item_id = request.payload.get("itemId").and_then(Value::as_str).ok_or_else(invalid)?;
                let checked = request.payload.get("checked").and_then(Value::as_bool).ok_or_else(invalid)?;
                let state: BTreeMap<String, bool> =
                    serde_json::from_value(request.payload.get("state").cloned().unwrap_or_default())
                        .map_err(|_not_a_state| invalid())?;
                if state.len() > checklist.items.len() {
                    return Err(HostActionError::Invalid(format!(
                        "The state names {} items; the checklist has {}.",
                        state.len(),
                        checklist.items.len()
                    )));
                }
                let unknown = unknown_checklist_item_ids(&checklist, item_id, &state);
                if !unknown.is_empty() {
                    return Err(HostActionError::Invalid(format!(
                        "The checklist has no item {}.",
                        unknown.iter().map(|id| format!("\"{id}\"")).collect::<Vec<_>>().join(", ")
                    )));
                }
                Ok(vec![Block::Checklist(apply_checklist_state(&checklist, item_id, checked, &state))])
            }
            other => Err(HostActionError::Unknown(other.to_string())),
        }
    }

    /// The block `id` of type `kind` in the newest document reply that has it.
    async fn written_block(&self, history_id: &str, id: &str, kind: &str) -> AppResult<Option<Block>> {
        let Some(view) = store::load_history(&self.pool, history_id).await? else { return Ok(None) };
        let settings = self.blocks.clone().unwrap_or_default();
        let (id, kind) = (id.to_string(), kind.to_string());
        // Reading documents is CPU work: off the async workers.
        let found = tokio::task::spawn_blocking(move || {
            view.rows.iter().rev().find_map(|row| {
                let HistoryRow::Assistant { text, document: true, .. } = row else { return None };
                let document = settings.check(text).doc?;
                Block::find(&document.blocks, &id).filter(|block| block.type_name() == kind).cloned()
            })
        });
        found.await.map_err(|err| Error::internal(err))
    }
}
