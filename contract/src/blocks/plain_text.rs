//! The plain text a copy action writes for a block (`blockPlainText`).

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::model::{Block, Dataset};
use crate::text::{js_number, js_to_fixed};

/// `checked` holds the current ticks of a checklist (they override the document's);
/// `datasets` are the document's, for tables.
pub fn block_plain_text(
    block: &Block,
    checked: &HashMap<String, bool>,
    datasets: &BTreeMap<String, Dataset>,
) -> String {
    match block {
        Block::Stepper(stepper) => {
            let with_unit = |amount: String, unit: &Option<String>| match unit {
                Some(unit) => format!("{amount} {unit}"),
                None => amount,
            };
            std::iter::once(format!("{}: {}", stepper.label, with_unit(js_number(stepper.value), &stepper.unit)))
                .chain(stepper.items.iter().map(|item| {
                    let amount = js_to_fixed(item.amount, usize::from(item.decimals.unwrap_or(0)));
                    format!("{}: {}", item.label, with_unit(amount, &item.unit))
                }))
                .collect::<Vec<_>>()
                .join("\n")
        }
        Block::Checklist(checklist) => checklist
            .items
            .iter()
            .map(|item| {
                let ticked = checked.get(&item.id).copied().unwrap_or(item.checked == Some(true));
                format!("[{}] {}", if ticked { "x" } else { " " }, item.text)
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::List(list) => list
            .items
            .iter()
            .map(|item| match &item.text {
                Some(text) => format!("- {}: {text}", item.title),
                None => format!("- {}", item.title),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Block::Table(table) => {
            let Some(Dataset::Inline(dataset)) = datasets.get(&table.data) else {
                return String::new();
            };
            let names: Vec<&str> = match &table.columns {
                Some(columns) => columns.iter().map(String::as_str).collect(),
                None => dataset.columns.iter().map(|column| column.name.as_str()).collect(),
            };
            let positions: Vec<Option<usize>> =
                names.iter().map(|name| dataset.columns.iter().position(|column| column.name == *name)).collect();
            let header = names.iter().map(|name| name.replace('_', " ")).collect::<Vec<_>>().join("\t");
            let rows = dataset.rows.iter().map(|row| {
                positions
                    .iter()
                    .map(|position| position.and_then(|at| row.get(at)).map(cell_text).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\t")
            });
            std::iter::once(header).chain(rows).collect::<Vec<_>>().join("\n")
        }
        Block::Text(text) => text.markdown.clone(),
        _ => String::new(),
    }
}

/// A dataset cell as text: null is empty, numbers print as JavaScript prints them.
pub fn cell_text(cell: &Value) -> String {
    match cell {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        Value::Number(number) => js_number(number.as_f64().unwrap_or_default()),
        other => other.to_string(),
    }
}
