//! A small schema checker over JSON values that reports problems the way the reference's
//! schemas do: the same codes, paths, messages and fixes, and the same rule for which
//! problems stop the semantic checks (a wrong type, a missing key, a bad enum value) and
//! which do not (lengths, counts, bounds, formats, blank text, unknown keys).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::errors::{AskError, AskErrorCode, Loc, Path, Segment, js_number, quote_str, quote_value};
use crate::path::{ROOT_INLINE, ROOT_SUBJECT};
use crate::text::is_visible;

/// The type a schema expects, with the words messages use for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    String,
    Boolean,
    Number,
    Int,
    List,
    Object,
}

impl Expected {
    fn words(self) -> &'static str {
        match self {
            Expected::String => "a string",
            Expected::Boolean => "true or false",
            Expected::Number => "a number",
            Expected::Int => "a whole number",
            Expected::List => "a list",
            Expected::Object => "an object",
        }
    }
}

fn received(value: &Value, expected: Expected) -> Cow<'static, str> {
    match value {
        Value::Null => "null".into(),
        Value::Array(_) => "a list".into(),
        Value::Bool(_) => "a boolean".into(),
        Value::Number(number) if expected == Expected::Int => js_number(number.as_f64().unwrap_or_default()).into(),
        Value::Number(_) => "a number".into(),
        Value::Object(_) => "an object".into(),
        Value::String(_) => "a string".into(),
    }
}

/// An error's path, printed once for both its message and its fix.
struct Printed {
    path: Path,
    text: String,
}

impl Printed {
    fn new(at: Loc<'_>) -> Self {
        let path = at.path();
        Printed { text: path.text(), path }
    }

    /// The path as a sentence's subject: "The value" at the root.
    fn subject(&self) -> &str {
        if self.path.is_root() { ROOT_SUBJECT } else { &self.text }
    }

    /// The path inside a sentence: "the value" at the root.
    fn inline(&self) -> &str {
        if self.path.is_root() { ROOT_INLINE } else { &self.text }
    }
}

/// Largest integer JavaScript represents exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A whole number as the reference's schemas accept it (finite, safe, no fraction).
pub fn as_int(value: &Value) -> Option<i64> {
    let number = value.as_f64()?;
    (number.fract() == 0.0 && number.abs() <= MAX_SAFE_INTEGER).then_some(number as i64)
}

#[derive(Default)]
pub struct Checker {
    pub errors: Vec<AskError>,
    /// A problem that stops the semantic checks was found.
    pub aborted: bool,
}

impl Checker {
    pub fn push(&mut self, at: Loc<'_>, code: AskErrorCode, message: impl Into<String>, fix: impl Into<String>) {
        self.errors.push(AskError::new(at.path(), code, message, fix));
    }

    fn report(&mut self, at: Printed, code: AskErrorCode, message: String, fix: String) {
        self.errors.push(AskError::new(at.path, code, message, fix));
    }

    pub fn invalid_type(&mut self, at: Loc<'_>, expected: Expected, value: &Value) {
        self.aborted = true;
        let at = Printed::new(at);
        let words = expected.words();
        let message = [at.subject(), " must be ", words, ", not ", &received(value, expected), "."].concat();
        let fix = ["Make ", at.inline(), " ", words, "."].concat();
        self.report(at, AskErrorCode::INVALID_TYPE, message, fix);
    }

    pub fn missing(&mut self, at: Loc<'_>) {
        self.aborted = true;
        let at = Printed::new(at);
        let (message, fix) = match at.path.last().and_then(Segment::text) {
            None => ([at.subject(), " is required."].concat(), ["Send ", at.inline(), "."].concat()),
            Some(key) => {
                let parent = at.path.parent();
                let fix = if parent.is_root() {
                    ["Add \"", key, "\"."].concat()
                } else {
                    ["Add \"", key, "\" to ", &parent.text(), "."].concat()
                };
                ([&at.text, " is required."].concat(), fix)
            }
        };
        self.report(at, AskErrorCode::MISSING_REQUIRED, message, fix);
    }

