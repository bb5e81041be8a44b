//! The strict schema check that walks a document against the block catalog (`catalog`),
//! reporting problems the way the reference maps its schema issues: the same codes, paths,
//! messages and fixes.

use serde_json::{Map, Value};

use super::catalog::*;
use super::errors::{BlockError, BlockErrorCode as Code, is_dataset_id_path};
use crate::path::Loc;
use crate::text::is_visible;

/// Checks a whole document value. `blocks_counted` says the structural pre-check already
/// reported too many blocks, so the list's own size error is not repeated.
pub fn check_document(document: &Value, blocks_counted: bool, errors: &mut Vec<BlockError>) {
    let mut checker = Checker { errors, blocks_counted };
    let root = Loc::Root;
    let Some(object) = checker.object(document, root, |key| matches!(key, "v" | "datasets" | "blocks")) else {
        return;
    };
    // A v other than 1 is UNSUPPORTED_VERSION, reported by the structural check.
    if !object.contains_key("v") {
        checker.missing(root.key("v"));
    }
    if let Some(datasets) = object.get("datasets") {
        checker.datasets(datasets, root.key("datasets"));
    }
    match object.get("blocks") {
        None => checker.missing(root.key("blocks")),
        Some(blocks) => checker.shape(&BLOCKS_1_50, blocks, root.key("blocks")),
    }
}

struct Checker<'e> {
    errors: &'e mut Vec<BlockError>,
    blocks_counted: bool,
}

