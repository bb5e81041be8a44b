//! The semantic checks that run once a document passed its schema (`lintDocument`): dataset
//! shapes, references between blocks, ids, charts, images, callbacks, and the warnings.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::errors::{BlockError, BlockErrorCode as Code, BlockWarning, BlockWarningCode};
use super::limits::*;
use super::model::*;
use crate::path::Loc;
use crate::site_path::is_site_path;
use crate::text::js_number;

/// What the host allows in a document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockOptions {
    /// The html block is allowed (`uiBlocks.html`).
    pub allow_html: bool,
    /// Registered host action names; `None` means callbacks are not checked.
    pub host_actions: Option<Vec<String>>,
    /// The actions a stepper may call (defaults to `host_actions`).
    pub stepper_actions: Option<Vec<String>>,
    /// The actions a checklist may call (defaults to `host_actions`).
    pub checklist_actions: Option<Vec<String>>,
    /// Hosts https images may come from; empty means no https images.
    pub image_hosts: Vec<String>,
    /// Columns of ref datasets the host knows, by ref id.
    pub known_datasets: BTreeMap<String, Vec<Column>>,
}

pub fn lint_document(
    document: &BlocksDocument,
    options: &BlockOptions,
    errors: &mut Vec<BlockError>,
    warnings: &mut Vec<BlockWarning>,
) {
    let root = Loc::Root;
    if document.datasets.len() > MAX_DATASETS {
        let path = root.key("datasets");
        errors.push(BlockError::new(
            path,
            Code::TOO_MANY,
            format!("The document has more than {MAX_DATASETS} datasets."),
            format!("Keep {MAX_DATASETS} datasets or fewer."),
        ));
    }
    for (name, dataset) in &document.datasets {
        lint_dataset(root.key("datasets").name(name), name, dataset, errors);
    }
    let mut lint = Lint { document, options, errors, warnings, targets: Targets::default(), seen_ids: HashSet::new() };
    lint.collect_targets(&document.blocks, root.key("blocks"));
    lint.walk(&document.blocks, root.key("blocks"));
}

fn lint_dataset(at: Loc<'_>, name: &str, dataset: &Dataset, errors: &mut Vec<BlockError>) {
    let inline = match dataset {
        Dataset::Ref(reference) => {
            if reference.limit.is_some_and(|limit| limit > REF_LIMIT_MAX as u64) {
                errors.push(BlockError::described(
                    at.key("limit"),
                    Code::TOO_MANY_POINTS,
                    format!("Set grain to a coarser bucket, or set limit to {REF_LIMIT_MAX} or less."),
                ));
            }
            return;
        }
        Dataset::Inline(inline) => inline,
    };
    if inline.columns.len() > DATASET_COLUMN_MAX {
        let fix = format!("Use {DATASET_COLUMN_MAX} columns or fewer.");
        errors.push(BlockError::described(at.key("columns"), Code::DATASET_TOO_LARGE, fix));
    }
    if inline.rows.len() > DATASET_ROW_MAX {
        let fix = format!("Use {DATASET_ROW_MAX} rows or fewer, or return a ref dataset from a tool.");
        errors.push(BlockError::described(at.key("rows"), Code::DATASET_TOO_LARGE, fix));
    }
    let mut names = HashSet::new();
    for (index, column) in inline.columns.iter().enumerate() {
        if !names.insert(column.name.as_str()) {
            let fix = format!("Rename the duplicate column \"{}\".", column.name);
            errors.push(BlockError::described(at.key("columns").index(index).key("name"), Code::DUPLICATE_ID, fix));
        }
    }
    let rows_at = at.key("rows");
    for (row_index, row) in inline.rows.iter().enumerate() {
        let row_path = rows_at.index(row_index);
        if row.len() != inline.columns.len() {
            let fix = format!("Give the row {} values, one per column.", inline.columns.len());
            errors.push(BlockError::described(row_path, Code::ROW_ARITY_MISMATCH, fix));
            continue;
        }
        for (cell_index, (cell, column)) in row.iter().zip(&inline.columns).enumerate() {
            let fits = match column.kind {
                ColumnType::Number => cell.as_f64().is_some_and(f64::is_finite),
                ColumnType::String | ColumnType::Date => cell.as_str().is_some_and(crate::text::is_visible),
            };
            if !fits {
                let kind = match column.kind {
                    ColumnType::Number => "number",
                    ColumnType::String => "string",
                    ColumnType::Date => "date",
                };
                let fix = format!("Make datasets.{name}.rows[{row_index}][{cell_index}] a {kind}.");
                errors.push(BlockError::described(row_path.index(cell_index), Code::COLUMN_TYPE_MISMATCH, fix));
            }
        }
    }
}

