//! `blocksJsonSchema`: the reply document as a JSON Schema (draft-07) for clients that do not
//! run Rust. Generated from the catalog the schema check walks (schema.rs), so the two cannot
//! drift; the committed copy in `app/schemas/` is checked against it by a test.
//!
//! It expresses what `check_structure` checks except the key order (JSON Schema has none) and
//! the count of blocks nested in layouts (it caps each list at 50 instead of the whole
//! document). The lint (dataset and column references, unique ids, image hosts, host actions,
//! stepper bounds) needs the whole document and stays in `validate_blocks`. Visible text is
//! the pattern `\S` in ECMAScript's sense of whitespace.

use serde_json::{Map, Value, json};

use super::catalog::{ACTION_KINDS, BLOCK_TYPES, ELEMENT_TYPES, Field, INLINE_DATASET, REF_DATASET, Shape};
use super::limits::MAX_BLOCKS;

const BLOCK_ID_PATTERN: &str = "^[a-z][a-z0-9_]{0,63}$";

/// Layout blocks hold leaf blocks only.
const LAYOUT_TYPES: [&str; 2] = ["columns", "card"];

pub fn blocks_json_schema() -> Value {
    let variants = |types: &[(&str, &[Field])], tag: &str| -> Value {
        let variants: Vec<Value> = types.iter().map(|(name, fields)| object(fields, Some((tag, name)))).collect();
        json!({"oneOf": variants})
    };
    let leaf_types: Vec<(&str, &[Field])> =
        BLOCK_TYPES.iter().copied().filter(|(name, _)| !LAYOUT_TYPES.contains(name)).collect();
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Palaver reply document",
        "description": "A reply made of display blocks: v, then optional datasets, then blocks (in that key order).",
        "type": "object",
        "properties": {
            "v": {"const": 1},
            "datasets": {
                "type": "object",
                "propertyNames": {"pattern": BLOCK_ID_PATTERN},
                "additionalProperties": {"$ref": "#/definitions/dataset"},
            },
            "blocks": {"type": "array", "items": {"$ref": "#/definitions/block"}, "minItems": 1, "maxItems": MAX_BLOCKS},
        },
        "required": ["v", "blocks"],
        "additionalProperties": false,
        "definitions": {
            "block": variants(BLOCK_TYPES, "type"),
            "leafBlock": variants(&leaf_types, "type"),
            "element": variants(ELEMENT_TYPES, "type"),
            "action": variants(ACTION_KINDS, "kind"),
            "dataset": {"oneOf": [object(INLINE_DATASET, None), object(REF_DATASET, None)]},
        },
    })
}

/// A closed object with `fields`, plus the `(tag, value)` that picks a union member.
fn object(fields: &[Field], tag: Option<(&str, &str)>) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    if let Some((tag, value)) = tag {
        properties.insert(tag.to_string(), json!({"const": value}));
        required.push(tag.to_string());
    }
    for field in fields {
        properties.insert(field.key.to_string(), shape(&field.shape));
        if field.required {
            required.push(field.key.to_string());
        }
    }
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

fn string(max: usize) -> Value {
    let mut schema = json!({"type": "string", "minLength": 1});
    if max != usize::MAX {
        schema["maxLength"] = json!(max);
    }
    schema
}

fn shape(shape: &Shape) -> Value {
    match shape {
        Shape::Text(max) => {
            let mut schema = string(*max);
            schema["pattern"] = json!("\\S");
            schema
        }
        Shape::Str(max) => string(*max),
        Shape::Id(max) => {
            let mut schema = json!({"type": "string", "pattern": BLOCK_ID_PATTERN});
            if *max < 64 {
                schema["maxLength"] = json!(max);
            }
            schema
        }
        Shape::CallbackName => json!({"type": "string", "pattern": "^[a-z][A-Za-z0-9_]{0,63}$"}),
        Shape::DatasetRefId => json!({"type": "string", "pattern": "^[A-Za-z0-9_-]{1,80}$"}),
        Shape::Enum(values) => json!({"type": "string", "enum": values}),
        Shape::Number => json!({"type": "number"}),
        Shape::Int { min, max } | Shape::IntRange { min, max } => {
            let mut schema = json!({"type": "integer", "minimum": min});
            if *max != i64::MAX {
                schema["maximum"] = json!(max);
            }
            schema
        }
        Shape::Bool => json!({"type": "boolean"}),
        Shape::AnyObject => json!({"type": "object"}),
        Shape::Object(fields) => object(fields, None),
        Shape::List { item, min, max } => {
            let mut schema = json!({"type": "array", "items": self::shape(item)});
            if *min > 0 {
                schema["minItems"] = json!(min);
            }
            if *max != usize::MAX {
                schema["maxItems"] = json!(max);
            }
            schema
        }
        // Every list of blocks the catalog walks below the top level is a layout's children.
        Shape::Block => json!({"$ref": "#/definitions/leafBlock"}),
        Shape::Element => json!({"$ref": "#/definitions/element"}),
        Shape::Action => json!({"$ref": "#/definitions/action"}),
        Shape::Dataset => json!({"$ref": "#/definitions/dataset"}),
        Shape::Cell => json!({"type": ["string", "number", "null"]}),
    }
}
