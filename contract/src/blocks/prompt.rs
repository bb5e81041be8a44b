//! The system-prompt section that teaches a model to reply with a block document
//! (`blocksPromptSection`). Every number comes from the limits.

use super::limits::*;

/// What this host offers; the section only mentions what is usable.
#[derive(Clone, Debug, PartialEq)]
pub struct BlocksPromptOptions {
    pub allow_html: bool,
    pub host_actions: Vec<String>,
    pub image_hosts: Vec<String>,
    /// The stepper, checklist, gallery, list and copy additions.
    pub rich_blocks: bool,
    pub stepper_actions: Vec<String>,
    pub checklist_actions: Vec<String>,
}

impl Default for BlocksPromptOptions {
    fn default() -> Self {
        BlocksPromptOptions {
            allow_html: false,
            host_actions: Vec::new(),
            image_hosts: Vec::new(),
            rich_blocks: true,
            stepper_actions: Vec::new(),
            checklist_actions: Vec::new(),
        }
    }
}

/// Said to the model when its document did not validate and it gets one chance to fix it.
pub const BLOCKS_REPAIR_SYSTEM_PROMPT: &str = "Your last reply was meant to be one block document but did not \
validate. Reply with the corrected document only: the same content, fixed as the errors say, with no prose \
outside it.";

const EXAMPLE_WITH_DATA: &str = "\
v: 1
datasets:
  signups:
    columns:
      - {name: month, type: string}
      - {name: count, type: number}
    rows:
      - [Jan, 120]
      - [Feb, 160]
      - [Mar, 123]
blocks:
  - type: heading
    text: Signups this quarter
  - type: chart
    id: signups_chart
    kind: bar
    data: signups
    x: month
    y: count
    title: Signups by month
  - type: actions
    id: followups
    elements:
      - type: button
        id: weekly
        text: Show weekly
        action: {kind: reply, text: Show weekly signups for this quarter}";

const EXAMPLE_PROSE: &str = "\
v: 1
blocks:
  - type: text
    markdown: I could not find any signups for that range.";

