//! What a grant covers of each argument of its tool's calls: exactly the value approved, any
//! value, or a pattern of the argument's kind (a folder for paths, a beginning for URLs, text
//! and commands, a range for numbers, a set for choices). One matcher decides every call, and
//! each pattern says in words exactly what it covers: a pattern never covers a value its words
//! leave out. Paths are compared as their segments, byte for byte: a path with `..`, `.`, an
//! empty segment, a backslash, a percent sign, a look-alike slash or dot, or a character that
//! hides or reorders text is covered by no folder pattern (the call asks instead).

use std::collections::BTreeMap;

use palaver_contract::visible::{Layout, is_concealing};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of value an argument takes, read from its tool's schema and its name: it decides
/// which patterns a grant may use for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ArgumentKind {
    Path,
    Url,
    Command,
    Number,
    /// One of the values the schema's `enum` lists.
    Choice,
    Text,
}

impl ArgumentKind {
    /// The kind of argument `key`, whose schema is `property` (`Value::Null` when it has none).
    pub fn of(key: &str, property: &Value) -> Self {
        let key = key.to_ascii_lowercase();
        let named = |words: &[&str]| words.iter().any(|word| key.contains(word));
        if property.get("enum").is_some_and(Value::is_array) {
            ArgumentKind::Choice
        } else if matches!(property["type"].as_str(), Some("number" | "integer")) {
            ArgumentKind::Number
        } else if matches!(property["format"].as_str(), Some("uri" | "url" | "iri")) || named(&["url", "uri", "link"]) {
            ArgumentKind::Url
        } else if named(&["path", "file", "dir", "folder"]) {
            ArgumentKind::Path
        } else if named(&["command", "cmd", "script", "shell"]) {
            ArgumentKind::Command
        } else {
            ArgumentKind::Text
        }
    }
}

/// What a grant covers of one argument.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "match", rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ArgumentPattern {
    /// The value approved, and no other.
    Exactly { value: Value },
    /// Any value, or none.
    Any,
    /// A path in this folder or below it (segment by segment; see the module's note).
    Under { path: String },
    /// A text (or URL) that begins with this, with no line break or control character after it.
    StartsWith { text: String },
    /// A command that begins with this and chains no other after it: none of
    /// `; & | ` $ < > ( )` or a line break in the rest.
    CommandStartsWith { text: String },
    /// A number from `min` to `max`, both included.
    Range {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
    /// One of these values.
    OneOf { values: Vec<Value> },
}

/// A grant's patterns, by argument name.
pub type ArgumentPatterns = BTreeMap<String, ArgumentPattern>;

/// The characters after a command's beginning that would let it run another command.
const COMMAND_CHAINING: &[char] = &[';', '&', '|', '`', '$', '<', '>', '(', ')', '\n', '\r'];

/// Characters that look like (or some systems read as) a slash or a dot.
const LOOK_ALIKES: &[char] =
    &['\u{2215}', '\u{2044}', '\u{FF0F}', '\u{FF3C}', '\u{29F5}', '\u{FE68}', '\u{2024}', '\u{FF0E}', '\u{3002}'];

impl ArgumentPattern {
    /// Whether the pattern covers `value` (`None`: the call leaves the argument out).
    pub fn covers(&self, value: Option<&Value>) -> bool {
        let Some(value) = value else { return matches!(self, ArgumentPattern::Any) };
        match self {
            ArgumentPattern::Exactly { value: approved } => approved == value,
            ArgumentPattern::Any => true,
            ArgumentPattern::Under { path } => value.as_str().is_some_and(|value| is_under(value, path)),
            ArgumentPattern::StartsWith { text } => value
                .as_str()
                .and_then(|value| value.strip_prefix(text.as_str()))
                .is_some_and(|rest| !rest.chars().any(char::is_control)),
            ArgumentPattern::CommandStartsWith { text } => value
                .as_str()
                .and_then(|value| value.strip_prefix(text.as_str()))
                .is_some_and(|rest| !rest.chars().any(|ch| ch.is_control() || COMMAND_CHAINING.contains(&ch))),
            ArgumentPattern::Range { min, max } => value.as_f64().is_some_and(|number| {
                number.is_finite() && min.is_none_or(|min| number >= min) && max.is_none_or(|max| number <= max)
            }),
            ArgumentPattern::OneOf { values } => values.contains(value),
        }
    }

