//! One document's shared state: its datasets, what each chart or table shows, the live
//! steppers and checklists, the blocks as written, and the page's actions.

use std::collections::{BTreeMap, HashMap};

use leptos::prelude::*;

use super::BlockActionsContext;
use crate::components::chart::ChartPoint;
use palaver_contract::blocks::model::{Block, BlocksDocument, Dataset};
use palaver_contract::blocks::{block_plain_text, cell_text, image_source_allowed};

/// One document's shared state.
#[derive(Clone, Copy)]
pub(super) struct DocState {
    pub(super) datasets: StoredValue<BTreeMap<String, Dataset>>,
    /// The dataset each chart or table shows, by block id, after a select.
    pub(super) selected: RwSignal<HashMap<String, String>>,
    /// Steppers and checklists as they are now (host callbacks replace them), by id.
    pub(super) live: StoredValue<HashMap<String, RwSignal<Block>>>,
    /// Every block with an id as written, for copy targets.
    pub(super) written: StoredValue<HashMap<String, Block>>,
    pub(super) actions: Option<BlockActionsContext>,
    /// While the document streams (not yet checked), the hosts its images may load from.
    streaming_image_hosts: Option<StoredValue<Vec<String>>>,
}

impl DocState {
    /// The state of a checked document, or of one still streaming (`streaming_image_hosts`).
    pub(super) fn new(document: &BlocksDocument, streaming_image_hosts: Option<Vec<String>>) -> Self {
        let mut live = HashMap::new();
        let mut written = HashMap::new();
        fn collect(
            blocks: &[Block],
            live: &mut HashMap<String, RwSignal<Block>>,
            written: &mut HashMap<String, Block>,
        ) {
            for block in blocks {
                if let Some(id) = block.id() {
                    written.insert(id.to_string(), block.clone());
                    if matches!(block, Block::Stepper(_) | Block::Checklist(_)) {
                        live.insert(id.to_string(), RwSignal::new(block.clone()));
                    }
                }
                collect(block.children(), live, written);
            }
        }
        collect(&document.blocks, &mut live, &mut written);
        DocState {
            datasets: StoredValue::new(document.datasets.clone()),
            selected: RwSignal::new(HashMap::new()),
            live: StoredValue::new(live),
            written: StoredValue::new(written),
            actions: use_context::<BlockActionsContext>(),
            streaming_image_hosts: streaming_image_hosts.map(StoredValue::new),
        }
    }

    /// Whether the document is still streaming: its html is not sanitized yet.
    pub(super) fn streaming(&self) -> bool {
        self.streaming_image_hosts.is_some()
    }

    /// Whether an image may load from `src`: any of a checked document (its check allowed
    /// it), only what the check will allow while the document streams.
    pub(super) fn may_load_image(&self, src: &str) -> bool {
        self.streaming_image_hosts.is_none_or(|hosts| hosts.with_value(|hosts| image_source_allowed(src, hosts)))
    }

    pub(super) fn live(&self, id: &str) -> Option<RwSignal<Block>> {
        self.live.with_value(|live| live.get(id).copied())
    }

    /// Puts blocks a host returned in place of the blocks with their ids.
    pub(super) fn replace(&self, blocks: Vec<Block>) {
        for block in blocks {
            if let Some(slot) = block.id().and_then(|id| self.live(id)) {
                slot.set(block);
            }
        }
    }

    /// The plain text of the block `id`, as it is now.
    pub(super) fn plain_text(&self, id: &str) -> String {
        let block = match self.live(id) {
            Some(live) => Some(live.get_untracked()),
            None => self.written.with_value(|written| written.get(id).cloned()),
        };
        block
            .map(|block| self.datasets.with_value(|datasets| block_plain_text(&block, &HashMap::new(), datasets)))
            .unwrap_or_default()
    }

    /// The points of dataset `name` along columns `x` and `y` (inline datasets only).
    pub(super) fn points(&self, name: &str, x: &str, y: &str) -> Vec<ChartPoint> {
        self.datasets.with_value(|datasets| {
            let Some(Dataset::Inline(dataset)) = datasets.get(name) else { return Vec::new() };
            let column = |wanted: &str| dataset.columns.iter().position(|column| column.name == wanted);
            let (Some(x), Some(y)) = (column(x), column(y)) else { return Vec::new() };
            dataset
                .rows
                .iter()
                .filter_map(|row| Some(ChartPoint { label: cell_text(row.get(x)?), value: row.get(y)?.as_f64()? }))
                .collect()
        })
    }
}
