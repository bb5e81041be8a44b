//! The block checks shown with document replies, kept with them: a read shows a reply's kept
//! check while the settings that decide it are unchanged (their fingerprint), and checks it
//! again only when they changed or none was kept; the checks it made are then kept in turn
//! (`store::keep_block_checks`). Host actions' saved block states go on top.

use serde::Deserialize;

use palaver_contract::blocks::ShownCheck;
use palaver_contract::blocks::model::{Block, BlocksDocument};
use palaver_wire::conversation::model::{HistoryRow, HistoryView};

use super::BlocksSettings;
use super::store::{FreshCheck, ReadView};

/// The view with each document reply's check (kept, or made now with `settings`, whose
/// fingerprint is `fingerprint`) and the saved block states in place, and the checks made now.
pub(super) fn checked_documents(
    settings: &BlocksSettings,
    fingerprint: &str,
    read: ReadView,
    states: Vec<(String, String)>,
) -> (HistoryView, Vec<FreshCheck>) {
    let ReadView { mut view, checks, .. } = read;
    let mut fresh = Vec::new();
    let mut shown: Vec<(usize, ShownCheck)> = Vec::with_capacity(checks.len());
    for kept in checks {
        let Some(HistoryRow::Assistant { text, .. }) = view.rows.get(kept.row) else { continue };
        let still_good = kept
            .check
            .filter(|_| kept.checked_with.as_deref() == Some(fingerprint))
            .and_then(|json| serde_json::from_str::<ShownCheck>(&json).ok());
        let check = match still_good {
            Some(check) => check,
            None => {
                let check = settings.check(text).shown();
                match serde_json::to_string(&check) {
                    Ok(json) => fresh.push(FreshCheck {
                        history_id: view.id.clone(),
                        seq: kept.seq,
                        payload: kept.payload,
                        check: json,
                    }),
                    Err(err) => tracing::error!(%err, history = view.id, "a block check could not be kept"),
                }
                check
            }
        };
        shown.push((kept.row, check));
    }
    if !states.is_empty() {
        apply_block_states(&view.id, states, &mut shown);
    }
    for (index, check) in shown {
        if let Some(HistoryRow::Assistant { blocks, .. }) = view.rows.get_mut(index) {
            *blocks = Some(Box::new(check));
        }
    }
    (view, fresh)
}

/// Each saved block state (block id, JSON) replaces its namesake in the newest checked
/// document that has it.
fn apply_block_states(history_id: &str, states: Vec<(String, String)>, checks: &mut [(usize, ShownCheck)]) {
    let mut documents: Vec<(Option<BlocksDocument>, bool)> = checks
        .iter()
        .map(|(_, check)| (check.doc.clone().and_then(|doc| BlocksDocument::deserialize(doc).ok()), false))
        .collect();
    for (block_id, json) in states {
        let saved = match serde_json::from_str::<Block>(&json) {
            Ok(saved) => saved,
            Err(err) => {
                tracing::error!(%err, history = history_id, block = block_id, "unreadable block state left out");
                continue;
            }
        };
        let newest = documents.iter_mut().rev().find_map(|(document, changed)| {
            let slot = document.as_mut().and_then(|document| Block::find_mut(&mut document.blocks, &block_id))?;
            Some((slot, changed))
        });
        if let Some((slot, changed)) = newest.filter(|(slot, _)| slot.type_name() == saved.type_name()) {
            *slot = saved;
            *changed = true;
        }
    }
    for ((_, check), (document, changed)) in checks.iter_mut().zip(documents) {
        if changed {
            // A document's types hold only strings, numbers, lists and string-keyed maps.
            check.doc = document.and_then(|document| serde_json::to_value(document).ok());
        }
    }
}
