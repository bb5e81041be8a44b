//! The block catalog as data: every block type, element, action and dataset with its fields
//! and their shapes. The schema check, the JSON Schema and the prompt all read it.

use super::limits::*;

/// What a field holds.
pub enum Shape {
    /// Visible text: 1..=N characters, not all whitespace.
    Text(usize),
    /// A string of 1..=N characters (a dataset name, a column name, a URL).
    Str(usize),
    /// A block or element id (`^[a-z][a-z0-9_]{0,63}$`), at most N characters.
    Id(usize),
    /// A host action name (`^[a-z][A-Za-z0-9_]{0,63}$`).
    CallbackName,
    /// A ref dataset's id (`^[A-Za-z0-9_-]{1,80}$`).
    DatasetRefId,
    Enum(&'static [&'static str]),
    /// A finite number.
    Number,
    /// A whole number within `min..=max`; below `min` is the wrong type (`INVALID_TYPE`, as the
    /// reference maps Zod's `too_small`).
    Int {
        min: i64,
        max: i64,
    },
    /// A whole number within `min..=max` where either side is `OUT_OF_RANGE` (a stepper item's
    /// `decimals`, as the reference reports it).
    IntRange {
        min: i64,
        max: i64,
    },
    Bool,
    /// Any object (a callback's payload).
    AnyObject,
    Object(&'static [Field]),
    List {
        item: &'static Shape,
        min: usize,
        max: usize,
    },
    /// Any block, chosen by its `type`.
    Block,
    /// An actions block's element, chosen by its `type`.
    Element,
    /// An action, chosen by its `kind`.
    Action,
    /// A dataset: ref when `source` is "ref", else inline.
    Dataset,
    /// A dataset row cell: a string, a number or null.
    Cell,
}

pub struct Field {
    pub key: &'static str,
    pub shape: Shape,
    pub required: bool,
}

const fn req(key: &'static str, shape: Shape) -> Field {
    Field { key, shape, required: true }
}

const fn opt(key: &'static str, shape: Shape) -> Field {
    Field { key, shape, required: false }
}

/// Plain ids: the pattern alone caps them at 64.
const ID: Shape = Shape::Id(64);
const NAME: Shape = Shape::Str(64);
const CALLBACK: Shape = Shape::Object(&[req("name", Shape::CallbackName), opt("payload", Shape::AnyObject)]);
const IMAGE: Shape = Shape::Object(&[req("src", Shape::Str(100_000)), req("alt", Shape::Text(GALLERY_ALT_MAX))]);
pub(super) const BLOCKS_1_50: Shape = Shape::List { item: &Shape::Block, min: 1, max: MAX_BLOCKS };

