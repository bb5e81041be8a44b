//! Conformance with the reference block fixtures in ../shared/fixtures/blocks, and the
//! reference suite's parse, limit, lint, html and helper cases.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use palaver_contract::blocks::model::{Block, Stepper};
use palaver_contract::blocks::{
    BlockErrorCode as Code, BlockOptions, BlockWarningCode, BlocksCheck, BlocksDocument, ParsedBlocks,
    apply_checklist_state, block_plain_text, check_blocks_text, is_stepper_value_allowed, parse_blocks,
    parse_blocks_partial, scale_stepper_block, unknown_checklist_item_ids, validate_blocks,
};
use serde_json::json;

fn fixture_dir(kind: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures/blocks").join(kind)
}

fn fixtures(kind: &str) -> Vec<(String, String)> {
    let dir = fixture_dir(kind);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

fn codes_and_paths(check: &BlocksCheck) -> Vec<(String, String)> {
    check.errors.iter().map(|error| (error.code.to_string(), error.path.clone())).collect()
}

fn golden_options() -> BlockOptions {
    BlockOptions {
        checklist_actions: Some(vec!["toggleChecklist".into()]),
        host_actions: Some(vec!["scaleStepper".into(), "toggleChecklist".into()]),
        image_hosts: vec!["images.example.com".into()],
        stepper_actions: Some(vec!["scaleStepper".into()]),
        ..BlockOptions::default()
    }
}

fn golden() -> BlocksDocument {
    let text = &fixtures("golden")[0].1;
    check_blocks_text(text, &golden_options()).doc.expect("the golden document validates")
}

#[test]
fn every_valid_fixture_validates_with_default_options() {
    for (name, text) in fixtures("valid") {
        let check = check_blocks_text(&text, &BlockOptions::default());
        assert!(check.ok, "{name}: {:?}", check.errors);
    }
}

#[test]
fn a_document_read_by_value_is_the_one_serde_reads() {
    let mut types = std::collections::BTreeSet::new();
    let others = json!({"v": 1, "blocks": [
        {"type": "metric", "label": "Guests", "value": "8", "trend": "up"},
        {"type": "badge", "text": "New", "status": "info"},
        {"type": "divider"},
        {"type": "callout", "text": "Preheat the oven.", "status": "warning"},
        {"type": "image", "src": "data:image/png;base64,AA==", "alt": "A dot"},
        {"type": "details", "title": "Why", "text": "Because."},
        {"type": "html", "html": "<p>Hi</p>"},
    ]});
    let others = ("others".to_string(), serde_json::to_string(&others).unwrap());
    for (name, text) in fixtures("valid").into_iter().chain(fixtures("golden")).chain([others]) {
        let parsed = parse_blocks(&text).unwrap_or_else(|err| panic!("{name}: {err:?}"));
        let by_serde = <BlocksDocument as serde::Deserialize>::deserialize(&parsed.value).unwrap();
        assert_eq!(BlocksDocument::from_value(parsed.value).unwrap(), by_serde, "{name}");
        types.extend(by_serde.blocks.iter().map(Block::type_name));
    }
    assert_eq!(types.len(), 19, "blocks of every type are read: {types:?}");
    let unknown = json!({"v": 1, "blocks": [{"type": "poem", "text": "Hi"}]});
    let error = BlocksDocument::from_value(unknown).unwrap_err().to_string();
    assert!(error.contains("unknown variant `poem`"), "{error}");
    let untyped = json!({"v": 1, "blocks": [{"text": "Hi"}]});
    assert!(BlocksDocument::from_value(untyped).unwrap_err().to_string().contains("missing field `type`"));
}

#[test]
fn every_invalid_fixture_gives_exactly_its_errors() {
    let expected: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::from([
        ("card-eyebrow-empty.yaml", vec![("TOO_SHORT", "blocks[0].eyebrow"), ("TOO_SHORT", "blocks[0].eyebrow")]),
        ("card-eyebrow-too-long.yaml", vec![("TOO_LONG", "blocks[0].eyebrow")]),
        ("checklist-duplicate-item.yaml", vec![("DUPLICATE_ID", "blocks[0].items[1].id")]),
        ("checklist-item-id-too-long.yaml", vec![("TOO_LONG", "blocks[0].items[0].id")]),
        ("checklist-reserved-id.yaml", vec![("DUPLICATE_ID", "blocks[1].elements[0].id")]),
        ("column-not-found.yaml", vec![("COLUMN_NOT_FOUND", "blocks[0].x")]),
        ("column-type.yaml", vec![("COLUMN_TYPE_MISMATCH", "blocks[0].y")]),
        ("copy-missing-text-and-target.yaml", vec![("MISSING_REQUIRED", "blocks[0].elements[0].action")]),
        ("copy-target.yaml", vec![("COPY_TARGET_INVALID", "blocks[1].elements[0].action.target")]),
        ("dataset-not-found.yaml", vec![("DATASET_NOT_FOUND", "blocks[0].data")]),
        ("dataset-too-large.yaml", vec![("DATASET_TOO_LARGE", "datasets.signups.columns")]),
        ("depth-exceeded.yaml", vec![("DEPTH_EXCEEDED", "blocks[0].children[0]")]),
        ("duplicate-id.yaml", vec![("DUPLICATE_ID", "blocks[1].id")]),
        ("gallery-caption-too-long.yaml", vec![("TOO_LONG", "blocks[0].images[1].caption")]),
        ("gallery-image-host.yaml", vec![("IMAGE_HOST_NOT_ALLOWED", "blocks[0].images[2].src")]),
        ("gallery-too-few.yaml", vec![("TOO_FEW", "blocks[0].images")]),
        ("invalid-enum.yaml", vec![("INVALID_ENUM", "blocks[0].size")]),
        ("key-order.yaml", vec![("KEY_ORDER", "blocks")]),
        ("list-image-host.yaml", vec![("IMAGE_HOST_NOT_ALLOWED", "blocks[0].items[1].image.src")]),
        ("list-missing-title.yaml", vec![("MISSING_REQUIRED", "blocks[0].items[0].title")]),
        ("list-too-many.yaml", vec![("TOO_MANY", "blocks[0].items")]),
        ("missing-required.yaml", vec![("MISSING_REQUIRED", "blocks[0].markdown")]),
        ("not-a-document.txt", vec![("NOT_A_DOCUMENT", "")]),
        ("row-arity.yaml", vec![("ROW_ARITY_MISMATCH", "datasets.signups.rows[0]")]),
        ("select-target.yaml", vec![("SELECT_TARGET_INVALID", "blocks[0].elements[0].action.target")]),
        ("stepper-decimals.yaml", vec![("OUT_OF_RANGE", "blocks[0].items[0].decimals")]),
        ("stepper-out-of-range.yaml", vec![("OUT_OF_RANGE", "blocks[0].value")]),
        ("stepper-reserved-id.yaml", vec![("DUPLICATE_ID", "blocks[1].elements[0].id")]),
        ("table-too-wide.yaml", vec![("TABLE_TOO_WIDE", "blocks[0].columns")]),
        ("too-many-points.yaml", vec![("TOO_MANY_POINTS", "datasets.signups.limit")]),
        ("unknown-key.yaml", vec![("UNKNOWN_KEY", "blocks[0].color")]),
        ("unsupported-version.yaml", vec![("UNSUPPORTED_VERSION", "v")]),
        ("yaml-anchor.yaml", vec![("YAML_FEATURE_DISALLOWED", "")]),
    ]);
    let files = fixtures("invalid");
    let names: Vec<&str> = files.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, expected.keys().copied().collect::<Vec<_>>(), "the fixture folder and this list differ");
    let mut failures = Vec::new();
    for (name, text) in &files {
        let got = codes_and_paths(&check_blocks_text(text, &BlockOptions::default()));
        let want: Vec<(String, String)> =
            expected[name.as_str()].iter().map(|(code, path)| (code.to_string(), path.to_string())).collect();
        if got != want {
            failures.push(format!("{name}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_error_has_a_message_and_a_fix() {
    for (name, text) in fixtures("invalid") {
        for error in check_blocks_text(&text, &BlockOptions::default()).errors {
            assert!(!error.message.is_empty() && !error.fix.is_empty(), "{name}: {error:?}");
        }
    }
}

#[test]
fn the_partial_fixture_yields_the_finished_blocks() {
    let text = &fixtures("partial")[0].1;
    let partial = parse_blocks_partial(text);
    assert_eq!(partial.blocks, [json!({"type": "divider"})]);
    assert!(partial.pending);
}

#[test]
fn prose_layout_fences_and_json() {
    let prose = check_blocks_text(
        &std::fs::read_to_string(fixture_dir("valid").join("prose.yaml")).unwrap(),
        &BlockOptions::default(),
    );
    assert_eq!(prose.doc, Some(BlocksDocument::text("I could not find any signups for that range.")));
    assert_eq!(
        serde_json::to_value(BlocksDocument::text("Hello")).unwrap(),
        json!({"v": 1, "blocks": [{"type": "text", "markdown": "Hello"}]})
    );

    let layout = std::fs::read_to_string(fixture_dir("valid").join("layout.yaml")).unwrap();
    let document = check_blocks_text(&layout, &BlockOptions::default()).doc.unwrap();
    assert_eq!(serde_json::to_value(&document).unwrap(), parse_blocks(&layout).unwrap().value);

    for fence in ["```yaml", "```yml", "```json", "```YAML"] {
        let text = format!("{fence}\nv: 1\nblocks:\n  - type: divider\n```");
        assert!(check_blocks_text(&text, &BlockOptions::default()).ok, "{fence}");
    }
    let json =
        check_blocks_text(r#"{"v": 1, "blocks": [{"type": "heading", "text": "Hi"}]}"#, &BlockOptions::default());
    assert_eq!(serde_json::to_value(json.doc.unwrap().blocks).unwrap(), json!([{"type": "heading", "text": "Hi"}]));
}

/// Validates a value built in the test (its keys carry no order, so key order is not checked).
fn check(value: serde_json::Value) -> BlocksCheck {
    check_with(value, &BlockOptions::default())
}

fn check_with(value: serde_json::Value, options: &BlockOptions) -> BlocksCheck {
    validate_blocks(&ParsedBlocks::from_value(value), options)
}

#[test]
fn block_count_limits() {
    let dividers = |count: usize| vec![json!({"type": "divider"}); count];
    assert!(check(json!({"v": 1, "blocks": dividers(50)})).ok);
    let too_many = check(json!({"v": 1, "blocks": dividers(51)}));
    assert_eq!(codes_and_paths(&too_many), [("TOO_MANY_BLOCKS".to_string(), "blocks".to_string())]);
    let card = check(json!({"v": 1, "blocks": [{"type": "card", "children": dividers(50)}]}));
    assert_eq!(codes_and_paths(&card), [("TOO_MANY_BLOCKS".to_string(), "blocks".to_string())]);
}

#[test]
fn not_a_document_and_disallowed_features() {
    for text in ["", "v: 1\n---\nv: 1\n", "blocks: []\n"] {
        assert_eq!(check_blocks_text(text, &BlockOptions::default()).error_codes(), [Code::NOT_A_DOCUMENT], "{text:?}");
    }
    let tagged = check_blocks_text("v: 1\nblocks: !foo []\n", &BlockOptions::default());
    assert_eq!(tagged.error_codes(), [Code::YAML_FEATURE_DISALLOWED]);
}

#[test]
fn ref_dataset_format_and_limit_fixes() {
    let bad_id = check(
        json!({"v": 1, "datasets": {"signups": {"source": "ref", "id": "bad.id"}}, "blocks": [{"type": "divider"}]}),
    );
    assert_eq!(codes_and_paths(&bad_id), [("INVALID_FORMAT".to_string(), "datasets.signups.id".to_string())]);
    assert!(bad_id.errors[0].fix.contains("hyphens"));
    let zero = check(
        json!({"v": 1, "datasets": {"signups": {"source": "ref", "id": "ds_1", "limit": 0}}, "blocks": [{"type": "divider"}]}),
    );
    assert_eq!(codes_and_paths(&zero), [("INVALID_TYPE".to_string(), "datasets.signups.limit".to_string())]);
    assert!(zero.errors[0].fix.contains("integer"));
}

#[test]
fn a_stepper_items_decimals_outside_zero_to_three_is_out_of_range() {
    let stepper = |decimals: serde_json::Value| {
        check(json!({"v": 1, "blocks": [{"type": "stepper", "id": "guests", "label": "Number of people",
            "value": 5, "min": 1, "max": 20, "callback": {"name": "scaleStepper"},
            "items": [{"label": "Lamb", "amount": 2, "decimals": decimals}]}]}))
    };
    let out_of_range = [("OUT_OF_RANGE".to_string(), "blocks[0].items[0].decimals".to_string())];
    let below = stepper(json!(-1));
    assert_eq!(codes_and_paths(&below), out_of_range);
    assert!(below.errors[0].message.contains("below 0") && below.errors[0].fix.contains("0 or more"), "{below:?}");
    assert_eq!(codes_and_paths(&stepper(json!(4))), out_of_range);
    let fraction = stepper(json!(1.5));
    assert_eq!(codes_and_paths(&fraction)[0].0, "INVALID_TYPE", "not a whole number: still the wrong type");
    assert!(stepper(json!(0)).errors.is_empty() && stepper(json!(3)).errors.is_empty());
}

#[test]
fn closed_code_mapping() {
    let cases = [
        (json!({"type": "heading", "text": 1}), Code::INVALID_TYPE),
        (json!({"type": "columns", "children": vec![json!({"type": "divider"}); 5]}), Code::TOO_MANY),
        (json!({"type": "heading", "text": "x".repeat(201)}), Code::TOO_LONG),
        (json!({"type": "columns", "children": [{"type": "divider"}]}), Code::TOO_FEW),
        (json!({"type": "text", "markdown": ""}), Code::TOO_SHORT),
        (json!({"type": "text", "markdown": "   "}), Code::TOO_SHORT),
        (json!({"type": "divider", "id": "Bad"}), Code::INVALID_FORMAT),
        (json!({"type": "nope"}), Code::INVALID_ENUM),
    ];
    for (block, code) in cases {
        let result = check(json!({"v": 1, "blocks": [block]}));
        assert!(result.error_codes().contains(&code), "{block}: {:?}", result.errors);
    }
}

#[test]
fn messages_and_fixes_follow_the_reference_templates() {
    let result = check(json!({"v": 1, "blocks": [{"type": "heading", "text": "x".repeat(201), "size": "huge"}]}));
    let texts: Vec<(&str, &str)> = result.errors.iter().map(|e| (e.message.as_str(), e.fix.as_str())).collect();
    assert_eq!(
        texts,
        [
            (
                "blocks[0].size must be one of the allowed values, not \"huge\".",
                "Use one of: \"sm\", \"md\", \"lg\", \"xl\", \"2xl\"."
            ),
            ("blocks[0].text is longer than 200 characters.", "Shorten blocks[0].text to 200 characters or fewer."),
        ]
    );
    let missing = check(json!({"v": 1, "blocks": [{"type": "text"}]}));
    assert_eq!(missing.errors[0].message, "A required field is missing.");
    assert_eq!(missing.errors[0].fix, "Add blocks[0].markdown.");
}

#[test]
fn lint_warnings_and_known_datasets() {
    let rows = |count: usize| (0..count).map(|n| json!([format!("c{n}"), n])).collect::<Vec<_>>();
    let dataset = |count: usize| json!({"columns": [{"name": "label", "type": "string"}, {"name": "n", "type": "number"}], "rows": rows(count)});
    let chart = |kind: &str, count: usize| {
        check(
            json!({"v": 1, "datasets": {"d": dataset(count)}, "blocks": [{"type": "chart", "kind": kind, "data": "d", "x": "label", "y": "n"}]}),
        )
    };
    let warning_codes = |check: BlocksCheck| check.warnings.iter().map(|w| w.code).collect::<Vec<_>>();
    assert_eq!(warning_codes(chart("bar", 61)), [BlockWarningCode::BAR_TOO_MANY_CATEGORIES]);
    assert_eq!(warning_codes(chart("bar", 60)), []);
    assert_eq!(warning_codes(chart("line", 1)), [BlockWarningCode::LINE_SINGLE_POINT]);
    let points: Vec<_> = (0..9).map(|n| json!({"label": format!("s{n}"), "value": n})).collect();
    let donut = check(json!({"v": 1, "blocks": [{"type": "chart", "kind": "donut", "points": points}]}));
    assert!(donut.ok);
    assert_eq!(warning_codes(donut), [BlockWarningCode::DONUT_TOO_MANY_SLICES]);

    let on_ref = json!({"v": 1, "datasets": {"d": {"source": "ref", "id": "ds_1"}}, "blocks": [{"type": "chart", "kind": "line", "data": "d", "x": "day", "y": "count"}]});
    assert!(check(on_ref.clone()).ok);
    let known = BlockOptions {
        known_datasets: BTreeMap::from([(
            "ds_1".to_string(),
            serde_json::from_value(json!([{"name": "day", "type": "date"}, {"name": "count", "type": "string"}]))
                .unwrap(),
        )]),
        ..BlockOptions::default()
    };
    let with_known = check_with(on_ref, &known);
    assert_eq!(codes_and_paths(&with_known), [("COLUMN_TYPE_MISMATCH".to_string(), "blocks[0].y".to_string())]);

    let number_in_string = check(
        json!({"v": 1, "datasets": {"d": {"columns": [{"name": "a", "type": "string"}, {"name": "b", "type": "number"}], "rows": [[1, 2]]}}, "blocks": [{"type": "divider"}]}),
    );
    assert_eq!(number_in_string.error_codes(), [Code::COLUMN_TYPE_MISMATCH]);

    let big = check(json!({"v": 1, "datasets": {"signups": dataset(501)}, "blocks": [{"type": "divider"}]}));
    assert_eq!(codes_and_paths(&big), [("DATASET_TOO_LARGE".to_string(), "datasets.signups.rows".to_string())]);
    assert!(big.errors[0].fix.contains("500"));
}

#[test]
fn html_is_off_by_default_and_capped_in_bytes() {
    let html = |content: &str| json!({"v": 1, "blocks": [{"type": "html", "html": content}]});
    let off = check(html("<h1>Invoice #1042</h1>"));
    assert!(off.error_codes().contains(&Code::HTML_DISABLED));
    let on = BlockOptions { allow_html: true, ..BlockOptions::default() };
    assert!(check_with(html("<h1>Invoice #1042</h1>"), &on).ok);
    let large = check_with(html(&format!("<p>{}</p>", "a".repeat(100_000))), &on);
    assert!(large.error_codes().contains(&Code::HTML_TOO_LARGE));
    // 50,000 two-byte characters are 100,000 bytes of text plus the tags: over the cap.
    let multibyte = check_with(html(&format!("<p>{}</p>", "é".repeat(50_000))), &on);
    assert!(multibyte.error_codes().contains(&Code::HTML_TOO_LARGE));
}

fn stepper_of(document: &BlocksDocument) -> Stepper {
    let card = document.blocks.iter().find(|block| block.id() == Some("shopping")).unwrap();
    match &card.children()[0] {
        Block::Stepper(stepper) => stepper.clone(),
        other => panic!("expected the stepper, got {other:?}"),
    }
}

#[test]
fn the_golden_document() {
    let text = &fixtures("golden")[0].1;
    let check = check_blocks_text(text, &golden_options());
    assert!(check.ok && check.warnings.is_empty(), "{:?} {:?}", check.errors, check.warnings);
    let without = check_blocks_text(text, &BlockOptions::default());
    assert!(!without.ok);
    assert!(without.error_codes().iter().all(|code| *code == Code::IMAGE_HOST_NOT_ALLOWED));
    let empty_actions = BlockOptions {
        checklist_actions: Some(vec![]),
        host_actions: Some(vec![]),
        stepper_actions: Some(vec![]),
        image_hosts: vec!["images.example.com".into()],
        ..BlockOptions::default()
    };
    assert_eq!(check_blocks_text(text, &empty_actions).error_codes(), [Code::UNKNOWN_HOST_ACTION; 2]);

    let document = golden();
    let stepper = stepper_of(&document);
    assert_eq!(
        block_plain_text(&Block::Stepper(stepper), &HashMap::new(), &document.datasets),
        "Number of people: 5 People\nBone-in leg of lamb: 2.0 kg\nPotatoes: 1500 g\nCarrots: 8\nParsnips: 5\nTenderstem broccoli: 625 g\nApples for crumble: 4"
    );
    let table = document.blocks.iter().find(|block| block.id() == Some("lamb_table")).unwrap();
    assert_eq!(
        block_plain_text(table, &HashMap::new(), &document.datasets),
        "guests\tbone in lamb\tpotatoes\n4\t3–4 lb\t2 lb\n6\t4–5 lb\t3 lb\n8\t5–6 lb\t4 lb\n10\t6–7½ lb\t5 lb"
    );
    let checklist = document.blocks.iter().find(|block| block.id() == Some("cooking")).unwrap();
    let ticks = HashMap::from([("prep_ahead".to_string(), false), ("dinner".to_string(), true)]);
    let text = block_plain_text(checklist, &ticks, &document.datasets);
    assert!(text.starts_with("[ ] Prep ahead\n[ ] Prepare the lamb") && text.ends_with("[x] Dinner!"), "{text}");
    let menu = document.blocks.iter().find(|block| block.id() == Some("menu")).unwrap();
    assert!(
        block_plain_text(menu, &HashMap::new(), &document.datasets)
            .starts_with("- The centerpiece: Rosemary and garlic roast lamb: A classic leg")
    );
}

#[test]
fn stepper_scaling_and_checklist_ticks() {
    let stepper = stepper_of(&golden());
    assert!(is_stepper_value_allowed(&stepper, 6.0));
    assert!(!is_stepper_value_allowed(&stepper, 5.5));
    assert!(!is_stepper_value_allowed(&stepper, 21.0));
    assert!(!is_stepper_value_allowed(&stepper, f64::NAN));

    let seven = scale_stepper_block(&stepper, 7.0);
    let amounts: Vec<f64> = seven.items.iter().map(|item| item.amount).collect();
    // 2 kg × 7/5 = 2.8; 1500 g → 2100; carrots 11.2 → 12 (up); parsnips 7; 875 g; apples 5.6 → 6.
    assert_eq!(amounts, [2.8, 2100.0, 12.0, 7.0, 875.0, 6.0]);
    assert_eq!(seven.value, 7.0);
    // Scaling always starts from the block as written, so a round trip lands where it began.
    assert_eq!(scale_stepper_block(&stepper, 5.0).items, stepper.items);

    let Block::Checklist(checklist) = golden().blocks.into_iter().find(|block| block.id() == Some("cooking")).unwrap()
    else {
        panic!("cooking is a checklist");
    };
    let state = BTreeMap::from([("prep_ahead".to_string(), true), ("ghost".to_string(), true)]);
    let next = apply_checklist_state(&checklist, "dinner", true, &state);
    let ticked: Vec<&str> =
        next.items.iter().filter(|item| item.checked == Some(true)).map(|item| item.id.as_str()).collect();
    assert_eq!(ticked, ["prep_ahead", "dinner"]);
    assert_eq!(unknown_checklist_item_ids(&checklist, "nope", &state), ["nope", "ghost"]);
}

/// Palaver's own fixture (app/fixtures/blocks): open routes that would leave the site are
/// refused where they are written, each with its code and fix; a path of the site passes.
#[test]
fn open_routes_that_leave_the_site_are_invalid() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/blocks/invalid/open-route-leaves-site.yaml");
    let check = check_blocks_text(&std::fs::read_to_string(path).unwrap(), &BlockOptions::default());
    let want: Vec<(String, String)> =
        (0..7).map(|index| ("INVALID_FORMAT".into(), format!("blocks[0].elements[{index}].action.route"))).collect();
    assert_eq!(codes_and_paths(&check), want);
    assert!(check.errors.iter().all(|error| error.fix.contains("path of this site")));
}
