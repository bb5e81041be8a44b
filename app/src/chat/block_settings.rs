//! How this server takes block replies (`uiBlocks`): what the host allows, the prompt section
//! that asks the model for a document.

use palaver_contract::blocks::{
    BlockOptions, BlocksCheck, BlocksPromptOptions, SCALE_STEPPER, TOGGLE_CHECKLIST, blocks_prompt_section,
    check_blocks_text,
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
    pub fn check(&self, text: &str) -> BlocksCheck {
        check_blocks_text(text, &self.options())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_actions_are_offered() {
        let section = BlocksSettings::default().prompt_section();
        assert!(section.contains("stepper requires") && section.contains("toggleChecklist"));
        assert!(section.contains("Do not emit type html"));
    }
}