impl Checker<'_> {
    fn push(&mut self, at: Loc<'_>, code: Code, message: impl Into<String>, fix: impl Into<String>) {
        self.errors.push(BlockError::new(at.path(), code, message, fix));
    }

    fn missing(&mut self, at: Loc<'_>) {
        let path = at.path();
        let fix = if path.is_root() { "Add the missing field.".to_string() } else { format!("Add {path}.") };
        self.errors.push(BlockError::described(&path, Code::MISSING_REQUIRED, fix));
    }

    fn wrong_type(&mut self, at: Loc<'_>, expected: &str) {
        let subject = at.path().subject();
        self.push(
            at,
            Code::INVALID_TYPE,
            format!("{subject} has the wrong type."),
            format!("Make {subject} {expected}."),
        );
    }

    fn object<'v>(
        &mut self,
        value: &'v Value,
        at: Loc<'_>,
        known: impl Fn(&str) -> bool,
    ) -> Option<&'v Map<String, Value>> {
        let Value::Object(object) = value else {
            self.wrong_type(at, "an object");
            return None;
        };
        for key in object.keys().filter(|key| !known(key)) {
            let path = at.path();
            let owner = if path.is_root() { "this object".to_string() } else { path.to_string() };
            self.push(
                at.name(key),
                Code::UNKNOWN_KEY,
                format!("\"{key}\" is not a field of {owner}."),
                format!("Remove \"{key}\"."),
            );
        }
        Some(object)
    }

    /// An object with `fields`, plus the `implied` tag key of a union member.
    fn fields(&mut self, value: &Value, at: Loc<'_>, fields: &[Field], implied: Option<&'static str>) {
        let known = |key: &str| implied == Some(key) || fields.iter().any(|field| field.key == key);
        let Some(object) = self.object(value, at, known) else {
            return;
        };
        for field in fields {
            match object.get(field.key) {
                Some(value) => self.shape(&field.shape, value, at.key(field.key)),
                None if field.required => self.missing(at.key(field.key)),
                None => {}
            }
        }
    }

    fn string<'v>(&mut self, value: &'v Value, at: Loc<'_>) -> Option<&'v str> {
        match value {
            Value::String(text) => Some(text),
            _ => {
                self.wrong_type(at, "a string");
                None
            }
        }
    }

    fn too_short(&mut self, at: Loc<'_>) {
        let path = at.path();
        let fix = format!("Write visible text for {}.", path.subject());
        self.errors.push(BlockError::described(&path, Code::TOO_SHORT, fix));
    }

    /// A string of `min..=max` characters (code points, as the reference's schemas count).
    fn length(&mut self, text: &str, at: Loc<'_>, max: usize) {
        let count = text.chars().count();
        if count == 0 {
            self.too_short(at);
        }
        if count > max {
            self.too_long(at, max);
        }
    }

    fn too_long(&mut self, at: Loc<'_>, max: usize) {
        let subject = at.path().subject();
        self.push(
            at,
            Code::TOO_LONG,
            format!("{subject} is longer than {max} characters."),
            format!("Shorten {subject} to {max} characters or fewer."),
        );
    }

    fn format(&mut self, at: Loc<'_>) {
        let path = at.path();
        let fix = if is_dataset_id_path(&path) {
            "Use 1 to 80 letters, digits, underscores, or hyphens."
        } else {
            "Use a lowercase id starting with a letter, then letters, digits, or underscores."
        };
        let message = format!("{} does not match the required format.", path.subject());
        self.errors.push(BlockError::new(&path, Code::INVALID_FORMAT, message, fix));
    }

    fn shape(&mut self, shape: &Shape, value: &Value, at: Loc<'_>) {
        match shape {
            Shape::Text(max) => {
                if let Some(text) = self.string(value, at) {
                    self.length(text, at, *max);
                    if !is_visible(text) {
                        self.too_short(at);
                    }
                }
            }
            Shape::Str(max) => {
                if let Some(text) = self.string(value, at) {
                    self.length(text, at, *max);
                }
            }
            Shape::Id(max) => {
                if let Some(id) = self.string(value, at) {
                    // The pattern itself caps ids at 64; shorter caps are a length error.
                    if *max < 64 && id.chars().count() > *max {
                        self.too_long(at, *max);
                    }
                    if !is_block_id(id) {
                        self.format(at);
                    }
                }
            }
            Shape::CallbackName => {
                if self.string(value, at).is_some_and(|name| !is_callback_name(name)) {
                    self.format(at);
                }
            }
            Shape::DatasetRefId => {
                if self.string(value, at).is_some_and(|id| !is_dataset_ref_id(id)) {
                    self.format(at);
                }
            }
            Shape::Enum(allowed) => {
                if !value.as_str().is_some_and(|text| allowed.contains(&text)) {
                    let subject = at.path().subject();
                    let listed: Vec<String> = allowed.iter().map(|value| format!("\"{value}\"")).collect();
                    self.push(
                        at,
                        Code::INVALID_ENUM,
                        format!("{subject} must be one of the allowed values, not {value}."),
                        format!("Use one of: {}.", listed.join(", ")),
                    );
                }
            }
            Shape::Number => {
                if !value.is_number() {
                    self.wrong_type(at, "a number");
                }
            }
            Shape::Int { min, max } | Shape::IntRange { min, max } => match value.as_f64() {
                Some(number) if number.fract() == 0.0 => {
                    if number < *min as f64 && matches!(shape, Shape::IntRange { .. }) {
                        let subject = at.path().subject();
                        self.push(
                            at,
                            Code::OUT_OF_RANGE,
                            format!("{subject} is below {min}."),
                            format!("Set {subject} to {min} or more."),
                        );
                    } else if number < *min as f64 {
                        let subject = at.path().subject();
                        self.push(
                            at,
                            Code::INVALID_TYPE,
                            format!("{subject} must be an integer of at least {min}."),
                            format!("Set {subject} to an integer of at least {min}."),
                        );
                    } else if number > *max as f64 {
                        let subject = at.path().subject();
                        self.push(
                            at,
                            Code::OUT_OF_RANGE,
                            format!("{subject} is above {max}."),
                            format!("Set {subject} to {max} or less."),
                        );
                    }
                }
                _ => self.wrong_type(at, "an integer"),
            },
            Shape::Bool => {
                if !value.is_boolean() {
                    self.wrong_type(at, "a boolean");
                }
            }
            Shape::AnyObject => {
                if !value.is_object() {
                    self.wrong_type(at, "an object");
                }
            }
            Shape::Object(fields) => self.fields(value, at, fields, None),
            Shape::List { item, min, max } => {
                let Value::Array(items) = value else {
                    self.wrong_type(at, "an array");
                    return;
                };
                self.count(items.len(), at, *min, *max);
                for (index, value) in items.iter().enumerate() {
                    self.shape(item, value, at.index(index));
                }
            }
            Shape::Block => self.variant(value, at, "type", BLOCK_TYPES, "block"),
            Shape::Element => self.variant(value, at, "type", ELEMENT_TYPES, "element"),
            Shape::Action => self.variant(value, at, "kind", ACTION_KINDS, "action"),
            Shape::Dataset => {
                let is_ref = value.get("source").and_then(Value::as_str) == Some("ref");
                self.fields(value, at, if is_ref { REF_DATASET } else { INLINE_DATASET }, None);
            }
            Shape::Cell => {
                if !(value.is_string() || value.is_number() || value.is_null()) {
                    self.wrong_type(at, "a string, a number, or null");
                }
            }
        }
    }

    fn count(&mut self, len: usize, at: Loc<'_>, min: usize, max: usize) {
        // Printed only for an error: most lists fit.
        let subject = || at.path().subject();
        if len < min {
            let subject = subject();
            self.push(
                at,
                Code::TOO_FEW,
                format!("{subject} has fewer items than allowed."),
                format!("Add items to {subject} until it has at least {min}."),
            );
        }
        if len > max {
            if matches!(at, Loc::Key(Loc::Root, "blocks")) {
                if !self.blocks_counted {
                    self.errors.push(BlockError::described(at.path(), Code::TOO_MANY_BLOCKS, TOO_MANY_BLOCKS_FIX));
                }
            } else {
                let subject = subject();
                self.push(
                    at,
                    Code::TOO_MANY,
                    format!("{subject} has more than {max} items."),
                    format!("Remove items from {subject} until it has {max} or fewer."),
                );
            }
        }
    }

    /// One member of a union chosen by its `tag` field; an unknown tag is one enum error.
    fn variant(&mut self, value: &Value, at: Loc<'_>, tag: &'static str, variants: &[(&str, &[Field])], noun: &str) {
        let chosen = value.get(tag).and_then(Value::as_str);
        match variants.iter().find(|(name, _)| Some(*name) == chosen) {
            Some((_, fields)) => self.fields(value, at, fields, Some(tag)),
            None => {
                let names: Vec<&str> = variants.iter().map(|(name, _)| *name).collect();
                let message = format!("{} is not a supported {noun}.", at.path().subject());
                self.push(at.key(tag), Code::INVALID_ENUM, message, format!("Set {tag} to {}.", or_list(&names)));
            }
        }
    }

    fn datasets(&mut self, value: &Value, at: Loc<'_>) {
        let Value::Object(datasets) = value else {
            self.wrong_type(at, "an object");
            return;
        };
        for (name, dataset) in datasets {
            let at = at.name(name);
            if !is_block_id(name) {
                self.format(at);
            }
            self.shape(&Shape::Dataset, dataset, at);
        }
    }
}