    /// Why the pattern cannot be used for an argument of `kind`, in words; `Ok` when it can.
    pub fn fits(&self, kind: ArgumentKind) -> Result<(), String> {
        match (self, kind) {
            (ArgumentPattern::Exactly { .. } | ArgumentPattern::Any, _) => Ok(()),
            (ArgumentPattern::Under { path }, ArgumentKind::Path) => match path_segments(path) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "“{path}” is not a plain folder: leave out “..”, “.”, double slashes, backslashes, percent signs and hidden characters."
                )),
            },
            (ArgumentPattern::StartsWith { text }, ArgumentKind::Url) => match url_origin(text) {
                Some(origin) if text.len() > origin.len() => Ok(()),
                _ => Err(format!(
                    "“{text}” must name a whole site and end its host with “/”, like https://example.com/."
                )),
            },
            (ArgumentPattern::StartsWith { text }, ArgumentKind::Text)
            | (ArgumentPattern::CommandStartsWith { text }, ArgumentKind::Command) => {
                if text.is_empty() || text.chars().any(|ch| is_concealing(ch, Layout::Value)) {
                    Err("The beginning must be visible text, not empty.".into())
                } else {
                    Ok(())
                }
            }
            (ArgumentPattern::Range { min, max }, ArgumentKind::Number) => match (min, max) {
                (None, None) => Err("A range needs a lowest or a highest number.".into()),
                (Some(min), Some(max)) if min > max => Err(format!("{min} is above {max}.")),
                _ if min.iter().chain(max).any(|bound| !bound.is_finite()) => Err("A range needs real numbers.".into()),
                _ => Ok(()),
            },
            (ArgumentPattern::OneOf { values }, ArgumentKind::Choice) if !values.is_empty() => Ok(()),
            (ArgumentPattern::OneOf { .. }, ArgumentKind::Choice) => Err("Pick at least one value.".into()),
            _ => Err("That pattern does not fit this argument.".into()),
        }
    }

    /// The kind of argument the pattern is for, as far as it says (a folder is a path's, a
    /// whole site a URL's): what an edit of it in Settings is checked against.
    pub fn implied_kind(&self) -> ArgumentKind {
        match self {
            ArgumentPattern::Under { .. } => ArgumentKind::Path,
            ArgumentPattern::StartsWith { text } if url_origin(text).is_some() => ArgumentKind::Url,
            ArgumentPattern::CommandStartsWith { .. } => ArgumentKind::Command,
            ArgumentPattern::Range { .. } => ArgumentKind::Number,
            ArgumentPattern::OneOf { .. } => ArgumentKind::Choice,
            ArgumentPattern::Exactly { .. } | ArgumentPattern::Any | ArgumentPattern::StartsWith { .. } => {
                ArgumentKind::Text
            }
        }
    }

    /// What the pattern covers of argument `key`, in words (`None` for any value).
    pub fn words(&self, key: &str) -> Option<String> {
        Some(match self {
            ArgumentPattern::Any => return None,
            ArgumentPattern::Exactly { value } => format!("{key} exactly {}", shown(value)),
            ArgumentPattern::Under { path } => format!("{key} in {} or below", folder(path)),
            ArgumentPattern::StartsWith { text } => format!("{key} starting with “{text}”"),
            ArgumentPattern::CommandStartsWith { text } => {
                format!("{key} starting with “{text}” and chaining no other command")
            }
            ArgumentPattern::Range { min: Some(min), max: Some(max) } if min == max => format!("{key} exactly {min}"),
            ArgumentPattern::Range { min: Some(min), max: Some(max) } => format!("{key} from {min} to {max}"),
            ArgumentPattern::Range { min: Some(min), max: None } => format!("{key} at least {min}"),
            ArgumentPattern::Range { min: None, max: Some(max) } => format!("{key} at most {max}"),
            ArgumentPattern::Range { min: None, max: None } => format!("{key} any number"),
            ArgumentPattern::OneOf { values } => {
                let listed: Vec<String> = values.iter().map(shown).collect();
                format!("{key} one of {}", listed.join(", "))
            }
        })
    }

    /// The patterns a grant may use for `value` of an argument of `kind`, narrowest first:
    /// the first is the one a card proposes. Every one covers `value`.
    pub fn options(kind: ArgumentKind, value: &Value, choices: &[Value]) -> Vec<ArgumentPattern> {
        let exactly = ArgumentPattern::Exactly { value: value.clone() };
        let text = value.as_str().unwrap_or_default();
        let widened = match kind {
            ArgumentKind::Path => parent_folder(text).map(|path| ArgumentPattern::Under { path }),
            ArgumentKind::Url => {
                url_origin(text).map(|origin| ArgumentPattern::StartsWith { text: format!("{origin}/") })
            }
            ArgumentKind::Command => text
                .split_once(' ')
                .map(|(program, _)| ArgumentPattern::CommandStartsWith { text: format!("{program} ") }),
            ArgumentKind::Number => {
                value.as_f64().map(|number| ArgumentPattern::Range { min: Some(number), max: Some(number) })
            }
            ArgumentKind::Choice if choices.len() > 1 && choices.contains(value) => {
                Some(ArgumentPattern::OneOf { values: choices.to_vec() })
            }
            ArgumentKind::Choice | ArgumentKind::Text => None,
        };
        let widened = widened.filter(|pattern| pattern.fits(kind).is_ok() && pattern.covers(Some(value)));
        // A path or a URL is proposed by its folder or its site; the rest exactly as called.
        let mut options = match (kind, widened) {
            (ArgumentKind::Path | ArgumentKind::Url, Some(widened)) => vec![widened, exactly],
            (_, Some(widened)) => vec![exactly, widened],
            (_, None) => vec![exactly],
        };
        options.push(ArgumentPattern::Any);
        options
    }
}

