//! The reply document as Rust types: what the lint walks and what the renderer draws. A value
//! becomes a [`BlocksDocument`] only after the schema check passed, so these types carry no
//! limits of their own; they serialize back to the same JSON.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlocksDocument {
    pub v: u8,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub datasets: BTreeMap<String, Dataset>,
    pub blocks: Vec<Block>,
}

impl BlocksDocument {
    /// A document from a parsed value (one that passed the schema), by value: its strings
    /// move into the document, and its top-level blocks are read without serde's buffering.
    pub fn from_value(value: Value) -> Result<Self, serde_json::Error> {
        /// The document's other fields.
        #[derive(Deserialize)]
        struct Head {
            v: u8,
            #[serde(default)]
            datasets: BTreeMap<String, Dataset>,
        }
        let Value::Object(mut fields) = value else { return serde_json::from_value(value) };
        let Some(Value::Array(blocks)) = fields.remove("blocks") else {
            return Err(serde::de::Error::custom("blocks must be a list"));
        };
        let blocks = blocks.into_iter().map(Block::from_value).collect::<Result<_, _>>()?;
        let Head { v, datasets } = serde_json::from_value(Value::Object(fields))?;
        Ok(BlocksDocument { v, datasets, blocks })
    }

    /// The fallback for plain prose (`wrapAsTextDocument`).
    pub fn text(markdown: &str) -> Self {
        BlocksDocument {
            v: 1,
            datasets: BTreeMap::new(),
            blocks: vec![Block::Text(Text { id: None, markdown: markdown.to_string() })],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[serde(from = "DatasetFields")]
pub enum Dataset {
    Ref(RefDataset),
    Inline(InlineDataset),
}

/// Every field either kind of dataset has: read in one pass, then sorted by `source` (an
/// untagged enum would buffer a whole dataset, rows and all, once per kind it tries).
#[derive(Deserialize)]
struct DatasetFields {
    source: Option<String>,
    id: Option<String>,
    grain: Option<String>,
    limit: Option<u64>,
    #[serde(default)]
    columns: Vec<Column>,
    #[serde(default)]
    rows: Vec<Vec<Value>>,
}

impl From<DatasetFields> for Dataset {
    fn from(fields: DatasetFields) -> Self {
        match fields.source.as_deref() {
            Some("ref") => Dataset::Ref(RefDataset {
                source: RefSource::Ref,
                id: fields.id.unwrap_or_default(),
                grain: fields.grain,
                limit: fields.limit,
            }),
            _ => Dataset::Inline(InlineDataset { source: fields.source, columns: fields.columns, rows: fields.rows }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RefDataset {
    pub source: RefSource,
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grain: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RefSource {
    Ref,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InlineDataset {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<Value>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ColumnType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColumnType {
    String,
    Number,
    Date,
}

/// Declares [`Block`], one variant per type, with what reads and names a block by its type.
macro_rules! block_types {
    ($($name:literal => $variant:ident),* $(,)?) => {
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all = "lowercase")]
        pub enum Block {
            $($variant($variant)),*
        }

        impl Block {
            /// Every block type.
            const TYPES: &'static [&'static str] = &[$($name),*];

            pub fn type_name(&self) -> &'static str {
                match self {
                    $(Block::$variant(_) => $name),*
                }
            }

            /// The block of type `name` (one of [`Block::TYPES`]) from its other fields.
            fn of_type(name: &str, fields: Value) -> Result<Block, serde_json::Error> {
                match name {
                    $($name => serde_json::from_value(fields).map(Block::$variant),)*
                    _ => Err(serde::de::Error::unknown_variant(name, Block::TYPES)),
                }
            }
        }
    };
}

block_types! {
    "heading" => Heading,
    "text" => Text,
    "metric" => Metric,
    "badge" => Badge,
    "divider" => Divider,
    "context" => Context,
    "chart" => Chart,
    "table" => Table,
    "actions" => Actions,
    "columns" => Columns,
    "card" => Card,
    "callout" => Callout,
    "image" => Image,
    "details" => Details,
    "stepper" => Stepper,
    "checklist" => Checklist,
    "gallery" => Gallery,
    "list" => List,
    "html" => Html,
}

impl Block {
    pub fn id(&self) -> Option<&str> {
        match self {
            Block::Heading(Heading { id, .. })
            | Block::Text(Text { id, .. })
            | Block::Metric(Metric { id, .. })
            | Block::Badge(Badge { id, .. })
            | Block::Divider(Divider { id })
            | Block::Context(Context { id, .. })
            | Block::Chart(Chart { id, .. })
            | Block::Table(Table { id, .. })
            | Block::Columns(Columns { id, .. })
            | Block::Card(Card { id, .. })
            | Block::Callout(Callout { id, .. })
            | Block::Image(Image { id, .. })
            | Block::Details(Details { id, .. })
            | Block::Gallery(Gallery { id, .. })
            | Block::List(List { id, .. })
            | Block::Html(Html { id, .. }) => id.as_deref(),
            Block::Actions(Actions { id, .. })
            | Block::Stepper(Stepper { id, .. })
            | Block::Checklist(Checklist { id, .. }) => Some(id),
        }
    }

    /// A layout block's children (columns and card); none for a leaf.
    pub fn children(&self) -> &[Block] {
        match self {
            Block::Columns(Columns { children, .. }) | Block::Card(Card { children, .. }) => children,
            _ => &[],
        }
    }

    /// The block with this id among `blocks` or inside their layouts, depth first.
    pub fn find<'b>(blocks: &'b [Block], id: &str) -> Option<&'b Block> {
        blocks
            .iter()
            .find_map(|block| if block.id() == Some(id) { Some(block) } else { Block::find(block.children(), id) })
    }

    /// [`Block::find`], for changing the block found.
    pub fn find_mut<'b>(blocks: &'b mut [Block], id: &str) -> Option<&'b mut Block> {
        for block in blocks {
            if block.id() == Some(id) {
                return Some(block);
            }
            if let Some(found) = Block::find_mut(block.children_mut(), id) {
                return Some(found);
            }
        }
        None
    }

    pub fn children_mut(&mut self) -> &mut [Block] {
        match self {
            Block::Columns(Columns { children, .. }) | Block::Card(Card { children, .. }) => children,
            _ => &mut [],
        }
    }

    /// A block read from a parsed value, by value: its type picks the variant, which reads the
    /// other fields directly (serde's derive would first copy the whole mapping aside to find
    /// the tag; a document's keys are sorted, so the tag is rarely first).
    fn from_value(value: Value) -> Result<Block, serde_json::Error> {
        let Value::Object(mut fields) = value else { return serde_json::from_value(value) };
        match fields.remove("type") {
            Some(Value::String(name)) if Block::TYPES.contains(&name.as_str()) => {
                Block::of_type(&name, Value::Object(fields))
            }
            tag => {
                fields.extend(tag.map(|tag| ("type".to_string(), tag)));
                serde_json::from_value(Value::Object(fields))
            }
        }
    }
}

macro_rules! block_structs {
    ($($(#[$attr:meta])* $name:ident { $($(#[$field_attr:meta])* $field:ident : $ty:ty),* $(,)? })*) => {
        $(
            $(#[$attr])*
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[serde(rename_all = "camelCase")]
            pub struct $name {
                $(
                    $(#[$field_attr])*
                    pub $field: $ty,
                )*
            }
        )*
    };
}

// Optional fields are left out when absent, so a document serializes as it was written.
block_structs! {
    Heading { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, text: String, #[serde(default, skip_serializing_if = "Option::is_none")] size: Option<String> }
    Text { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, markdown: String }
    Metric {
        #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>,
        label: String,
        value: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] delta: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] helper: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] trend: Option<String>,
    }
    Badge { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, text: String, #[serde(default, skip_serializing_if = "Option::is_none")] status: Option<String> }
    Divider { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String> }
    Context { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, text: String }
    Chart {
        #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>,
        kind: ChartKind,
        #[serde(default, skip_serializing_if = "Option::is_none")] data: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] x: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] y: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] points: Option<Vec<Point>>,
        #[serde(default, skip_serializing_if = "Option::is_none")] title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] empty_text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] height: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] legend: Option<bool>,
    }
    Point { label: String, value: f64 }
    Table {
        #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>,
        data: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] columns: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")] title: Option<String>,
    }
    Actions { id: String, elements: Vec<Element> }
    Button {
        id: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] variant: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] icon_name: Option<String>,
        action: Action,
    }
    Segmented { id: String, target: String, options: Vec<SegmentedOption> }
    SegmentedOption { label: String, data: String }
    Columns { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, children: Vec<Block> }
    Card {
        #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] eyebrow: Option<String>,
        children: Vec<Block>,
    }
    Callout { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, text: String, #[serde(default, skip_serializing_if = "Option::is_none")] status: Option<String> }
    Image { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, src: String, alt: String }
    Details { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, title: String, text: String }
    Stepper {
        id: String,
        label: String,
        value: f64,
        min: f64,
        max: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")] step: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")] unit: Option<String>,
        callback: Callback,
        #[serde(default, skip_serializing_if = "Vec::is_empty")] items: Vec<StepperItem>,
        #[serde(default, skip_serializing_if = "Option::is_none")] items_title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] note: Option<String>,
    }
    StepperItem {
        label: String,
        amount: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")] unit: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] decimals: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")] round: Option<String>,
    }
    Callback { name: String, #[serde(default, skip_serializing_if = "Option::is_none")] payload: Option<Map<String, Value>> }
    Checklist {
        id: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] callback: Option<Callback>,
        items: Vec<ChecklistItem>,
    }
    ChecklistItem {
        id: String,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] meta: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] detail: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] checked: Option<bool>,
    }
    Gallery { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, images: Vec<GalleryImage> }
    GalleryImage { src: String, alt: String, #[serde(default, skip_serializing_if = "Option::is_none")] caption: Option<String> }
    List { #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>, items: Vec<ListItem> }
    ListItem {
        title: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] meta: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] image: Option<ListImage>,
    }
    ListImage { src: String, alt: String }
    Html {
        #[serde(default, skip_serializing_if = "Option::is_none")] id: Option<String>,
        html: String,
        #[serde(default, skip_serializing_if = "Option::is_none")] title: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")] height: Option<String>,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChartKind {
    Line,
    Bar,
    Area,
    Donut,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Element {
    Button(Button),
    Segmented(Segmented),
}

impl Element {
    pub fn id(&self) -> &str {
        match self {
            Element::Button(Button { id, .. }) | Element::Segmented(Segmented { id, .. }) => id,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Action {
    Reply {
        text: String,
    },
    Open {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        route: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    Select {
        target: String,
        data: String,
    },
    Callback {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        payload: Option<Map<String, Value>>,
    },
    Copy {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
}
