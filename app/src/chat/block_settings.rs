//! How this server takes block replies (`uiBlocks`): what the host allows, the prompt section
//! that asks the model for a document, and how a stored reply is checked when it is read back.

use palaver_contract::blocks::{
    BlockOptions, BlocksCheck, BlocksPromptOptions, SCALE_STEPPER, TOGGLE_CHECKLIST, blocks_prompt_section,
    check_blocks_text, document_of,
};

/// How this server takes block replies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlocksSettings {
    /// The html block is allowed (sanitized, shown in a sandboxed frame).
    pub html: bool,
    /// Hosts https images may load from.
    pub image_hosts: Vec<String>,
    /// An invalid document gets one repair call.
    pub repair: bool,
}

impl BlocksSettings {
    pub fn options(&self) -> BlockOptions {
        BlockOptions {
            allow_html: self.html,
            host_actions: Some(vec![SCALE_STEPPER.into(), TOGGLE_CHECKLIST.into()]),
            stepper_actions: Some(vec![SCALE_STEPPER.into()]),
            checklist_actions: Some(vec![TOGGLE_CHECKLIST.into()]),
            image_hosts: self.image_hosts.clone(),
            ..BlockOptions::default()
        }
    }

    pub fn prompt_section(&self) -> String {
        blocks_prompt_section(&BlocksPromptOptions {
            allow_html: self.html,
            host_actions: vec![SCALE_STEPPER.into(), TOGGLE_CHECKLIST.into()],
            image_hosts: self.image_hosts.clone(),
            rich_blocks: true,
            stepper_actions: vec![SCALE_STEPPER.into()],
            checklist_actions: vec![TOGGLE_CHECKLIST.into()],
        })
    }

    /// The check of a stored reply, with this server's options.
    pub fn check_stored(&self, stored: &str) -> BlocksCheck {
        check_blocks_text(document_of(stored), &self.options())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_contract::blocks::stored_text;

    #[test]
    fn stored_errors_come_off_again() {
        let settings = BlocksSettings::default();
        let text = "v: 1\nblocks:\n  - type: heading\n";
        let check = check_blocks_text(text, &settings.options());
        let stored = stored_text(text, &check);
        assert_eq!(
            stored,
            format!(
                "{text}\n\nBlock validation errors:\n- blocks[0].text MISSING_REQUIRED A required field is missing."
            )
        );
        assert_eq!(document_of(&stored), text);
        assert_eq!(settings.check_stored(&stored), check);
    }

    #[test]
    fn the_built_in_actions_are_offered() {
        let section = BlocksSettings::default().prompt_section();
        assert!(section.contains("stepper requires") && section.contains("toggleChecklist"));
        assert!(section.contains("Do not emit type html"));
    }
}