    pub fn invalid_enum(&mut self, at: Loc<'_>, allowed: &[&str], value: &Value) {
        self.aborted = true;
        let allowed_text = if let [only] = allowed {
            quote_str(only)
        } else {
            format!("one of {}", allowed.iter().map(|value| quote_str(value)).collect::<Vec<_>>().join(", "))
        };
        let not = match value {
            Value::Array(_) | Value::Object(_) => String::new(),
            other => format!(", not {}", quote_value(other)),
        };
        let message = format!("{} must be {allowed_text}{not}.", at.path().subject());
        self.push(at, AskErrorCode::INVALID_ENUM, message, format!("Use {allowed_text}."));
    }

    pub fn unknown_key(&mut self, parent: Loc<'_>, key: &str) {
        let parent_path = parent.path();
        let owner = if parent_path.is_root() { "this object".to_string() } else { parent_path.text() };
        let message = ["\"", key, "\" is not a field of ", &owner, "."].concat();
        self.push(parent.name(key), AskErrorCode::UNKNOWN_KEY, message, ["Remove \"", key, "\"."].concat());
    }

    pub fn too_long(&mut self, at: Loc<'_>, max: usize) {
        let at = Printed::new(at);
        let max = max.to_string();
        let message = [at.subject(), " is longer than ", &max, " characters."].concat();
        let fix = ["Shorten ", at.inline(), " to ", &max, " characters or fewer."].concat();
        self.report(at, AskErrorCode::TOO_LONG, message, fix);
    }

    /// A label over a button's UTF-16 budget, where emoji count double.
    pub fn too_long_for_button(&mut self, at: Loc<'_>, max: usize) {
        let at = Printed::new(at);
        let max = max.to_string();
        let message = [&at.text, " is longer than ", &max, " characters, counting each emoji as 2 or more."].concat();
        let fix = ["Shorten ", &at.text, " to ", &max, " characters or fewer, or use fewer emoji."].concat();
        self.report(at, AskErrorCode::TOO_LONG, message, fix);
    }

    pub fn blank(&mut self, at: Loc<'_>) {
        let at = Printed::new(at);
        let message = [at.subject(), " must contain visible text."].concat();
        let fix = ["Write at least one visible character in ", at.inline(), "."].concat();
        self.report(at, AskErrorCode::TOO_SHORT, message, fix);
    }

    pub fn too_many(&mut self, at: Loc<'_>, max: usize) {
        let at = Printed::new(at);
        let max = max.to_string();
        let message = [at.subject(), " has more than ", &max, " items."].concat();
        let fix = ["Remove items from ", at.inline(), " until it has ", &max, " or fewer."].concat();
        self.report(at, AskErrorCode::TOO_MANY, message, fix);
    }

    pub fn too_few(&mut self, at: Loc<'_>, min: usize) {
        let at = Printed::new(at);
        let min = min.to_string();
        let message = [at.subject(), " has fewer than ", &min, " items."].concat();
        let fix = ["Add items to ", at.inline(), " until it has at least ", &min, "."].concat();
        self.report(at, AskErrorCode::TOO_FEW, message, fix);
    }

    fn out_of_bounds(&mut self, at: Loc<'_>, bound: &str, limit: i64) {
        let at = Printed::new(at);
        let limit = limit.to_string();
        let message = [at.subject(), " must be ", bound, " ", &limit, "."].concat();
        let fix = ["Make ", at.inline(), " ", bound, " ", &limit, "."].concat();
        self.report(at, AskErrorCode::RANGE_INVALID, message, fix);
    }