#[derive(Default)]
struct Targets<'a> {
    /// Chart and table ids.
    selectable: HashSet<&'a str>,
    /// Stepper, checklist, list, table and text ids.
    copyable: HashSet<&'a str>,
    /// Each reserved element id and the block that reserved it, as its index in `owner_fixes`.
    reserved: HashMap<String, usize>,
    /// How to explain each reserving block's element ids: written once per block, not once per
    /// element (a checklist reserves one per item).
    owner_fixes: Vec<String>,
}

struct Lint<'a> {
    document: &'a BlocksDocument,
    options: &'a BlockOptions,
    errors: &'a mut Vec<BlockError>,
    warnings: &'a mut Vec<BlockWarning>,
    targets: Targets<'a>,
    seen_ids: HashSet<&'a str>,
}

impl<'a> Lint<'a> {
    fn collect_targets(&mut self, blocks: &'a [Block], at: Loc<'_>) {
        for (index, block) in blocks.iter().enumerate() {
            let path = at.index(index);
            if let Some(id) = block.id() {
                if matches!(block, Block::Chart(_) | Block::Table(_)) {
                    self.targets.selectable.insert(id);
                }
                if COPY_TARGET_TYPES.contains(&block.type_name()) {
                    self.targets.copyable.insert(id);
                }
            }
            match block {
                Block::Stepper(stepper) => {
                    let owner = self
                        .owner(format!("A stepper uses {0}_decrease and {0}_increase for its buttons.", stepper.id));
                    for element in stepper_element_ids(&stepper.id) {
                        self.reserve(element, owner, path);
                    }
                }
                Block::Checklist(checklist) => {
                    let owner =
                        self.owner(format!("A checklist uses {}_<item id> for each item's tick.", checklist.id));
                    for item in &checklist.items {
                        self.reserve(checklist_element_id(&checklist.id, &item.id), owner, path);
                    }
                }
                _ => {}
            }
            self.collect_targets(block.children(), path.key("children"));
        }
    }

    /// A block that reserves element ids, with how to explain them; its number for `reserve`.
    fn owner(&mut self, fix: String) -> usize {
        self.targets.owner_fixes.push(fix);
        self.targets.owner_fixes.len() - 1
    }

    /// Reserves `element` for block number `owner` (at `at`); a block may name an element twice.
    fn reserve(&mut self, element: String, owner: usize, at: Loc<'_>) {
        match self.targets.reserved.get(&element) {
            Some(&held) if held != owner => {
                let fix = format!(
                    "Rename {at}. Its element id {element} is already used. {}",
                    self.targets.owner_fixes[held]
                );
                self.errors.push(BlockError::described(at.key("id"), Code::DUPLICATE_ID, fix));
            }
            Some(_) => {}
            None => {
                self.targets.reserved.insert(element, owner);
            }
        }
    }

    fn walk(&mut self, blocks: &'a [Block], at: Loc<'_>) {
        for (index, block) in blocks.iter().enumerate() {
            let path = at.index(index);
            if let Some(id) = block.id() {
                self.check_id(id, path.key("id"), path);
            }
            self.block(block, path);
            self.walk(block.children(), path.key("children"));
        }
    }

    /// A block or element id must be unique and must not be an id a stepper or checklist
    /// reserved for its buttons.
    fn check_id(&mut self, id: &'a str, id_path: Loc<'_>, owner: Loc<'_>) {
        if let Some(&reserver) = self.targets.reserved.get(id) {
            let fix = format!("Rename {owner}. {}", self.targets.owner_fixes[reserver]);
            self.errors.push(BlockError::described(id_path, Code::DUPLICATE_ID, fix));
        } else if !self.seen_ids.insert(id) {
            self.errors.push(BlockError::described(id_path, Code::DUPLICATE_ID, format!("Give {owner} a unique id.")));
        }
    }