/// Whether every argument of `input` (a call's arguments object) is covered by its pattern:
/// an argument the grant has no pattern for is not, and a pattern for an argument the call
/// leaves out covers only if it is `Any`.
pub fn covers_call(patterns: &ArgumentPatterns, input: &Value) -> bool {
    let Some(arguments) = input.as_object() else { return false };
    arguments.iter().all(|(key, value)| patterns.get(key).is_some_and(|pattern| pattern.covers(Some(value))))
        && patterns.iter().all(|(key, pattern)| arguments.contains_key(key) || pattern.covers(None))
}

/// What `patterns` cover, in words: "path in data/shared/ or below, mode exactly \"append\"",
/// or "any arguments".
pub fn patterns_words(patterns: &ArgumentPatterns) -> String {
    let words: Vec<String> = patterns.iter().filter_map(|(key, pattern)| pattern.words(key)).collect();
    if words.is_empty() { "any arguments".into() } else { words.join(", ") }
}

/// A clean path's segments, and whether it is absolute; `None` for a path no folder pattern
/// may cover (see the module's note). A trailing slash is allowed.
fn path_segments(path: &str) -> Option<(bool, Vec<&str>)> {
    let refused = |ch: char| ch == '\\' || ch == '%' || LOOK_ALIKES.contains(&ch) || is_concealing(ch, Layout::Value);
    if path.is_empty() || path.chars().any(refused) {
        return None;
    }
    let absolute = path.starts_with('/');
    let inner = path.strip_prefix('/').unwrap_or(path);
    let inner = inner.strip_suffix('/').unwrap_or(inner);
    if inner.is_empty() {
        return absolute.then(|| (true, Vec::new()));
    }
    let segments: Vec<&str> = inner.split('/').collect();
    let clean = segments.iter().all(|segment| !matches!(*segment, "" | "." | ".." | "~"));
    clean.then_some((absolute, segments))
}