pub const TOO_MANY_BLOCKS_FIX: &str = "Use 50 blocks or fewer.";

/// "a, b, or c".
pub fn or_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => only.to_string(),
        [rest @ .., last] => format!("{}, or {last}", rest.join(", ")),
    }
}

/// `^[a-z][a-z0-9_]{0,63}$`: block, element, item and column ids and dataset names.
pub fn is_block_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && bytes[0].is_ascii_lowercase()
        && bytes[1..].iter().all(|byte| byte.is_ascii_lowercase() || byte.is_ascii_digit() || *byte == b'_')
}

/// `^[a-z][A-Za-z0-9_]{0,63}$`: host action names, camelCase allowed.
pub fn is_callback_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && bytes[0].is_ascii_lowercase()
        && bytes[1..].iter().all(|byte| byte.is_ascii_alphanumeric() || *byte == b'_')
}

/// `^[A-Za-z0-9_-]{1,80}$`.
fn is_dataset_ref_id(id: &str) -> bool {
    (1..=80).contains(&id.len()) && id.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(document: Value) -> Vec<(String, Code)> {
        let mut errors = Vec::new();
        check_document(&document, false, &mut errors);
        errors.into_iter().map(|error| (error.path, error.code)).collect()
    }

    #[test]
    fn ids_and_names() {
        assert!(is_block_id("signups_chart"));
        assert!(!is_block_id("Bad"));
        assert!(!is_block_id("has-hyphen"));
        assert!(is_callback_name("scaleStepper"));
        assert!(!is_callback_name("ScaleStepper"));
        assert!(is_dataset_ref_id("ds-1_A"));
        assert!(!is_dataset_ref_id("bad.id"));
    }

    #[test]
    fn an_empty_visible_text_is_too_short_twice() {
        let errors =
            check(json!({"v": 1, "blocks": [{"type": "card", "eyebrow": "", "children": [{"type": "divider"}]}]}));
        assert_eq!(errors, vec![("blocks[0].eyebrow".to_string(), Code::TOO_SHORT); 2]);
    }

    #[test]
    fn unknown_types_kinds_and_keys() {
        let errors = check(json!({"v": 1, "blocks": [
            {"type": "nope"},
            {"type": "actions", "id": "a", "elements": [{"type": "button", "id": "b", "text": "Go", "action": {"kind": "fly"}}]},
            {"type": "heading", "text": "Hi", "color": "red"},
        ]}));
        assert_eq!(
            errors,
            [
                ("blocks[0].type".to_string(), Code::INVALID_ENUM),
                ("blocks[1].elements[0].action.kind".to_string(), Code::INVALID_ENUM),
                ("blocks[2].color".to_string(), Code::UNKNOWN_KEY),
            ]
        );
    }

    #[test]
    fn ref_datasets_and_int_bounds() {
        let errors = check(
            json!({"v": 1, "datasets": {"signups": {"source": "ref", "id": "bad.id", "limit": 0}}, "blocks": [{"type": "divider"}]}),
        );
        assert_eq!(
            errors,
            [
                ("datasets.signups.id".to_string(), Code::INVALID_FORMAT),
                ("datasets.signups.limit".to_string(), Code::INVALID_TYPE),
            ]
        );
    }
}
