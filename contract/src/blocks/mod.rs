//! Display blocks: the reply documents agents can answer with (`v`, `datasets`, `blocks`).
//! Pure and I/O-free like the ask contract, compiled for the server and the browser: parsing
//! (YAML or JSON, streaming too), the schema (and its JSON Schema), the lint, the prompt section, and the helpers
//! the renderer and the host share. The HTML block's sanitizer (the `sanitize` feature) runs on the server only.

mod catalog;
mod errors;
mod frame;
mod interactive;
mod json_schema;
mod limits;
mod lint;
pub mod model;
mod parse;
mod partial;
mod plain_text;
mod prompt;
#[cfg(feature = "sanitize")]
mod sanitize;
mod schema;
mod validate;
mod yaml;

pub use errors::{BlockError, BlockErrorCode, BlockWarning, BlockWarningCode, sort_block_errors};
pub use frame::{HTML_FRAME_CSP, HtmlHeight, frame_srcdoc};
pub use interactive::{
    SCALE_STEPPER, TOGGLE_CHECKLIST, apply_checklist_state, is_stepper_value_allowed, scale_stepper_block,
    unknown_checklist_item_ids,
};
pub use json_schema::blocks_json_schema;
pub use lint::{BlockOptions, checklist_element_id, image_source_allowed, stepper_element_ids};
pub use model::BlocksDocument;
pub use parse::{ParsedBlocks, parse_blocks, reads_as_document, strip_blocks_fence};
pub use partial::{PartialBlocks, parse_blocks_partial};
pub use plain_text::{block_plain_text, cell_text};
pub use prompt::{BLOCKS_REPAIR_SYSTEM_PROMPT, BlocksPromptOptions, blocks_prompt_section};
#[cfg(feature = "sanitize")]
pub use sanitize::{sanitize_blocks_text, sanitize_html_fragment};
pub use validate::{BlocksCheck, ShownCheck, check_blocks_text, check_structure, validate_blocks};
#[cfg(fuzzing)]
pub use yaml::{YamlDocument, YamlProblem, read_with_both};
