//! YAML (and so JSON, a subset of YAML 1.2) into a JSON value, refusing what a reply document
//! must not use: anchors, aliases and tags, duplicate keys, several documents. Plain scalars
//! resolve by the YAML 1.2 core schema (null, booleans, integers, floats); quoted and block
//! scalars are strings.
//!
//! Two readers give the same answers: `subset` reads the plain YAML reply documents are
//! written in (block mappings and sequences, one-line flow collections, quoted and plain
//! scalars, literal block scalars) in one pass over the lines, and gives up on anything else;
//! `events` reads all of YAML through `saphyr-parser` and says what is wrong. Differential
//! tests (`differential_tests.rs`) hold the first to the second's answers.

#[cfg(test)]
mod differential_tests;
mod events;
mod subset;

use serde_json::{Number, Value};

/// Why a text is not a usable YAML document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YamlProblem {
    /// An anchor, an alias or an explicit tag.
    FeatureDisallowed,
    /// A syntax error, a duplicate key, a non-scalar key, no document or more than one.
    NotADocument,
}

/// One parsed document and the order of its top-level keys (JSON objects here are sorted,
/// and the key order of a reply document is part of its contract).
#[derive(Clone, Debug, PartialEq)]
pub struct YamlDocument {
    pub value: Value,
    pub top_level_keys: Vec<String>,
}

/// Nesting deeper than this is refused; a reply document needs fewer than ten levels.
const MAX_NESTING: usize = 64;

pub fn parse_yaml(text: &str) -> Result<YamlDocument, YamlProblem> {
    subset::read(text).map_or_else(|| events::read(text), Ok)
}

/// Both readers' answers, for the differential fuzz target in `fuzz/`: wherever the subset
/// answers, the full reader must give the same document.
#[cfg(fuzzing)]
pub fn read_with_both(text: &str) -> (Option<YamlDocument>, Result<YamlDocument, YamlProblem>) {
    (subset::read(text), events::read(text))
}

/// A plain scalar's value under the YAML 1.2 core schema (quoted and block scalars are strings).
/// Generic so that a borrowed scalar is copied only when it stays a string.
fn plain_scalar(text: impl AsRef<str> + Into<String>) -> Value {
    match text.as_ref() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        // JSON has no infinities or NaN; null keeps them invalid everywhere a number is
        // expected, as a non-finite number is in the reference.
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN"
        | ".NAN" => return Value::Null,
        _ => {}
    }
    number(text.as_ref()).map_or_else(|| Value::String(text.into()), Value::Number)
}

fn number(text: &str) -> Option<Number> {
    // Every number below starts with a digit, a sign or a point; most plain scalars in a
    // reply document are words, told apart here without scanning them.
    if !text.as_bytes().first().is_some_and(|first| first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return None;
    }
    let radix = |prefix: &str, radix: u32| {
        text.strip_prefix(prefix)
            .filter(|digits| !digits.is_empty())
            .and_then(|digits| i64::from_str_radix(digits, radix).ok())
            .map(Number::from)
    };
    if let Some(number) = radix("0x", 16).or_else(|| radix("0o", 8)) {
        return Some(number);
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (mantissa, None),
    };
    let digits = |part: &str| part.bytes().all(|byte| byte.is_ascii_digit());
    let exponent_ok = exponent.is_none_or(|exponent| {
        let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !exponent.is_empty() && digits(exponent)
    });
    let mantissa_ok = digits(whole)
        && fraction.is_none_or(digits)
        && (!whole.is_empty() || fraction.is_some_and(|fraction| !fraction.is_empty()));
    if !(mantissa_ok && exponent_ok) {
        return None;
    }
    if fraction.is_none()
        && exponent.is_none()
        && let Ok(integer) = text.parse::<i64>()
    {
        return Some(Number::from(integer));
    }
    text.parse::<f64>().ok().and_then(Number::from_f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(text: &str) -> Value {
        parse_yaml(text).expect("parses").value
    }

    #[test]
    fn core_schema_scalars() {
        let parsed = value("a: 1\nb: -2.5\nc: true\nd: ~\ne: '1'\nf: 0x1F\ng: 1e3\nh: hello\ni: .inf\nj: 1.2.3\n");
        assert_eq!(
            parsed,
            json!({"a": 1, "b": -2.5, "c": true, "d": null, "e": "1", "f": 31, "g": 1000.0, "h": "hello", "i": null, "j": "1.2.3"})
        );
    }

    #[test]
    fn json_is_yaml_and_key_order_is_kept() {
        let document = parse_yaml(r#"{"blocks": [{"type": "heading", "text": "Hi"}], "v": 1}"#).unwrap();
        assert_eq!(document.top_level_keys, ["blocks", "v"]);
        assert_eq!(document.value["blocks"][0]["text"], "Hi");
    }

    #[test]
    fn anchors_aliases_and_tags_are_refused() {
        for text in ["a: &x 1\nb: *x\n", "a: *nowhere\n", "blocks: !foo []\n", "a: !!str 1\n", "a: &m {b: 1}\n"] {
            assert_eq!(parse_yaml(text), Err(YamlProblem::FeatureDisallowed), "{text}");
        }
    }

    #[test]
    fn not_one_clean_document() {
        for text in ["v: 1\n---\nv: 1\n", "a: 1\na: 2\n", "a: [1, 2\n", "? [a]\n: 1\n", "# only a comment\n", ""] {
            assert_eq!(parse_yaml(text), Err(YamlProblem::NotADocument), "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(parse_yaml(&text), Err(YamlProblem::NotADocument));
    }
}