    /// An object with only the `allowed` keys; other keys are reported, not fatal.
    pub fn object<'v>(&mut self, value: &'v Value, at: Loc<'_>, allowed: &[&str]) -> Option<&'v Map<String, Value>> {
        let Value::Object(object) = value else {
            self.invalid_type(at, Expected::Object, value);
            return None;
        };
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                self.unknown_key(at, key);
            }
        }
        Some(object)
    }

    /// An object whose keys are checked elsewhere.
    pub fn any_object<'v>(&mut self, value: &'v Value, at: Loc<'_>) -> Option<&'v Value> {
        if value.is_object() {
            Some(value)
        } else {
            self.invalid_type(at, Expected::Object, value);
            None
        }
    }

    /// An object's values at `keys`, read in one pass; any other key is reported as unknown.
    /// `None` (reported) when the value is not an object.
    pub fn fields<'v, const N: usize>(
        &mut self,
        value: &'v Value,
        at: Loc<'_>,
        keys: [&str; N],
    ) -> Option<[Option<&'v Value>; N]> {
        let Value::Object(object) = value else {
            self.invalid_type(at, Expected::Object, value);
            return None;
        };
        let mut found = [None; N];
        for (key, value) in object {
            match keys.iter().position(|known| *known == key) {
                Some(index) => found[index] = Some(value),
                None => self.unknown_key(at, key),
            }
        }
        Some(found)
    }

    /// A required value read with [`Checker::fields`]: reports `MISSING_REQUIRED` when absent.
    pub fn present<'v>(&mut self, value: Option<&'v Value>, at: Loc<'_>, key: &'static str) -> Option<&'v Value> {
        if value.is_none() {
            self.missing(at.key(key));
        }
        value
    }

    /// A required key: reports `MISSING_REQUIRED` when absent.
    pub fn required<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        at: Loc<'_>,
        key: &'static str,
    ) -> Option<&'v Value> {
        self.present(object.get(key), at, key)
    }

    pub fn string<'v>(&mut self, value: &'v Value, at: Loc<'_>) -> Option<&'v str> {
        match value {
            Value::String(text) => Some(text),
            other => {
                self.invalid_type(at, Expected::String, other);
                None
            }
        }
    }

    /// A string of visible text with at most `max` characters (counted in code points, as
    /// the reference's schema library counts them).
    pub fn visible_text(&mut self, value: &Value, at: Loc<'_>, max: usize) -> Option<String> {
        let text = self.string(value, at)?;
        // A string has at least as many bytes as characters: most fit without counting.
        if text.len() > max && text.chars().count() > max {
            self.too_long(at, max);
        }
        if !is_visible(text) {
            self.blank(at);
        }
        Some(text.to_string())
    }

    /// An optional key holding visible text.
    pub fn optional_text(
        &mut self,
        object: &Map<String, Value>,
        at: Loc<'_>,
        key: &'static str,
        max: usize,
    ) -> Option<String> {
        object.get(key).and_then(|value| self.visible_text(value, at.key(key), max))
    }

    pub fn boolean(&mut self, object: &Map<String, Value>, at: Loc<'_>, key: &'static str) -> Option<bool> {
        match object.get(key)? {
            Value::Bool(flag) => Some(*flag),
            other => {
                self.invalid_type(at.key(key), Expected::Boolean, other);
                None
            }
        }
    }

    /// An optional whole number within `[min, max]` (bounds are reported, not fatal).
    pub fn int(
        &mut self,
        object: &Map<String, Value>,
        at: Loc<'_>,
        key: &'static str,
        min: i64,
        max: Option<i64>,
    ) -> Option<i64> {
        let value = object.get(key)?;
        let at = at.key(key);
        let Some(number) = as_int(value) else {
            self.invalid_type(at, Expected::Int, value);
            return None;
        };
        if number < min {
            self.out_of_bounds(at, "at least", min);
        }
        if let Some(max) = max.filter(|max| number > *max) {
            self.out_of_bounds(at, "at most", max);
        }
        Some(number)
    }

    pub fn number(&mut self, object: &Map<String, Value>, at: Loc<'_>, key: &'static str) -> Option<f64> {
        let value = object.get(key)?;
        match value.as_f64() {
            Some(number) => Some(number),
            None => {
                self.invalid_type(at.key(key), Expected::Number, value);
                None
            }
        }
    }

    /// A list with `min..=max` items (counts are reported, not fatal).
    pub fn list<'v>(&mut self, value: &'v Value, at: Loc<'_>, min: usize, max: usize) -> Option<&'v Vec<Value>> {
        let Value::Array(items) = value else {
            self.invalid_type(at, Expected::List, value);
            return None;
        };
        if items.len() < min {
            self.too_few(at, min);
        }
        if items.len() > max {
            self.too_many(at, max);
        }
        Some(items)
    }

    /// A list of strings, checked where it stands (nothing is copied).
    pub fn string_list<'v>(&mut self, value: &'v Value, at: Loc<'_>, min: usize, max: usize) -> Option<&'v [Value]> {
        let items = self.list(value, at, min, max)?;
        let mut all_strings = true;
        for (index, item) in items.iter().enumerate() {
            all_strings &= self.string(item, at.index(index)).is_some();
        }
        all_strings.then_some(items.as_slice())
    }

    /// A list of strings, as `&str`s.
    pub fn strings<'v>(&mut self, value: &'v Value, at: Loc<'_>, min: usize, max: usize) -> Option<Vec<&'v str>> {
        self.string_list(value, at, min, max).map(|items| items.iter().filter_map(Value::as_str).collect())
    }

    /// One of `allowed`, as a string.
    pub fn one_of<'v>(&mut self, value: &'v Value, at: Loc<'_>, allowed: &[&str]) -> Option<&'v str> {
        match value {
            Value::String(text) if allowed.contains(&text.as_str()) => Some(text),
            other => {
                self.invalid_enum(at, allowed, other);
                None
            }
        }
    }

    /// An option or field id (`choice.optionIdPattern`); `noun` names it in the message.
    pub fn id(&mut self, value: &Value, at: Loc<'_>, noun: &str) -> Option<String> {
        let id = self.string(value, at)?;
        if !is_option_id(id) {
            let message = format!("{} \"{id}\" is not a valid {noun}.", at.path().subject());
            let fix = "Use 1-64 lowercase letters, digits, \"_\", or \"-\", starting with a letter or digit.";
            self.push(at, AskErrorCode::INVALID_FORMAT, message, fix);
        }
        Some(id.to_string())
    }
}