/// Whether `path` is the folder `folder` or inside it.
fn is_under(path: &str, folder: &str) -> bool {
    match (path_segments(path), path_segments(folder)) {
        (Some((absolute, segments)), Some((folder_absolute, folder_segments))) => {
            absolute == folder_absolute && segments.starts_with(&folder_segments)
        }
        _ => false,
    }
}

/// The folder `path` is in, with a trailing slash, when it has one.
fn parent_folder(path: &str) -> Option<String> {
    let (absolute, segments) = path_segments(path)?;
    let (_, parents) = segments.split_last()?;
    if parents.is_empty() && !absolute {
        return None;
    }
    let joined = parents.iter().map(|segment| format!("{segment}/")).collect::<String>();
    Some(if absolute { format!("/{joined}") } else { joined })
}

/// A folder as its words show it: with its trailing slash.
fn folder(path: &str) -> String {
    if path.ends_with('/') { path.to_string() } else { format!("{path}/") }
}

/// `scheme://host[:port]` of an http(s) URL, when the text starts with one.
fn url_origin(url: &str) -> Option<&str> {
    let scheme_end = if url.starts_with("https://") {
        "https://".len()
    } else if url.starts_with("http://") {
        "http://".len()
    } else {
        return None;
    };
    let authority = &url[scheme_end..];
    let host_len = authority.find(['/', '?', '#']).unwrap_or(authority.len());
    let host = &authority[..host_len];
    let plain = !host.is_empty()
        && host.chars().all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '.' | '-' | ':' | '[' | ']'));
    plain.then(|| &url[..scheme_end + host_len])
}

