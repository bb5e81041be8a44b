//! What the model is offered in a turn: the system prompt and the tool definitions (the ask
//! kinds the surface takes, block documents on full screens, the host tools).

use super::arguments;
use super::run::Turn;
use super::{BASE_SYSTEM_PROMPT, INSTRUCTIONS_INTRO};
use crate::conversation::BlocksSettings;
use crate::llm::ToolDefinition;
use palaver_contract::asks::{
    ASKS_SYSTEM_PROMPT, AskKind, AskSurface, COMPACT_SURFACE_SYSTEM_PROMPT, ask_prompt_section, ask_tools,
};

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
        let kinds = self.offered_kinds();
        if !kinds.is_empty() {
            sections.push(format!("{ASKS_SYSTEM_PROMPT}\n\n{}", ask_prompt_section(&kinds, self.ids.surface)));
        }
        if let Some(blocks) = self.blocks() {
            sections.push(blocks.prompt_section());
        }
        if self.ids.surface == AskSurface::Compact {
            sections.push(COMPACT_SURFACE_SYSTEM_PROMPT.to_string());
        }
        sections.join("\n\n")
    }

    pub(super) fn tool_definitions(&self) -> Vec<ToolDefinition> {
        let asks = ask_tools(&self.offered_kinds(), self.ids.surface).into_iter().map(|tool| ToolDefinition {
            name: tool.name,
            description: tool.description.to_string(),
            input_schema: tool.input_schema,
        });
        let hosts = self.tools.iter().map(|tool| ToolDefinition {
            name: tool.name().to_string(),
            description: tool.description().to_string(),
            input_schema: arguments::model_schema(&tool.input_schema()),
        });
        asks.chain(hosts).collect()
    }
}
