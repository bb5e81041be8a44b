//! Block replies in a turn (`uiBlocks`): the repair request for an invalid document (what the
//! host allows and the prompt section are `chat::BlocksSettings`).

use palaver_contract::blocks::{BlocksCheck, error_lines};

/// The user message of the one repair call.
pub fn repair_prompt(text: &str, check: &BlocksCheck) -> String {
    format!("Document:\n{text}\n\nErrors:\n{}", error_lines(check))
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_contract::blocks::check_blocks_text;

    #[test]
    fn the_repair_prompt_lists_the_errors() {
        let text = "v: 1\nblocks:\n  - type: heading\n";
        let check = check_blocks_text(text, &crate::chat::BlocksSettings::default().options());
        assert!(
            repair_prompt(text, &check)
                .ends_with("Errors:\n- blocks[0].text MISSING_REQUIRED A required field is missing.")
        );
    }
}