pub fn blocks_prompt_section(options: &BlocksPromptOptions) -> String {
    let offers_stepper = options.rich_blocks && !options.stepper_actions.is_empty();
    let mut types = vec![
        "heading", "text", "metric", "badge", "divider", "context", "chart", "table", "actions", "columns", "card",
    ];
    if options.allow_html {
        types.push("html");
    }
    types.extend(["callout", "image", "details"]);
    if offers_stepper {
        types.push("stepper");
    }
    if options.rich_blocks {
        types.extend(["checklist", "gallery", "list"]);
    }

    let mut lines = vec![
        "Reply with exactly one block document: the whole reply is the document, with no prose outside it and no text before tool calls.".to_string(),
        "The document is YAML or JSON with its keys in this order: v, datasets (optional), blocks. v is 1.".to_string(),
        // Palaver's addition: a reply shows its blocks as they stream, after its datasets.
        "The reader sees nothing until the datasets have arrived: give them only the columns and rows the blocks show, one row per line in flow style ([Jan, 120]), and start blocks with what needs no data (a heading, metrics, a callout).".to_string(),
        format!("Block types: {}.", types.join(", ")),
    ];
    if options.allow_html {
        lines.push(format!(
            "html requires html (at most {HTML_MAX_BYTES} bytes) and may set title and height (sm, md, lg). It is a display-only preview: no scripts, no links, no network; images only as data:image URLs."
        ));
    } else {
        lines.push(format!("Do not emit type html (html blocks are off here; the cap is {HTML_MAX_BYTES} bytes)."));
    }
    lines.push("callout requires text and may set status (info, warning, alert).".to_string());
    lines.push(
        "image requires alt and src; src is a data:image URL, a file: ref, or an https URL on an allowed host."
            .to_string(),
    );
    lines.push(if options.image_hosts.is_empty() {
        "Do not emit an https image src. Use a data:image URL or a file: ref.".to_string()
    } else {
        format!("https images may come only from: {}.", options.image_hosts.join(", "))
    });
    lines.push("details requires title and text; it shows as a collapsed disclosure.".to_string());
    if offers_stepper {
        lines.extend([
            "stepper requires id, label, value, min, max and callback {name, payload?}; step must be above 0 (default 1); unit, items, itemsTitle and note are optional.".to_string(),
            "The stepper's − and + send the callback with payload.value set to the next value and the host returns the updated stepper, so write item amounts for the starting value.".to_string(),
            format!("A stepper's callback name is one of: {}.", options.stepper_actions.join(", ")),
            format!(
                "Stepper items: {{label, amount, unit?, decimals? (0-{STEPPER_DECIMALS_MAX}), round? (nearest, up)}}, at most {STEPPER_ITEMS_MAX}. A stepper id is at most {STEPPER_ID_MAX} characters and reserves <id>_decrease and <id>_increase."
            ),
        ]);
    }
    if options.rich_blocks {
        lines.push(format!(
            "checklist requires id and items (1-{CHECKLIST_ITEMS_MAX}); title is optional and the done count shows as \"2 of 8\"."
        ));
        lines.push(format!(
            "Checklist items: {{id, text (≤ {CHECKLIST_ITEM_TEXT_MAX}), meta? (≤ {CHECKLIST_ITEM_META_MAX}), detail? (≤ {CHECKLIST_ITEM_DETAIL_MAX}), checked?}}."
        ));
        lines.push(if options.checklist_actions.is_empty() {
            "Leave a checklist's callback out: no checklist action is registered. Ticks stay on the device.".to_string()
        } else {
            format!(
                "A checklist's callback name is one of: {}. Each tick sends payload.itemId, payload.checked and payload.state.",
                options.checklist_actions.join(", ")
            )
        });
        lines.push(format!(
            "A checklist id is at most {CHECKLIST_ID_MAX} characters and an item id at most {CHECKLIST_ITEM_ID_MAX}; <checklist id>_<item id> is reserved for each tick."
        ));
        lines.push(format!(
            "gallery requires images ({GALLERY_IMAGES_MIN}-{GALLERY_IMAGES_MAX}) of {{src, alt, caption? (≤ {GALLERY_CAPTION_MAX})}}."
        ));
        lines.push(format!(
            "list requires items (1-{LIST_ITEMS_MAX}) of {{title (≤ {LIST_ITEM_TITLE_MAX}), text? (plain text, ≤ {LIST_ITEM_TEXT_MAX}), meta? (≤ {LIST_ITEM_META_MAX}), image? {{src, alt}}}}."
        ));
        lines.push(format!("card may set eyebrow (≤ {CARD_EYEBROW_MAX}), shown small and muted above its title."));
    }
    lines.extend([
        "heading requires text and may set size (sm, md, lg, xl, 2xl). text requires markdown. metric requires label and value (a string) and may set delta, helper and trend (up, down, flat). badge requires text and may set status (info, error, warning, success, neutral, active). context requires text.".to_string(),
        "chart requires kind (line, bar, area, donut) and either data + x + y (a dataset and two of its columns; y a number column) or points [{label, value}]. table requires data and may list columns.".to_string(),
        "actions requires id and elements; an element is a button {type: button, id, text, variant?, action} or a segmented control {type: segmented, id, target (a chart or table id), options [{label, data}]}.".to_string(),
        "Action kinds: reply {text} sends the text as the user's next message; open {url} or {route}, exactly one; select {target, data} switches the dataset a chart or table shows; callback {name, payload?} calls a host action.".to_string(),
    ]);
    if options.rich_blocks {
        let targets =
            if offers_stepper { "stepper, checklist, list, table, or text" } else { "checklist, list, table, or text" };
        lines.push(format!(
            "copy {{text}} (≤ {COPY_TEXT_MAX}) or {{target}}, exactly one, copies to the user's clipboard; target is the id of a {targets} block."
        ));
    }
    lines.extend([
        format!(
            "columns has {COLUMNS_MIN}-{COLUMNS_MAX} children and card has children and an optional title. Never put columns or card inside columns or card."
        ),
        format!(
            "Caps: {MAX_BLOCKS} blocks including nested ones, depth {MAX_DEPTH}, {ACTION_ELEMENTS_MAX} elements per actions block, {MAX_DATASETS} datasets, {DATASET_ROW_MAX} rows and {DATASET_COLUMN_MAX} columns per dataset, ref limit {REF_LIMIT_MAX}, text block {BLOCK_TEXT_MAX} characters, document text {DOCUMENT_TEXT_MAX}, heading {HEADING_TEXT_MAX}, badge {BADGE_TEXT_MAX}, context {CONTEXT_TEXT_MAX}, card title {CARD_TITLE_MAX}, metric label {METRIC_LABEL_MAX}, value {METRIC_VALUE_MAX}, delta {METRIC_DELTA_MAX}, helper {METRIC_HELPER_MAX}. Bar charts over {BAR_CATEGORY_WARNING} categories and donuts over {DONUT_SLICE_WARNING} slices read badly."
        ),
        format!("Use the datasetId a tool returned; never paste more than {DATASET_ROW_MAX} rows."),
        if options.host_actions.is_empty() {
            "No callback names are registered. Do not emit kind callback.".to_string()
        } else {
            format!("Callback names you may use: {}.", options.host_actions.join(", "))
        },
        format!("Example with data:\n{EXAMPLE_WITH_DATA}"),
        format!("Example with prose only:\n{EXAMPLE_PROSE}"),
    ]);
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::{BlockOptions, check_blocks_text};

    #[test]
    fn html_is_mentioned_only_when_allowed() {
        let off = blocks_prompt_section(&BlocksPromptOptions::default());
        assert!(off.contains("Do not emit type html"));
        assert!(!off.contains("card, html"));
        let on = blocks_prompt_section(&BlocksPromptOptions { allow_html: true, ..BlocksPromptOptions::default() });
        assert!(on.contains("card, html") && on.contains("100000"));
        assert!(!on.contains("Do not emit type html"));
    }

    #[test]
    fn the_image_line_reads_as_the_references() {
        let none = blocks_prompt_section(&BlocksPromptOptions::default());
        assert!(
            none.lines().any(|line| line == "Do not emit an https image src. Use a data:image URL or a file: ref.")
        );
        let hosts = BlocksPromptOptions { image_hosts: vec!["images.example.com".into()], ..Default::default() };
        let some = blocks_prompt_section(&hosts);
        assert!(
            some.contains("https images may come only from: images.example.com.")
                && !some.contains("Do not emit an https")
        );
    }

    #[test]
    fn steppers_only_when_an_action_takes_them() {
        let without = blocks_prompt_section(&BlocksPromptOptions::default());
        assert!(!without.contains("stepper requires") && without.contains("checklist, list, table, or text block"));
        let with = blocks_prompt_section(&BlocksPromptOptions {
            stepper_actions: vec!["scaleStepper".into()],
            host_actions: vec!["scaleStepper".into()],
            ..BlocksPromptOptions::default()
        });
        assert!(with.contains("details, stepper, checklist") && with.contains("one of: scaleStepper"));
        assert!(with.contains("Callback names you may use: scaleStepper."));
    }

    #[test]
    fn the_examples_are_valid_documents() {
        for example in [EXAMPLE_WITH_DATA, EXAMPLE_PROSE] {
            let check = check_blocks_text(example, &BlockOptions::default());
            assert!(check.ok && check.warnings.is_empty(), "{:?}", check.errors);
        }
    }
}
