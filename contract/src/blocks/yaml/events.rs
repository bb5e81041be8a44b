//! The full YAML reader, on `saphyr-parser`'s event stream: it reports anchors and tags
//! instead of resolving them, so they can be refused before any value is built.

use saphyr_parser::{Event, Parser, ScalarStyle};
use serde_json::{Map, Value};

use super::{MAX_NESTING, YamlDocument, YamlProblem, plain_scalar};

enum Frame {
    List(Vec<Value>),
    /// `order` is kept for the root mapping only: no other key order matters.
    Map {
        entries: Map<String, Value>,
        order: Option<Vec<String>>,
        key: Option<String>,
    },
}

pub(super) fn read(text: &str) -> Result<YamlDocument, YamlProblem> {
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
                (if style == ScalarStyle::Plain { plain_scalar(text) } else { Value::String(text) }, Vec::new())
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
