//! The reply document (`uiBlocks`): a finished reply checked as a block document, repaired
//! once when the host allows, its html sanitized (what the host allows and the prompt section
//! are `conversation::BlocksSettings`).

use super::request_log::UiBlocksLog;
use super::run::Turn;
use crate::conversation::BlocksSettings;
use crate::llm::{CallPurpose, ModelMessage, ModelRequest};
use palaver_contract::blocks::{BLOCKS_REPAIR_SYSTEM_PROMPT, BlockOptions, BlocksCheck, check_blocks_text};
use palaver_wire::conversation::model::TurnEvent;

/// A reply's check, made off the async workers (parsing and checking a document is CPU work);
/// `None` only if the check itself failed.
async fn checked(text: String, options: BlockOptions) -> Option<BlocksCheck> {
    tokio::task::spawn_blocking(move || check_blocks_text(&text, &options)).await.ok()
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
        let options = settings.options();
        let streamed = self.output.reply.clone();
        let Some(mut check) = checked(self.output.reply.clone(), options.clone()).await else { return };
        let mut repaired = false;
        if !check.ok
            && settings.repair
            && let Some(text) = self.repair(&settings, &check).await
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
