//! The reply document (`uiBlocks`): a finished reply checked as a block document, repaired
//! once when the host allows, its html sanitized (what the host allows and the prompt section
//! are `conversation::BlocksSettings`).

use super::request_log::UiBlocksLog;
use super::run::Turn;
use crate::conversation::BlocksSettings;
use crate::llm::{CallPurpose, ModelMessage, ModelRequest};
use palaver_contract::blocks::{
    BLOCKS_REPAIR_SYSTEM_PROMPT, BlockOptions, BlocksCheck, check_blocks_text, parse_blocks_partial,
};
use palaver_wire::conversation::model::TurnEvent;
use serde_json::Value;

/// A reply's check, made off the async workers (parsing and checking a document is CPU work);
/// `None` only if the check itself failed.
async fn checked(text: String, options: BlockOptions) -> Option<BlocksCheck> {
    tokio::task::spawn_blocking(move || check_blocks_text(&text, &options)).await.ok()
}

/// A JSON document of these datasets and blocks, its keys in the order the contract asks for.
fn document_text(datasets: Option<Value>, blocks: Vec<Value>) -> String {
    let blocks = Value::Array(blocks);
    match datasets {
        Some(datasets) => format!("{{\"v\": 1, \"datasets\": {datasets}, \"blocks\": {blocks}}}"),
        None => format!("{{\"v\": 1, \"blocks\": {blocks}}}"),
    }
}

/// The user message of the one repair call.
fn repair_prompt(text: &str, check: &BlocksCheck) -> String {
    format!("Document:\n{text}\n\nErrors:\n{}", check.error_lines())
}

impl Turn {
    /// With blocks on, the finished reply is a document: checked (and repaired once when the
    /// host allows), its html sanitized, then `{blocks}` tells the client how to show it.
    pub(super) async fn finish_document(&mut self) {
        let Some(settings) = self.blocks().cloned() else { return };
        if self.output.reply.trim().is_empty() {
            return;
        }
        let streamed = self.output.reply.clone();
        self.show_document(&settings, &streamed, settings.repair).await;
    }

    /// A stopped reply that reads as a document keeps the blocks it had finished (the last one
    /// may have been cut short, so it goes), marked cut off: never its source shown as text.
    pub(super) async fn finish_stopped_document(&mut self) {
        let Some(settings) = self.blocks().cloned() else { return };
        if !palaver_contract::blocks::reads_as_document(&self.output.reply) {
            return;
        }
        let streamed = std::mem::take(&mut self.output.reply);
        let partial = parse_blocks_partial(&streamed);
        self.output.interrupted = true;
        if partial.blocks.is_empty() {
            self.events.emit(TurnEvent::Replace { replace: "text".into(), text: String::new() }).await;
            return;
        }
        self.output.reply = document_text(partial.datasets, partial.blocks);
        self.show_document(&settings, &streamed, false).await;
    }

    /// Checks the reply as a document (repairing it once when `repair`), sanitizes its html,
    /// and tells the client how to show it (`streamed`: the text it was sent).
    async fn show_document(&mut self, settings: &BlocksSettings, streamed: &str, repair: bool) {
        let options = settings.options();
        let Some(mut check) = checked(self.output.reply.clone(), options.clone()).await else { return };
        let mut repaired = false;
        if !check.ok
            && repair
            && let Some(text) = self.repair(settings, &check).await
            && let Some(repaired_check) = checked(text.clone(), options.clone()).await
        {
            check = repaired_check;
            self.output.reply = text;
            repaired = true;
        }
        if check.ok && settings.html {
            let (text, html_options) = (self.output.reply.clone(), options.clone());
            let clean = tokio::task::spawn_blocking(move || {
                palaver_contract::blocks::sanitize_blocks_text(&text, &html_options)
            })
            .await
            .ok()
            .flatten();
            if let Some(clean) = clean
                && let Some(clean_check) = checked(clean.clone(), options.clone()).await
            {
                check = clean_check;
                self.output.reply = clean;
            }
        }
        if self.output.reply != streamed {
            self.events.emit(TurnEvent::Replace { replace: "text".into(), text: self.output.reply.clone() }).await;
        }
        self.record.metadata.ui_blocks = Some(UiBlocksLog {
            ok: check.ok,
            error_codes: check.error_codes(),
            warning_codes: check.warnings.iter().map(|warning| warning.code).collect(),
            repaired,
        });
        // Prose is shown as text; a document that stayed invalid keeps its errors beside the
        // text, for the replay to tell the model.
        if !check.ok && !check.is_prose() {
            self.output.block_errors = check.error_lines();
        }
        self.output.document = true;
        self.events.emit(TurnEvent::Blocks { blocks: Box::new(check.shown()) }).await;
    }

    /// One more model call to fix an invalid document; `None` when it gave nothing usable.
    pub(super) async fn repair(&mut self, settings: &BlocksSettings, check: &BlocksCheck) -> Option<String> {
        let request = ModelRequest {
            system: format!("{BLOCKS_REPAIR_SYSTEM_PROMPT}\n\n{}", settings.prompt_section()),
            messages: vec![ModelMessage::User { text: repair_prompt(&self.output.reply, check), parts: Vec::new() }],
            tools: Vec::new(),
            purpose: CallPurpose::Turn,
        };
        let (text, usage) = crate::llm::whole_text(self.model.as_ref(), request).await.ok()?;
        self.record.add_usage(&usage);
        (!text.trim().is_empty()).then_some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_contract::blocks::check_blocks_text;

    #[test]
    fn the_repair_prompt_lists_the_errors() {
        let text = "v: 1\nblocks:\n  - type: heading\n";
        let check = check_blocks_text(text, &crate::conversation::BlocksSettings::default().options());
        assert!(
            repair_prompt(text, &check)
                .ends_with("Errors:\n- blocks[0].text MISSING_REQUIRED A required field is missing.")
        );
    }
}