    fn error(&mut self, at: Loc<'_>, code: Code, fix: impl Into<String>) {
        self.errors.push(BlockError::described(at, code, fix));
    }

    fn check_image(&mut self, src: &str, at: Loc<'_>) {
        if !image_source_allowed(src, &self.options.image_hosts) {
            let fix = "Use a data:image URL, a file: ref, or an https URL whose host is in uiBlocks.imageHosts.";
            self.error(at.key("src"), Code::IMAGE_HOST_NOT_ALLOWED, fix);
        }
    }

    fn check_callback(&mut self, name: &str, allowed: Option<&Vec<String>>, at: Loc<'_>) {
        let Some(allowed) = allowed else { return };
        if !allowed.iter().any(|action| action == name) {
            let listed = if allowed.is_empty() { "(none registered)".to_string() } else { allowed.join(", ") };
            self.error(at, Code::UNKNOWN_HOST_ACTION, format!("Use one of: {listed}."));
        }
    }

    fn block(&mut self, block: &'a Block, at: Loc<'_>) {
        let options = self.options;
        match block {
            Block::Html(html) => {
                if !options.allow_html {
                    let fix = "Turn on uiBlocks.html before sending an html block, or use a text block.";
                    self.error(at, Code::HTML_DISABLED, fix);
                }
                if html.html.len() > HTML_MAX_BYTES {
                    let fix = format!("Keep the html field at or under {HTML_MAX_BYTES} bytes.");
                    self.error(at.key("html"), Code::HTML_TOO_LARGE, fix);
                }
            }
            Block::Image(image) => self.check_image(&image.src, at),
            Block::Gallery(gallery) => {
                for (index, image) in gallery.images.iter().enumerate() {
                    self.check_image(&image.src, at.key("images").index(index));
                }
            }
            Block::List(list) => {
                for (index, item) in list.items.iter().enumerate() {
                    if let Some(image) = &item.image {
                        self.check_image(&image.src, at.key("items").index(index).key("image"));
                    }
                }
            }
            Block::Stepper(stepper) => {
                if stepper.min >= stepper.max {
                    self.error(at.key("max"), Code::OUT_OF_RANGE, "Set max above min.");
                } else if stepper.value < stepper.min || stepper.value > stepper.max {
                    let fix = format!("Set value between {} and {}.", js_number(stepper.min), js_number(stepper.max));
                    self.error(at.key("value"), Code::OUT_OF_RANGE, fix);
                }
                if stepper.step.is_some_and(|step| step <= 0.0) {
                    self.error(at.key("step"), Code::OUT_OF_RANGE, "Set step above 0, or leave it out for 1.");
                }
                let allowed = options.stepper_actions.as_ref().or(options.host_actions.as_ref());
                self.check_callback(&stepper.callback.name, allowed, at.key("callback").key("name"));
            }
            Block::Checklist(checklist) => {
                let mut item_ids = HashSet::new();
                let items_at = at.key("items");
                for (index, item) in checklist.items.iter().enumerate() {
                    if !item_ids.insert(item.id.as_str()) {
                        let item_path = items_at.index(index);
                        let fix = format!("Give {item_path} an id no other item in this checklist uses.");
                        self.error(item_path.key("id"), Code::DUPLICATE_ID, fix);
                    }
                }
                if let Some(callback) = &checklist.callback {
                    let allowed = options.checklist_actions.as_ref().or(options.host_actions.as_ref());
                    self.check_callback(&callback.name, allowed, at.key("callback").key("name"));
                }
            }
            Block::Chart(chart) => self.chart(chart, at),
            Block::Actions(actions) => {
                let elements_at = at.key("elements");
                for (index, element) in actions.elements.iter().enumerate() {
                    let element_path = elements_at.index(index);
                    self.check_id(element.id(), element_path.key("id"), element_path);
                    match element {
                        Element::Segmented(segmented) => {
                            if !self.targets.selectable.contains(segmented.target.as_str()) {
                                self.error(element_path.key("target"), Code::SELECT_TARGET_INVALID, SELECT_FIX);
                            }
                        }
                        Element::Button(button) => self.action(&button.action, element_path.key("action")),
                    }
                }
            }
            Block::Table(table) => self.table(table, at),
            _ => {}
        }
    }

