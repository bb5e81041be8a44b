//! `palaver blocks check`: the block contract on the command line. Reads a reply document on
//! stdin and prints `{"errors": [...], "warnings": [...]}`.

use serde_json::json;

use palaver_contract::blocks::{BlockOptions, check_blocks_text};

use crate::asks_cli::Outcome;

pub fn check(stdin: &[u8], options: &BlockOptions) -> Outcome {
    let Ok(text) = std::str::from_utf8(stdin) else {
        return Outcome::unreadable("The document is not UTF-8 text.");
    };
    let check = check_blocks_text(text, options);
    Outcome::printed(check.ok, &json!({"errors": check.errors, "warnings": check.warnings}))
}