/// Every block type with its fields (`type` itself is implied).
pub const BLOCK_TYPES: &[(&str, &[Field])] = &[
    ("heading", &[opt("id", ID), req("text", Shape::Text(HEADING_TEXT_MAX)), opt("size", Shape::Enum(HEADING_SIZES))]),
    ("text", &[opt("id", ID), req("markdown", Shape::Text(BLOCK_TEXT_MAX))]),
    (
        "metric",
        &[
            opt("id", ID),
            req("label", Shape::Text(METRIC_LABEL_MAX)),
            req("value", Shape::Text(METRIC_VALUE_MAX)),
            opt("delta", Shape::Text(METRIC_DELTA_MAX)),
            opt("helper", Shape::Text(METRIC_HELPER_MAX)),
            opt("trend", Shape::Enum(METRIC_TRENDS)),
        ],
    ),
    ("badge", &[opt("id", ID), req("text", Shape::Text(BADGE_TEXT_MAX)), opt("status", Shape::Enum(BADGE_STATUSES))]),
    ("divider", &[opt("id", ID)]),
    ("context", &[opt("id", ID), req("text", Shape::Text(CONTEXT_TEXT_MAX))]),
    (
        "chart",
        &[
            opt("id", ID),
            req("kind", Shape::Enum(CHART_KINDS)),
            opt("data", NAME),
            opt("x", NAME),
            opt("y", NAME),
            opt(
                "points",
                Shape::List {
                    item: &Shape::Object(&[req("label", Shape::Text(80)), req("value", Shape::Number)]),
                    min: 0,
                    max: DATASET_ROW_MAX,
                },
            ),
            opt("title", Shape::Text(CARD_TITLE_MAX)),
            opt("emptyText", Shape::Text(CONTEXT_TEXT_MAX)),
            opt("height", Shape::Enum(CHART_HEIGHTS)),
            opt("legend", Shape::Bool),
        ],
    ),
    (
        "table",
        &[
            opt("id", ID),
            req("data", NAME),
            opt("columns", Shape::List { item: &NAME, min: 1, max: usize::MAX }),
            opt("title", Shape::Text(CARD_TITLE_MAX)),
        ],
    ),
    (
        "actions",
        &[req("id", ID), req("elements", Shape::List { item: &Shape::Element, min: 1, max: ACTION_ELEMENTS_MAX })],
    ),
    (
        "columns",
        &[opt("id", ID), req("children", Shape::List { item: &Shape::Block, min: COLUMNS_MIN, max: COLUMNS_MAX })],
    ),
    (
        "card",
        &[
            opt("id", ID),
            opt("title", Shape::Text(CARD_TITLE_MAX)),
            opt("eyebrow", Shape::Text(CARD_EYEBROW_MAX)),
            req("children", BLOCKS_1_50),
        ],
    ),
    (
        "callout",
        &[opt("id", ID), req("text", Shape::Text(BLOCK_TEXT_MAX)), opt("status", Shape::Enum(CALLOUT_STATUSES))],
    ),
    ("image", &[opt("id", ID), req("src", Shape::Str(100_000)), req("alt", Shape::Text(GALLERY_ALT_MAX))]),
    ("details", &[opt("id", ID), req("title", Shape::Text(200)), req("text", Shape::Text(BLOCK_TEXT_MAX))]),
    (
        "stepper",
        &[
            req("id", Shape::Id(STEPPER_ID_MAX)),
            req("label", Shape::Text(STEPPER_LABEL_MAX)),
            req("value", Shape::Number),
            req("min", Shape::Number),
            req("max", Shape::Number),
            opt("step", Shape::Number),
            opt("unit", Shape::Text(STEPPER_UNIT_MAX)),
            req("callback", CALLBACK),
            opt(
                "items",
                Shape::List {
                    item: &Shape::Object(&[
                        req("label", Shape::Text(STEPPER_LABEL_MAX)),
                        req("amount", Shape::Number),
                        opt("unit", Shape::Text(STEPPER_ITEM_UNIT_MAX)),
                        opt("decimals", Shape::IntRange { min: 0, max: STEPPER_DECIMALS_MAX }),
                        opt("round", Shape::Enum(STEPPER_ROUNDING)),
                    ]),
                    min: 0,
                    max: STEPPER_ITEMS_MAX,
                },
            ),
            opt("itemsTitle", Shape::Text(STEPPER_LABEL_MAX)),
            opt("note", Shape::Text(STEPPER_NOTE_MAX)),
        ],
    ),
    (
        "checklist",
        &[
            req("id", Shape::Id(CHECKLIST_ID_MAX)),
            opt("title", Shape::Text(CHECKLIST_TITLE_MAX)),
            opt("callback", CALLBACK),
            req(
                "items",
                Shape::List {
                    item: &Shape::Object(&[
                        req("id", Shape::Id(CHECKLIST_ITEM_ID_MAX)),
                        req("text", Shape::Text(CHECKLIST_ITEM_TEXT_MAX)),
                        opt("meta", Shape::Text(CHECKLIST_ITEM_META_MAX)),
                        opt("detail", Shape::Text(CHECKLIST_ITEM_DETAIL_MAX)),
                        opt("checked", Shape::Bool),
                    ]),
                    min: CHECKLIST_ITEMS_MIN,
                    max: CHECKLIST_ITEMS_MAX,
                },
            ),
        ],
    ),
    (
        "gallery",
        &[
            opt("id", ID),
            req(
                "images",
                Shape::List {
                    item: &Shape::Object(&[
                        req("src", Shape::Str(100_000)),
                        req("alt", Shape::Text(GALLERY_ALT_MAX)),
                        opt("caption", Shape::Text(GALLERY_CAPTION_MAX)),
                    ]),
                    min: GALLERY_IMAGES_MIN,
                    max: GALLERY_IMAGES_MAX,
                },
            ),
        ],
    ),
    (
        "list",
        &[
            opt("id", ID),
            req(
                "items",
                Shape::List {
                    item: &Shape::Object(&[
                        req("title", Shape::Text(LIST_ITEM_TITLE_MAX)),
                        opt("text", Shape::Text(LIST_ITEM_TEXT_MAX)),
                        opt("meta", Shape::Text(LIST_ITEM_META_MAX)),
                        opt("image", IMAGE),
                    ]),
                    min: LIST_ITEMS_MIN,
                    max: LIST_ITEMS_MAX,
                },
            ),
        ],
    ),
    (
        "html",
        &[
            opt("id", ID),
            req("html", Shape::Str(usize::MAX)),
            opt("title", Shape::Text(200)),
            opt("height", Shape::Enum(HTML_HEIGHTS)),
        ],
    ),
];

pub(super) const ELEMENT_TYPES: &[(&str, &[Field])] = &[
    (
        "button",
        &[
            req("id", ID),
            req("text", Shape::Text(80)),
            opt("variant", Shape::Enum(BUTTON_VARIANTS)),
            opt("iconName", Shape::Str(40)),
            req("action", Shape::Action),
        ],
    ),
    (
        "segmented",
        &[
            req("id", ID),
            req("target", NAME),
            req(
                "options",
                Shape::List {
                    item: &Shape::Object(&[req("label", Shape::Text(40)), req("data", NAME)]),
                    min: 2,
                    max: 8,
                },
            ),
        ],
    ),
];

pub(super) const ACTION_KINDS: &[(&str, &[Field])] = &[
    ("reply", &[req("text", Shape::Text(COPY_TEXT_MAX))]),
    ("open", &[opt("route", Shape::Str(200)), opt("url", Shape::Str(2000))]),
    ("select", &[req("target", NAME), req("data", NAME)]),
    ("callback", &[req("name", Shape::CallbackName), opt("payload", Shape::AnyObject)]),
    ("copy", &[opt("text", Shape::Text(COPY_TEXT_MAX)), opt("target", NAME)]),
];

pub(super) const REF_DATASET: &[Field] = &[
    req("source", Shape::Enum(&["ref"])),
    req("id", Shape::DatasetRefId),
    opt("grain", Shape::Enum(DATASET_GRAINS)),
    opt("limit", Shape::Int { min: 1, max: i64::MAX }),
];

pub(super) const INLINE_DATASET: &[Field] = &[
    opt("source", Shape::Enum(&["inline"])),
    req(
        "columns",
        Shape::List {
            item: &Shape::Object(&[req("name", ID), req("type", Shape::Enum(DATASET_COLUMN_TYPES))]),
            min: 1,
            max: usize::MAX,
        },
    ),
    req(
        "rows",
        Shape::List { item: &Shape::List { item: &Shape::Cell, min: 0, max: usize::MAX }, min: 0, max: usize::MAX },
    ),
];