/// A value as words show it: text in quotes, the rest as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => format!("“{text}”"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn under(path: &str) -> ArgumentPattern {
        ArgumentPattern::Under { path: path.into() }
    }

    #[test]
    fn a_folder_covers_itself_and_what_is_in_it_and_nothing_beside_it() {
        let shared = under("data/shared/");
        for inside in ["data/shared", "data/shared/", "data/shared/a.txt", "data/shared/x/y/z.md"] {
            assert!(shared.covers(Some(&json!(inside))), "{inside}");
        }
        for outside in [
            "data/shared2/a.txt",
            "data/sharedfile",
            "data/a.txt",
            "/data/shared/a.txt",
            "Data/Shared/a.txt",
            "DATA/shared/a.txt",
            "data/shared/../secret",
            "data/shared/./a.txt",
            "data/shared//a.txt",
            "data/shared/%2e%2e/secret",
            "data/shared%2fa.txt",
            "data\\shared\\a.txt",
            "data/shared/\u{FF0E}\u{FF0E}/secret",
            "data/shared\u{FF0F}a.txt",
            "data/shared/\u{202E}txt.exe",
            "data/shared/~/a",
            "",
        ] {
            assert!(!shared.covers(Some(&json!(outside))), "{outside}");
        }
        assert!(!shared.covers(Some(&json!(7))));
        assert!(!shared.covers(None));
    }

    #[test]
    fn the_root_covers_every_absolute_path_and_no_relative_one() {
        let root = under("/");
        assert!(root.covers(Some(&json!("/etc/hosts"))));
        assert!(!root.covers(Some(&json!("etc/hosts"))));
        assert!(root.fits(ArgumentKind::Path).is_ok());
        assert!(under("..").fits(ArgumentKind::Path).is_err());
        assert!(under("a//b").fits(ArgumentKind::Path).is_err());
    }

    #[test]
    fn a_url_beginning_is_a_whole_site() {
        let site = ArgumentPattern::StartsWith { text: "https://example.com/".into() };
        assert!(site.fits(ArgumentKind::Url).is_ok());
        assert!(site.covers(Some(&json!("https://example.com/a?b=c&d"))));
        assert!(!site.covers(Some(&json!("https://example.com.evil.org/"))));
        assert!(!site.covers(Some(&json!("https://example.com:8443/"))));
        assert!(!site.covers(Some(&json!("https://example.com/\nHost: evil"))));
        for loose in ["https://example.com", "https://", "ftp://example.com/", "https://user@evil.com/"] {
            let pattern = ArgumentPattern::StartsWith { text: loose.into() };
            assert!(pattern.fits(ArgumentKind::Url).is_err(), "{loose}");
        }
    }

    #[test]
    fn a_command_beginning_covers_no_chained_command() {
        let git = ArgumentPattern::CommandStartsWith { text: "git ".into() };
        assert!(git.covers(Some(&json!("git status --short"))));
        for chained in
            ["git status; rm -rf /", "git log | sh", "git $(rm x)", "git `id`", "git a && b", "git a\nrm", "gitx"]
        {
            assert!(!git.covers(Some(&json!(chained))), "{chained}");
        }
    }

    #[test]
    fn a_range_holds_its_bounds_and_nothing_past_them() {
        let range = ArgumentPattern::Range { min: Some(1.0), max: Some(10.0) };
        assert!(range.covers(Some(&json!(1))) && range.covers(Some(&json!(10))) && range.covers(Some(&json!(5.5))));
        assert!(!range.covers(Some(&json!(0.999_999))) && !range.covers(Some(&json!(10.000_001))));
        assert!(!range.covers(Some(&json!("5"))));
        assert!(ArgumentPattern::Range { min: Some(2.0), max: Some(1.0) }.fits(ArgumentKind::Number).is_err());
        assert!(ArgumentPattern::Range { min: None, max: None }.fits(ArgumentKind::Number).is_err());
        let at_least = ArgumentPattern::Range { min: Some(3.0), max: None };
        assert!(at_least.covers(Some(&json!(1e300))) && !at_least.covers(Some(&json!(2))));
    }

    #[test]
    fn a_call_is_covered_only_when_every_argument_is() {
        let patterns: ArgumentPatterns = [
            ("path".to_string(), under("data/")),
            ("mode".to_string(), ArgumentPattern::OneOf { values: vec![json!("append"), json!("create")] }),
            ("note".to_string(), ArgumentPattern::Any),
        ]
        .into();
        assert!(covers_call(&patterns, &json!({"path": "data/a", "mode": "append"})));
        assert!(covers_call(&patterns, &json!({"path": "data/a", "mode": "create", "note": "x"})));
        assert!(!covers_call(&patterns, &json!({"path": "data/a", "mode": "overwrite"})));
        assert!(!covers_call(&patterns, &json!({"path": "data/a"})), "a left-out argument needs any");
        assert!(!covers_call(&patterns, &json!({"path": "data/a", "mode": "append", "extra": 1})));
        assert!(!covers_call(&patterns, &json!(["data/a"])));
        assert_eq!(patterns_words(&patterns), "mode one of “append”, “create”, path in data/ or below");
    }

    #[test]
    fn the_proposal_of_a_path_is_its_folder_and_of_a_url_its_site() {
        let path = ArgumentPattern::options(ArgumentKind::Path, &json!("data/shared/report.md"), &[]);
        assert_eq!(path[0], under("data/shared/"));
        assert_eq!(path[0].words("path").unwrap(), "path in data/shared/ or below");
        let url = ArgumentPattern::options(ArgumentKind::Url, &json!("https://api.example.com/v1/x?q=1"), &[]);
        assert_eq!(url[0], ArgumentPattern::StartsWith { text: "https://api.example.com/".into() });
        let command = ArgumentPattern::options(ArgumentKind::Command, &json!("cargo test -p x"), &[]);
        assert_eq!(command[0], ArgumentPattern::Exactly { value: json!("cargo test -p x") });
        assert_eq!(command[1], ArgumentPattern::CommandStartsWith { text: "cargo ".into() });
        assert_eq!(*command.last().unwrap(), ArgumentPattern::Any);
        // A file at the top has no folder to propose.
        assert_eq!(ArgumentPattern::options(ArgumentKind::Path, &json!("a.txt"), &[]).len(), 2);
    }

    #[test]
    fn kinds_come_from_the_schema_and_the_name() {
        assert_eq!(ArgumentKind::of("path", &json!({"type": "string"})), ArgumentKind::Path);
        assert_eq!(ArgumentKind::of("target", &json!({"type": "string", "format": "uri"})), ArgumentKind::Url);
        assert_eq!(ArgumentKind::of("count", &json!({"type": "integer"})), ArgumentKind::Number);
        assert_eq!(ArgumentKind::of("mode", &json!({"enum": ["a", "b"]})), ArgumentKind::Choice);
        assert_eq!(ArgumentKind::of("command", &Value::Null), ArgumentKind::Command);
        assert_eq!(ArgumentKind::of("content", &json!({"type": "string"})), ArgumentKind::Text);
    }

    /// `path` with `.` and `..` resolved as a system would (case kept): `None` when it climbs
    /// above its start.
    fn resolved(path: &str) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for segment in path.split(['/', '\\']) {
            match segment {
                "" | "." => {}
                ".." => {
                    out.pop()?;
                }
                other => out.push(other.to_string()),
            }
        }
        Some(out)
    }

    fn segment() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("data".to_string()),
            Just("shared".to_string()),
            Just("Shared".to_string()),
            Just("..".to_string()),
            Just(".".to_string()),
            Just(String::new()),
            Just("%2e%2e".to_string()),
            Just("\u{FF0E}\u{FF0E}".to_string()),
            Just("~".to_string()),
            "[a-z]{1,3}",
        ]
    }

    fn path() -> impl Strategy<Value = String> {
        (prop::collection::vec(segment(), 1..6), prop::sample::select(vec!["/", "\\"]))
            .prop_map(|(segments, separator)| segments.join(separator))
    }

    proptest! {
        /// A folder pattern never covers a path that, once resolved, is outside the folder.
        #[test]
        fn a_folder_pattern_is_never_escaped(folder in path(), candidate in path()) {
            let pattern = under(&folder);
            if pattern.covers(Some(&json!(candidate))) {
                let (inside, root) = (resolved(&candidate).unwrap(), resolved(&folder).unwrap());
                prop_assert!(inside.starts_with(&root), "{candidate} is not in {folder}");
                prop_assert!(!candidate.contains(".."));
            }
        }

        /// Every option proposed for a call covers that call, and each is at least as wide as
        /// the one before it on that value.
        #[test]
        fn every_proposal_covers_the_call_it_came_from(
            value in prop_oneof![
                path().prop_map(Value::from),
                "(https?://[a-z]{1,5}\\.[a-z]{2,3}/[a-z/?=&]{0,8})".prop_map(Value::from),
                "[a-z]{1,4}( [a-z-]{1,4}){0,3}".prop_map(Value::from),
                any::<i32>().prop_map(Value::from),
            ],
            kind in prop::sample::select(vec![
                ArgumentKind::Path, ArgumentKind::Url, ArgumentKind::Command,
                ArgumentKind::Number, ArgumentKind::Text,
            ]),
        ) {
            for option in ArgumentPattern::options(kind, &value, &[]) {
                prop_assert!(option.covers(Some(&value)), "{option:?} leaves out {value}");
                prop_assert!(option.fits(kind).is_ok(), "{option:?} does not fit {kind:?}");
            }
        }

        /// A beginning covers only what begins with it; a range only what lies in it.
        #[test]
        fn beginnings_and_ranges_cover_what_their_words_say(
            text in "[a-z ;|]{0,6}", value in "[a-z ;|\n]{0,10}",
            min in -100i32..100, span in 0i32..50, number in -200i32..200,
        ) {
            let starts = ArgumentPattern::StartsWith { text: text.clone() };
            if starts.covers(Some(&json!(value))) {
                prop_assert!(value.starts_with(&text) && !value[text.len()..].contains('\n'));
            }
            let command = ArgumentPattern::CommandStartsWith { text: text.clone() };
            if command.covers(Some(&json!(value))) {
                prop_assert!(value.starts_with(&text));
                prop_assert!(!value[text.len()..].contains([';', '|', '\n']));
            }
            let (low, high) = (f64::from(min), f64::from(min + span));
            let range = ArgumentPattern::Range { min: Some(low), max: Some(high) };
            prop_assert_eq!(range.covers(Some(&json!(number))), (low..=high).contains(&f64::from(number)));
        }
    }
}