    fn action(&mut self, action: &Action, at: Loc<'_>) {
        match action {
            Action::Select { target, .. } if !self.targets.selectable.contains(target.as_str()) => {
                self.error(at.key("target"), Code::SELECT_TARGET_INVALID, SELECT_FIX);
            }
            Action::Callback { name, .. } => {
                let allowed = self.options.host_actions.as_ref();
                self.check_callback(name, allowed, at.key("name"));
            }
            Action::Open { route, url } if route.is_some() == url.is_some() => {
                self.error(at, Code::MISSING_REQUIRED, "Set either url or route on an open action.");
            }
            Action::Open { route: Some(route), .. } if !is_site_path(route) => {
                let fix = "Use a path of this site: one leading /, such as /reports, with no // or \\ at the start and no spaces, tabs or control characters.";
                self.error(at.key("route"), Code::INVALID_FORMAT, fix);
            }
            Action::Copy { text, target } => {
                if text.is_some() == target.is_some() {
                    self.error(at, Code::MISSING_REQUIRED, "Set either text or target on a copy action.");
                } else if target.as_ref().is_some_and(|target| !self.targets.copyable.contains(target.as_str())) {
                    let fix =
                        "Set target to the id of a stepper, checklist, list, table, or text block in this document.";
                    self.error(at.key("target"), Code::COPY_TARGET_INVALID, fix);
                }
            }
            _ => {}
        }
    }

    /// The columns of the dataset `name`, when they are known.
    fn columns_of(&self, name: &str) -> Option<&[Column]> {
        match self.document.datasets.get(name)? {
            Dataset::Inline(inline) => Some(&inline.columns),
            Dataset::Ref(reference) => self.options.known_datasets.get(&reference.id).map(Vec::as_slice),
        }
    }

    fn chart(&mut self, chart: &Chart, at: Loc<'_>) {
        let bound = chart.data.is_some() || chart.x.is_some() || chart.y.is_some();
        if chart.points.is_some() && bound {
            let path = at.key("points");
            self.errors.push(BlockError::new(
                path,
                Code::INVALID_TYPE,
                "A chart binds to a dataset or lists points.",
                "Remove points, or remove data, x, and y.",
            ));
        } else if chart.points.is_none() && (chart.data.is_none() || chart.x.is_none() || chart.y.is_none()) {
            self.error(at.key("data"), Code::MISSING_REQUIRED, "Set data, x, and y, or set points.");
        }
        if let Some(data) = &chart.data {
            if !self.document.datasets.contains_key(data) {
                let fix = format!("Define datasets.{data}, or use a dataset name that exists.");
                self.error(at.key("data"), Code::DATASET_NOT_FOUND, fix);
            } else if let (Some(columns), Some(x), Some(y)) = (self.columns_of(data), &chart.x, &chart.y) {
                let kind_of = |name: &str| columns.iter().find(|column| column.name == name).map(|column| column.kind);
                let (x_kind, y_kind) = (kind_of(x), kind_of(y));
                match x_kind {
                    None => self.error(at.key("x"), Code::COLUMN_NOT_FOUND, format!("Set x to a column of {data}.")),
                    Some(ColumnType::Number) => {
                        self.error(at.key("x"), Code::COLUMN_TYPE_MISMATCH, "Use a string or date column for x.")
                    }
                    Some(_) => {}
                }
                match y_kind {
                    None => self.error(at.key("y"), Code::COLUMN_NOT_FOUND, format!("Set y to a column of {data}.")),
                    Some(ColumnType::Number) => {}
                    Some(_) => self.error(at.key("y"), Code::COLUMN_TYPE_MISMATCH, "Use a number column for y."),
                }
            }
        }
        let rendered = match (&chart.points, chart.data.as_ref().and_then(|data| self.document.datasets.get(data))) {
            (Some(points), _) => Some(points.len()),
            (None, Some(Dataset::Inline(inline))) => Some(inline.rows.len()),
            (None, Some(Dataset::Ref(reference))) => reference.limit.map(|limit| limit as usize),
            (None, None) => None,
        };
        let warning = match (chart.kind, rendered) {
            (ChartKind::Bar, Some(count)) if count > BAR_CATEGORY_WARNING => {
                Some((BlockWarningCode::BAR_TOO_MANY_CATEGORIES, "Group the categories, or use a line chart."))
            }
            (ChartKind::Donut, Some(count)) if count > DONUT_SLICE_WARNING => {
                Some((BlockWarningCode::DONUT_TOO_MANY_SLICES, "Keep 8 slices or fewer."))
            }
            (ChartKind::Line, Some(1)) => {
                Some((BlockWarningCode::LINE_SINGLE_POINT, "Add another point, or use a metric block."))
            }
            _ => None,
        };
        if let Some((code, fix)) = warning {
            self.warnings.push(BlockWarning::new(at, code, fix));
        }
    }

