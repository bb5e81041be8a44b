//! The ask contract: what an agent may ask, what a user may answer, and how each ask becomes a
//! simple card. Pure (no I/O, no Leptos), compiled for the server and the browser alike, so
//! both run the very same validators.

pub mod answer_schema;
mod ask;
mod card;
mod check;
mod errors;
mod field_patterns;
mod files;
mod form_field;
mod form_values;
mod input;
mod json_schemas;
mod limits;
mod prompt;
mod question_set;
mod response;
mod told;
mod tools;
mod validate_choice;
mod validate_common;
mod validate_form;
mod validate_input;
mod validate_questions;

pub use ask::Ask;
pub use card::{
    ButtonStyle, SIMPLE_CARD_BUTTON_STYLES, SimpleCard, SimpleCardButton, check_simple_card, option_labels,
    resolve_button_answer, to_simple_card,
};
pub use errors::{AskError, AskErrorCode, Path, finalize};
pub use field_patterns::{FieldPattern, check_field_patterns};
pub use files::{
    DataUrl, SniffedFileType, accepted_file_mime_types, check_ask_file_bytes, file_not_owned_error, format_bytes,
    is_text_file_mime_type, parse_ask_data_url, sniff_file_bytes,
};
pub use form_field::{FORM_FIELD_TYPES, FormField, FormFieldType, FormOption};
pub use form_values::{is_blank, number_value, whole_numbers_as_integers};
pub use input::{
    ASK_FILE_ACCEPT, ASK_KINDS, AskKind, AskSurface, Bounds, COMPACT_ASK_KINDS, ChoiceInput, ChoiceOption,
    ConfirmInput, FileAccept, FilesInput, FormInput, MarkdownInput, SelectMode, ask_kinds_for_surface,
};
pub use json_schemas::ask_json_schemas;
pub use limits::{ASK_LIMITS, AskLimits};
pub use prompt::{ASKS_SYSTEM_PROMPT, COMPACT_SURFACE_SYSTEM_PROMPT, ask_prompt_section};
pub use question_set::{Question, QuestionsInput, minted_id};
pub use response::{ASK_CANCEL_REASONS, AskResponse, validate_ask_response};
pub use told::told_answer;
pub use tools::{AskTool, ask_input_schema_for, ask_tools, object_schemas};
pub use validate_input::{kind_offered_on, parse_ask_input, parse_stored_ask, validate_ask_input};
