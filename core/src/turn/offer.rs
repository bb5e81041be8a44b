//! What the model is offered in a turn: the system prompt and the tool definitions (the ask
//! kinds the surface takes, block documents on full screens, the host tools).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use super::arguments;
use super::run::Turn;
use super::{BASE_SYSTEM_PROMPT, INSTRUCTIONS_INTRO};
use crate::conversation::BlocksSettings;
use crate::llm::ToolDefinition;
use palaver_contract::asks::{
    ASKS_SYSTEM_PROMPT, AskKind, AskSurface, COMPACT_SURFACE_SYSTEM_PROMPT, ask_prompt_section, ask_tools,
};

/// The ask tools and their prompt section for one set of kinds on one surface.
struct AskOffer {
    tools: Vec<ToolDefinition>,
    /// Empty when no kind is offered.
    prompt_section: String,
}

type Memo<K, V> = LazyLock<Mutex<HashMap<K, Arc<V>>>>;

/// What the offer takes from the configuration alone is built once per configuration: rebuilding
/// the ask tools' JSON Schemas and the prompt sections on every model call was a tenth of a
/// cycle's CPU. Configurations are few, so the memos stay small.
static ASK_OFFERS: Memo<(Vec<AskKind>, AskSurface), AskOffer> = LazyLock::new(Default::default);
static BLOCKS_SECTIONS: Memo<BlocksSettings, String> = LazyLock::new(Default::default);

fn memoized<K: Hash + Eq, V>(memo: &Memo<K, V>, key: K, make: impl FnOnce(&K) -> V) -> Arc<V> {
    let mut built = memo.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(value) = built.get(&key) {
        return value.clone();
    }
    let value = Arc::new(make(&key));
    built.insert(key, value.clone());
    value
}

fn ask_offer(kinds: Vec<AskKind>, surface: AskSurface) -> Arc<AskOffer> {
    memoized(&ASK_OFFERS, (kinds, surface), |(kinds, surface)| AskOffer {
        tools: ask_tools(kinds, *surface)
            .into_iter()
            .map(|tool| ToolDefinition {
                name: tool.name,
                description: tool.description.to_string(),
                input_schema: tool.input_schema,
            })
            .collect(),
        prompt_section: ask_prompt_section(kinds, *surface),
    })
}

impl Turn {
    /// Block documents are for full screens: a compact turn replies in short text.
    pub(super) fn blocks(&self) -> Option<&BlocksSettings> {
        self.runner.settings.blocks.as_ref().filter(|_| self.ids.surface == AskSurface::Full)
    }

    pub(super) fn offered_kinds(&self) -> Vec<AskKind> {
        if !self.offer.takes_tools {
            return Vec::new();
        }
        palaver_contract::asks::ask_kinds_for_surface(&self.runner.settings.ask_kinds, self.ids.surface)
    }

    /// Reference Q.5: the request's prompt (or Palaver's persona line), then the asks, blocks and
    /// compact sections; with no other section, the request's prompt unchanged. An empty one
    /// leaves the persona line out.
    pub(super) fn system_prompt(&self) -> String {
        let first = self.offer.system_prompt.as_deref().unwrap_or(BASE_SYSTEM_PROMPT);
        let mut sections: Vec<String> =
            [first].into_iter().filter(|first| !first.is_empty()).map(String::from).collect();
        if let (None, Some(instructions)) = (&self.offer.system_prompt, &self.offer.instructions) {
            sections.push(format!("{INSTRUCTIONS_INTRO}\n\n{instructions}"));
        }
        let asks = ask_offer(self.offered_kinds(), self.ids.surface);
        if !asks.prompt_section.is_empty() {
            sections.push(format!("{ASKS_SYSTEM_PROMPT}\n\n{}", asks.prompt_section));
        }
        if let Some(blocks) = self.blocks() {
            sections.push(memoized(&BLOCKS_SECTIONS, blocks.clone(), BlocksSettings::prompt_section).to_string());
        }
        if self.ids.surface == AskSurface::Compact {
            sections.push(COMPACT_SURFACE_SYSTEM_PROMPT.to_string());
        }
        sections.join("\n\n")
    }

    pub(super) fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let asks = ask_offer(self.offered_kinds(), self.ids.surface).tools.clone();
        let hosts = self.tools.iter().map(|tool| ToolDefinition {
            name: tool.name().to_string(),
            description: tool.description().to_string(),
            input_schema: arguments::model_schema(&tool.input_schema()),
        });
        let clients = self.offer.client_tools.iter().map(|tool| ToolDefinition {
            name: tool.name.clone(),
            description: tool.description.clone(),
            input_schema: tool.parameters.clone(),
        });
        asks.into_iter().chain(hosts).chain(clients).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configurations_ask_offer_is_built_once_and_is_what_building_it_gives() {
        for surface in [AskSurface::Full, AskSurface::Compact] {
            let kinds = vec![AskKind::Choice, AskKind::Confirm, AskKind::Markdown];
            let first = ask_offer(kinds.clone(), surface);
            assert!(Arc::ptr_eq(&first, &ask_offer(kinds.clone(), surface)), "built once");
            assert_eq!(first.prompt_section, ask_prompt_section(&kinds, surface));
            let fresh: Vec<_> =
                ask_tools(&kinds, surface).into_iter().map(|tool| (tool.name, tool.input_schema)).collect();
            let offered: Vec<_> =
                first.tools.iter().map(|tool| (tool.name.clone(), tool.input_schema.clone())).collect();
            assert_eq!(offered, fresh);
        }
        assert!(!Arc::ptr_eq(
            &ask_offer(vec![AskKind::Choice], AskSurface::Full),
            &ask_offer(vec![AskKind::Confirm], AskSurface::Full)
        ));
    }
}