    fn table(&mut self, table: &Table, at: Loc<'_>) {
        if !self.document.datasets.contains_key(&table.data) {
            self.error(at.key("data"), Code::DATASET_NOT_FOUND, format!("Define datasets.{}.", table.data));
            return;
        }
        let known: Option<Vec<String>> =
            self.columns_of(&table.data).map(|columns| columns.iter().map(|column| column.name.clone()).collect());
        let listed = table.columns.as_ref().or(known.as_ref()).map_or(0, Vec::len);
        if listed > DATASET_COLUMN_MAX {
            self.error(at.key("columns"), Code::TABLE_TOO_WIDE, format!("List {DATASET_COLUMN_MAX} columns or fewer."));
        }
        if let (Some(columns), Some(known)) = (&table.columns, &known) {
            for (index, name) in columns.iter().enumerate().filter(|(_, name)| !known.contains(name)) {
                let fix = format!("Remove \"{name}\" or add it to the dataset.");
                self.error(at.key("columns").index(index), Code::COLUMN_NOT_FOUND, fix);
            }
        }
    }
}

const SELECT_FIX: &str = "Set target to the id of a chart or table in this document.";

/// The ids of a stepper's two buttons.
pub fn stepper_element_ids(stepper_id: &str) -> [String; 2] {
    [format!("{stepper_id}_decrease"), format!("{stepper_id}_increase")]
}

/// The id of a checklist item's tick.
pub fn checklist_element_id(checklist_id: &str, item_id: &str) -> String {
    format!("{checklist_id}_{item_id}")
}

/// Whether an image may load from `src` (`imageSourceIssue`): a `data:image/` URL, a
/// `file:` ref, or an https URL on one of `hosts`.
pub fn image_source_allowed(src: &str, hosts: &[String]) -> bool {
    if let Some(reference) = src.strip_prefix("file:") {
        return crate::text::is_visible(reference);
    }
    if starts_with_ignore_case(src, "data:image/") {
        return true;
    }
    let Some(rest) = starts_with_ignore_case(src, "https://").then(|| &src["https://".len()..]) else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host_and_port = authority.rsplit('@').next().unwrap_or_default();
    let host = match host_and_port.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|byte| byte.is_ascii_digit()) => host,
        _ => host_and_port,
    };
    !host.is_empty() && hosts.iter().any(|allowed| allowed.eq_ignore_ascii_case(host))
}

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len()).is_some_and(|start| start.eq_ignore_ascii_case(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_sources() {
        let hosts = vec!["images.example.com".to_string()];
        assert!(image_source_allowed("data:image/png;base64,AAAA", &[]));
        assert!(image_source_allowed("DATA:IMAGE/png;base64,AAAA", &[]));
        assert!(image_source_allowed("file:abc123", &[]));
        assert!(!image_source_allowed("file:  ", &[]));
        assert!(image_source_allowed("https://Images.Example.com/a.jpg", &hosts));
        assert!(image_source_allowed("https://images.example.com:8443/a.jpg", &hosts));
        assert!(!image_source_allowed("https://images.example.com.evil.test/a.jpg", &hosts));
        assert!(!image_source_allowed("https://evil.test/?images.example.com", &hosts));
        assert!(!image_source_allowed("http://images.example.com/a.jpg", &hosts));
        assert!(!image_source_allowed("https://images.example.com/a.jpg", &[]));
        assert!(!image_source_allowed("data:text/html,<script>", &hosts));
        assert!(!image_source_allowed("javascript:alert(1)", &hosts));
    }

    #[test]
    fn element_ids() {
        assert_eq!(stepper_element_ids("guests"), ["guests_decrease", "guests_increase"]);
        assert_eq!(checklist_element_id("prep", "oven"), "prep_oven");
    }
}
