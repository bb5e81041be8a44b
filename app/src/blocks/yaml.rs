//! YAML (and so JSON, a subset of YAML 1.2) into a JSON value, refusing what a reply document
//! must not use: anchors, aliases and tags, duplicate keys, several documents.
//!
//! Built on `saphyr-parser`'s event stream, which reports anchors and tags instead of
//! resolving them, so they can be refused before any value is built. Plain scalars resolve by
//! the YAML 1.2 core schema (null, booleans, integers, floats); quoted and block scalars are
//! strings.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Number, Value};

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

enum Frame {
    List(Vec<Value>),
    /// `order` is kept for the root mapping only: no other key order matters.
    Map {
        entries: Map<String, Value>,
        order: Option<Vec<String>>,
        key: Option<String>,
    },
}

pub fn parse_yaml(text: &str) -> Result<YamlDocument, YamlProblem> {
    let mut documents = 0;
    let mut disallowed = false;
    let mut broken = false;
    let mut stack: Vec<Frame> = Vec::new();
    let mut finished: Option<YamlDocument> = None;

    for event in Parser::new_from_str(text) {
        let event = match event {
            Ok((event, _span)) => event,
            Err(error) => {
                let info = error.info();
                if ["anchor", "alias", "tag"].iter().any(|feature| info.contains(feature)) {
                    disallowed = true;
                } else {
                    broken = true;
                }
                break;
            }
        };
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                continue;
            }
            Event::Alias(_) => {
                disallowed = true;
                continue;
            }
            Event::Scalar(text, style, anchor, tag) => {
                disallowed |= anchor != 0 || tag.is_some();
                Scalar(text.into_owned(), style)
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                disallowed |= anchor != 0 || tag.is_some();
                if stack.len() >= MAX_NESTING || in_key_position(&stack) {
                    broken = true;
                    break;
                }
                stack.push(if matches!(event, Event::MappingStart(..)) {
                    Frame::Map { entries: Map::new(), order: stack.is_empty().then(Vec::new), key: None }
                } else {
                    Frame::List(Vec::new())
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::List(items)) => Built(Value::Array(items), Vec::new()),
                Some(Frame::Map { entries, order, .. }) => Built(Value::Object(entries), order.unwrap_or_default()),
                None => {
                    broken = true;
                    break;
                }
            },
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
        };
        let (value, order) = match node {
            Scalar(text, style) => {
                // A scalar in key position is a key, whatever it looks like.
                if let Some(Frame::Map { entries, key: key @ None, .. }) = stack.last_mut() {
                    if entries.contains_key(&text) {
                        broken = true;
                        break;
                    }
                    *key = Some(text);
                    continue;
                }
                (resolve_scalar(text, style), Vec::new())
            }
            Built(value, order) => (value, order),
        };
        match stack.last_mut() {
            None => finished = Some(YamlDocument { value, top_level_keys: order }),
            Some(Frame::List(items)) => items.push(value),
            Some(Frame::Map { entries, order, key }) => {
                let Some(key) = key.take() else {
                    broken = true;
                    break;
                };
                if let Some(order) = order {
                    order.push(key.clone());
                }
                entries.insert(key, value);
            }
        }
    }

    if documents > 1 {
        return Err(YamlProblem::NotADocument);
    }
    if disallowed {
        return Err(YamlProblem::FeatureDisallowed);
    }
    match finished {
        Some(document) if !broken => Ok(document),
        _ => Err(YamlProblem::NotADocument),
    }
}

use Node::{Built, Scalar};

enum Node {
    Scalar(String, ScalarStyle),
    Built(Value, Vec<String>),
}

/// Whether the next node would be a mapping key (only scalars may be).
fn in_key_position(stack: &[Frame]) -> bool {
    matches!(stack.last(), Some(Frame::Map { key: None, .. }))
}

/// A scalar's value under the YAML 1.2 core schema.
fn resolve_scalar(text: String, style: ScalarStyle) -> Value {
    if style != ScalarStyle::Plain {
        return Value::String(text);
    }
    match text.as_str() {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        // JSON has no infinities or NaN; null keeps them invalid everywhere a number is
        // expected, as a non-finite number is in the reference.
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF" | ".nan" | ".NaN"
        | ".NAN" => return Value::Null,
        _ => {}
    }
    number(&text).map_or(Value::String(text), Value::Number)
}

fn number(text: &str) -> Option<Number> {
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