/// Whether `id` matches `choice.optionIdPattern`.
pub fn is_option_id(id: &str) -> bool {
    let bytes = id.as_bytes();
    let allowed = |byte: &u8| byte.is_ascii_lowercase() || byte.is_ascii_digit();
    !bytes.is_empty()
        && bytes.len() <= super::limits::ASK_LIMITS.choice.option_id_max_length
        && allowed(&bytes[0])
        && bytes[1..].iter().all(|byte| allowed(byte) || *byte == b'_' || *byte == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_ids() {
        assert!(is_option_id("team"));
        assert!(is_option_id("a_b-9"));
        assert!(!is_option_id("Team"));
        assert!(!is_option_id("-dash"));
        assert!(!is_option_id(&"a".repeat(65)));
        assert!(is_option_id(&"a".repeat(64)));
    }

    #[test]
    fn messages_follow_the_reference_templates() {
        let mut checker = Checker::default();
        let root = Loc::Root;
        checker.invalid_type(root.key("minSelected"), Expected::Int, &serde_json::json!(1.5));
        let options = root.key("options");
        let second = options.index(1);
        checker.missing(second.key("id"));
        checker.unknown_key(root, "icon");
        checker.invalid_enum(root.key("select"), &["one", "many"], &serde_json::json!("all"));
        let texts: Vec<(String, String)> = checker.errors.iter().map(|e| (e.message.clone(), e.fix.clone())).collect();
        assert_eq!(texts[0].0, "minSelected must be a whole number, not 1.5.");
        assert_eq!(texts[1], ("options[1].id is required.".into(), "Add \"id\" to options[1].".into()));
        assert_eq!(texts[2], ("\"icon\" is not a field of this object.".into(), "Remove \"icon\".".into()));
        assert_eq!(texts[3].0, "select must be one of \"one\", \"many\", not \"all\".");
        assert!(checker.aborted);
    }
}
