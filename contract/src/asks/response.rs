//! Answers: the envelope (`accept` / `decline` / `cancel`) and `validate_ask_response`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ask::Ask;
use super::check::Checker;
use super::errors::{AskError, AskErrorCode, Loc, finalize};
use super::files::{accepted_file_mime_types, parse_ask_data_url, too_large};
use super::form_values::{check_form_value, is_blank};
use super::input::{Bounds, ChoiceInput, FilesInput, FormInput, MarkdownInput, SelectMode};
use super::limits::ASK_LIMITS;
use crate::text::{js_trim, utf16_len};

/// An answer to an ask (the MCP elicitation shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "lowercase")]
pub enum AskResponse {
    Accept {
        content: Map<String, Value>,
    },
    Decline,
    Cancel {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

impl AskResponse {
    pub fn accept(content: Value) -> Self {
        match content {
            Value::Object(content) => AskResponse::Accept { content },
            _ => AskResponse::Accept { content: Map::new() },
        }
    }

    pub fn action(&self) -> &'static str {
        match self {
            AskResponse::Accept { .. } => "accept",
            AskResponse::Decline => "decline",
            AskResponse::Cancel { .. } => "cancel",
        }
    }

    /// The reason a cancel gives, if it gives one.
    pub fn cancel_reason(&self) -> Option<&str> {
        match self {
            AskResponse::Cancel { reason } => reason.as_deref(),
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// Why the server cancels an ask for the user (`ASK_CANCEL_REASONS`).
pub const ASK_CANCEL_REASONS: [&str; 2] = ["one_ask_at_a_time", "user_sent_message"];

/// The errors of an answer to `ask`, sorted; empty when valid (`validateAskResponse`).
/// `max_file_size_bytes` is the host's per-file cap for `files` answers.
pub fn validate_ask_response(ask: &Ask, response: &Value, max_file_size_bytes: u64) -> Vec<AskError> {
    let mut ck = Checker::default();
    let root = Loc::Root;
    let Some(content) = envelope(&mut ck, response) else {
        return finalize(ck.errors);
    };
    let Some(content) = content else {
        // decline or cancel
        if response["action"] == "decline" && !ask.allows_decline() {
            ck.push(
                root.key("action"),
                AskErrorCode::DECLINE_NOT_ALLOWED,
                "This ask cannot be skipped.",
                "Answer with action \"accept\".",
            );
        }
        return finalize(ck.errors);
    };
    check_content(&mut ck, ask, content, max_file_size_bytes);
    finalize(ck.errors)
}

/// Whether `content` (an object) is the content of a valid accept answer to `ask`: what
/// [`validate_ask_response`] finds of `{"action": "accept", "content": content}`, without
/// building that envelope.
pub(super) fn accepts(ask: &Ask, content: &Value, max_file_size_bytes: u64) -> bool {
    let mut ck = Checker::default();
    check_content(&mut ck, ask, content, max_file_size_bytes);
    ck.errors.is_empty()
}

/// Checks an accept answer's content, an object.
fn check_content(ck: &mut Checker, ask: &Ask, content: &Value, max_file_size_bytes: u64) {
    let at = Loc::Root.key("content");
    match ask {
        Ask::Choice(input) => choice_answer(ck, input, content, at),
        Ask::Confirm(_) => {
            if let Some(object) = ck.object(content, at, &["confirmed"]) {
                ck.required(object, at, "confirmed");
                ck.boolean(object, at, "confirmed");
            }
        }
        Ask::Markdown(input) => markdown_answer(ck, input, content, at),
        Ask::Form(input) => form_answer(ck, input, content, at),
        Ask::Files(input) => files_answer(ck, input, content, at, max_file_size_bytes),
        Ask::Questions(input) => super::validate_questions::questions_answer(ck, input, content, at),
    }
}

/// Checks the envelope. `None`: it is invalid; `Some(None)`: a valid decline or cancel;
/// `Some(Some(content))`: an accept and its content.
fn envelope<'v>(ck: &mut Checker, response: &'v Value) -> Option<Option<&'v Value>> {
    let root = Loc::Root;
    let Value::Object(object) = response else {
        ck.invalid_type(root, super::check::Expected::Object, response);
        return None;
    };
    // One pass for the three keys an envelope may have; which are allowed depends on the action.
    let (mut action, mut content, mut reason) = (None, None, None);
    for (key, value) in object {
        match key.as_str() {
            "action" => action = Some(value),
            "content" => content = Some(value),
            "reason" => reason = Some(value),
            _ => {}
        }
    }
    let action = ck
        .present(action, root, "action")
        .and_then(|value| ck.one_of(value, root.key("action"), &["accept", "decline", "cancel"]))?;
    let allowed: &[&str] = match action {
        "accept" => &["action", "content"],
        "decline" => &["action"],
        _ => &["action", "reason"],
    };
    for key in object.keys().filter(|key| !allowed.contains(&key.as_str())) {
        ck.unknown_key(root, key);
    }
    let content = match action {
        "accept" => {
            ck.present(content, root, "content").and_then(|content| ck.any_object(content, root.key("content")))
        }
        "decline" => None,
        _ => {
            if let Some(reason) = reason {
                ck.visible_text(reason, root.key("reason"), ASK_LIMITS.cancel_reason_max_length);
            }
            None
        }
    };
    if !ck.errors.is_empty() {
        return None;
    }
    Some(if action == "accept" { content } else { None })
}

fn bounds_text(bounds: Bounds, noun: &str, plural: &str, zero_means_at_most: bool) -> String {
    let name = |count: i64| if count == 1 { noun } else { plural };
    if bounds.min == bounds.max {
        format!("exactly {} {}", bounds.max, name(bounds.max))
    } else if zero_means_at_most && bounds.min == 0 {
        format!("at most {} {}", bounds.max, name(bounds.max))
    } else {
        format!("{} to {} {}", bounds.min, bounds.max, plural)
    }
}

fn choice_answer(ck: &mut Checker, input: &ChoiceInput, content: &Value, at: Loc<'_>) {
    let Some([selected, other]) = ck.fields(content, at, ["selected", "other"]) else { return };
    let selected_at = at.key("selected");
    let selected = ck
        .present(selected, at, "selected")
        .and_then(|value| ck.string_list(value, selected_at, 0, ASK_LIMITS.choice.options_max));
    let other = other.and_then(|value| ck.visible_text(value, at.key("other"), ASK_LIMITS.choice.other_max_length));
    if !ck.errors.is_empty() {
        return;
    }
    let Some(selected) = selected else { return };
    let allows_other = input.allow_other == Some(true);
    if other.is_some() && !allows_other {
        ck.push(
            at.key("other"),
            AskErrorCode::OTHER_NOT_ALLOWED,
            "This ask does not accept an Other answer.",
            "Remove content.other and pick from the options.",
        );
    }
    let counted_other = other.is_some() && allows_other;
    let count = i64::try_from(selected.len()).unwrap_or(i64::MAX) + i64::from(counted_other);
    let bounds = input.selection_bounds();
    if count < bounds.min || count > bounds.max {
        let (message, fix) = match input.select {
            SelectMode::One => (
                format!("Choose exactly one option; the answer selects {count}."),
                "Send exactly one option id in content.selected.".to_string(),
            ),
            SelectMode::Many => {
                let range = bounds_text(bounds, "option", "options", true);
                let counting = if counted_other { ", counting Other" } else { "" };
                let other_note = if allows_other { " Other counts as one choice." } else { "" };
                (
                    format!("Choose {range}; the answer selects {count}{counting}."),
                    format!("Send {range} in content.selected.{other_note}"),
                )
            }
        };
        ck.push(selected_at, AskErrorCode::SELECTION_COUNT, message, fix);
    }
    for (index, id) in selected.iter().filter_map(Value::as_str).enumerate() {
        let item = selected_at.index(index);
        if let Some(first) = selected[..index].iter().position(|earlier| earlier.as_str() == Some(id)) {
            ck.push(
                item,
                AskErrorCode::DUPLICATE_ID,
                format!("\"{id}\" is already selected at content.selected[{first}]."),
                "List each option id in content.selected once.",
            );
        } else if !input.options.iter().any(|option| option.id == id) {
            ck.push(
                item,
                AskErrorCode::OPTION_NOT_OFFERED,
                format!("{} is not one of the offered options.", super::errors::quote_str(id)),
                "Use the id of one of the ask's options.",
            );
        }
    }
}

fn markdown_answer(ck: &mut Checker, input: &MarkdownInput, content: &Value, at: Loc<'_>) {
    let bounds = input.length_bounds();
    let markdown_at = at.key("markdown");
    let too_long = |ck: &mut Checker, length: usize| {
        ck.push(
            markdown_at,
            AskErrorCode::TOO_LONG,
            format!("The text is {length} characters, but this ask allows at most {}.", bounds.max),
            format!("Shorten content.markdown to {} characters or fewer.", bounds.max),
        );
    };
    let Some(object) = ck.object(content, at, &["changed", "markdown"]) else { return };
    let changed = ck.required(object, at, "changed").and(ck.boolean(object, at, "changed"));
    let markdown = ck.required(object, at, "markdown").and_then(|value| ck.string(value, markdown_at));
    let cap = ASK_LIMITS.markdown.max_length;
    if !ck.errors.is_empty() {
        if let Some(text) = markdown.filter(|text| text.chars().count() > cap) {
            too_long(ck, utf16_len(text));
        }
        return;
    }
    let (Some(changed), Some(markdown)) = (changed, markdown) else { return };
    let length = utf16_len(markdown);
    if i64::try_from(length).unwrap_or(i64::MAX) > bounds.max.min(cap as i64) {
        too_long(ck, length);
    }
    let trimmed = utf16_len(js_trim(markdown));
    if i64::try_from(trimmed).unwrap_or(i64::MAX) < bounds.min {
        ck.push(
            markdown_at,
            AskErrorCode::TOO_SHORT,
            format!("The text is {trimmed} characters, but this ask needs at least {}.", bounds.min),
            format!("Write at least {} characters in content.markdown.", bounds.min),
        );
    }
    let differs = markdown != input.initial.as_deref().unwrap_or_default();
    if changed != differs {
        let message = if differs {
            "The text differs from the draft, but changed is false."
        } else {
            "The text is the same as the draft, but changed is true."
        };
        ck.push(
            at.key("changed"),
            AskErrorCode::CHANGED_MISMATCH,
            message,
            format!("Set content.changed to {differs}."),
        );
    }
}

fn form_answer(ck: &mut Checker, input: &FormInput, content: &Value, at: Loc<'_>) {
    let Some(object) = ck.object(content, at, &["values"]) else { return };
    let values_at = at.key("values");
    let values = ck.required(object, at, "values").and_then(|values| ck.any_object(values, values_at));
    let Some(Value::Object(values)) = values.filter(|_| ck.errors.is_empty()) else {
        return;
    };
    for key in values.keys() {
        if !input.fields.iter().any(|field| &field.id == key) {
            ck.push(
                values_at.name(key),
                AskErrorCode::UNKNOWN_KEY,
                format!("\"{key}\" is not the id of any field in this form."),
                format!("Remove \"{key}\" from content.values."),
            );
        }
    }
    for (index, field) in input.fields.iter().enumerate() {
        let value_at = values_at.name(&field.id);
        match values.get(&field.id) {
            None => {}
            Some(value) if is_blank(value) => {}
            Some(value) => {
                check_form_value(ck, field, index, value, value_at, false);
                continue;
            }
        }
        if field.is_required() {
            ck.push(
                value_at,
                AskErrorCode::REQUIRED_FIELD,
                format!("\"{}\" is required.", field.label),
                format!("Fill in \"{}\" (content.values.{}).", field.label, field.id),
            );
        }
    }
}

const FILE_REF_KEYS: &[&str] = &["fileId", "filename", "mimeType", "size", "url"];

fn files_answer(ck: &mut Checker, input: &FilesInput, content: &Value, at: Loc<'_>, max_file_size_bytes: u64) {
    let Some(object) = ck.object(content, at, &["files"]) else { return };
    let files_at = at.key("files");
    let Some(files) = ck.required(object, at, "files").and_then(|files| ck.list(files, files_at, 0, usize::MAX)) else {
        return;
    };
    for (index, file) in files.iter().enumerate() {
        file_ref(ck, file, files_at.index(index));
    }
    if !ck.errors.is_empty() {
        return;
    }
    let bounds = input.count_bounds();
    let count = i64::try_from(files.len()).unwrap_or(i64::MAX);
    if count < bounds.min || count > bounds.max {
        let range = bounds_text(bounds, "file", "files", false);
        ck.push(
            files_at,
            AskErrorCode::FILE_COUNT,
            format!("This ask takes {range}; the answer has {count}."),
            format!("Send {range} in content.files."),
        );
    }
    let accepted = accepted_file_mime_types(&input.accept);
    for (index, file) in files.iter().enumerate() {
        let file_at = files_at.index(index);
        let mime_type = file["mimeType"].as_str().unwrap_or_default();
        if !accepted.contains(&mime_type) {
            let filename = file["filename"].as_str().unwrap_or_default();
            ck.push(
                file_at.key("mimeType"),
                AskErrorCode::FILE_TYPE_NOT_ACCEPTED,
                format!("\"{filename}\" is {mime_type}, which this ask does not accept."),
                format!("Send a file of type {}.", accepted.join(", ")),
            );
        }
        let declared = file["size"].as_f64().unwrap_or_default().max(0.0) as u64;
        let data_url = file["url"].as_str().and_then(parse_ask_data_url);
        let size = data_url.as_ref().map_or(declared, |url| url.byte_length() as u64).max(declared);
        if size > max_file_size_bytes {
            ck.errors.push(too_large(file_at.key("size"), size, max_file_size_bytes));
        }
        if let Some(url) = data_url.filter(|url| url.media_type != mime_type) {
            ck.push(
                file_at.key("url"),
                AskErrorCode::MIME_MISMATCH,
                format!("The data URL holds {}, but the file is declared as {mime_type}.", url.media_type),
                format!("Make the data URL's media type {mime_type}, or declare {}.", url.media_type),
            );
        }
    }
}

fn file_ref(ck: &mut Checker, value: &Value, at: Loc<'_>) {
    let aborted_before = std::mem::take(&mut ck.aborted);
    let errors_before = ck.errors.len();
    let Some(object) = ck.object(value, at, FILE_REF_KEYS) else {
        ck.aborted = true;
        return;
    };
    if let Some(id) = object.get("fileId").and_then(|value| ck.string(value, at.key("fileId"))) {
        if id.is_empty() {
            ck.blank(at.key("fileId"));
        } else if id.chars().count() > 64 {
            ck.too_long(at.key("fileId"), 64);
        }
    }
    ck.required(object, at, "filename")
        .and_then(|value| ck.visible_text(value, at.key("filename"), ASK_LIMITS.files.filename_max_length));
    if let Some(mime) = ck.required(object, at, "mimeType").and_then(|value| ck.string(value, at.key("mimeType"))) {
        if mime.is_empty() {
            ck.blank(at.key("mimeType"));
        } else if mime.chars().count() > 127 {
            ck.too_long(at.key("mimeType"), 127);
        }
    }
    if ck.required(object, at, "size").is_some() {
        ck.int(object, at, "size", 0, None);
    }
    let url = object.get("url").and_then(|value| ck.string(value, at.key("url")));
    if !ck.aborted && ck.errors.len() == errors_before {
        match (object.get("fileId"), url) {
            (None, None) => ck.push(
                at,
                AskErrorCode::MISSING_REQUIRED,
                "A file needs a fileId or a url.",
                "Add \"fileId\" (an upload from POST /files/upload) or \"url\" (a base64 data: URL).",
            ),
            (Some(_), Some(_)) => ck.push(
                at.key("url"),
                AskErrorCode::INVALID_FORMAT,
                "A file has both a fileId and a url.",
                "Send fileId or url, not both.",
            ),
            (None, Some(url)) if parse_ask_data_url(url).is_none() => ck.push(
                at.key("url"),
                AskErrorCode::INVALID_FORMAT,
                "url is not a base64 data: URL.",
                "Send the bytes as a base64 data: URL, such as \"data:image/png;base64,...\".",
            ),
            _ => {}
        }
    }
    ck.aborted |= aborted_before;
}
