//! validate_ask_input beyond the fixtures: the reference's pinned messages, the compact
//! surface, and the helpers of the Exports table.

use palaver_contract::asks::{
    ASK_KINDS, Ask, AskErrorCode, AskKind, AskSurface, COMPACT_ASK_KINDS, ChoiceInput, FileAccept,
    accepted_file_mime_types, ask_kinds_for_surface, is_text_file_mime_type, kind_offered_on, parse_ask_input,
    resolve_button_answer, to_simple_card, validate_ask_input,
};
use serde_json::{Value, json};

type Row = (String, AskErrorCode, String, String);

fn errors(kind: AskKind, input: Value, surface: AskSurface) -> Vec<Row> {
    validate_ask_input(kind, &input, surface)
        .into_iter()
        .map(|e| (e.path.to_string(), e.code, e.message, e.fix))
        .collect()
}

fn row(path: &str, code: AskErrorCode, message: &str, fix: &str) -> Row {
    (path.into(), code, message.into(), fix.into())
}

fn choice(options: Value) -> Value {
    json!({"prompt": "Pick one", "select": "one", "options": options})
}

#[test]
fn pinned_messages() {
    let mut input = choice(json!([{"id": "yes", "label": "Yes"}, {"id": "no", "label": "No"}]));
    input["icon"] = json!("palette");
    assert_eq!(
        errors(AskKind::Choice, input, AskSurface::Full),
        vec![row("icon", AskErrorCode::UNKNOWN_KEY, "\"icon\" is not a field of this object.", "Remove \"icon\".")]
    );
    assert_eq!(
        errors(
            AskKind::Choice,
            choice(json!([{"id": "yes", "label": "Yes"}, {"id": "yes", "label": "Sure"}])),
            AskSurface::Full
        ),
        vec![row(
            "options[1].id",
            AskErrorCode::DUPLICATE_ID,
            "Option id \"yes\" is already used by options[0].",
            "Give every option a unique id."
        )]
    );
    let mut long = choice(json!([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]));
    long["prompt"] = json!("p".repeat(501));
    assert_eq!(
        errors(AskKind::Choice, long, AskSurface::Full),
        vec![row(
            "prompt",
            AskErrorCode::TOO_LONG,
            "prompt is longer than 500 characters.",
            "Shorten prompt to 500 characters or fewer."
        )]
    );
    let mut wrong = choice(json!([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]));
    wrong["allowDecline"] = json!("no");
    assert_eq!(
        errors(AskKind::Choice, wrong, AskSurface::Full),
        vec![row(
            "allowDecline",
            AskErrorCode::INVALID_TYPE,
            "allowDecline must be true or false, not a string.",
            "Make allowDecline true or false."
        )]
    );
    assert_eq!(
        errors(AskKind::Choice, choice(json!([{"id": "a"}, {"id": "b", "label": "B"}])), AskSurface::Full),
        vec![row(
            "options[0].label",
            AskErrorCode::MISSING_REQUIRED,
            "options[0].label is required.",
            "Add \"label\" to options[0]."
        )]
    );
    let mut both = choice(json!([{"id": "Yes", "label": "Yes"}, {"id": "no", "label": "No"}]));
    both["select"] = json!("all");
    assert_eq!(
        errors(AskKind::Choice, both, AskSurface::Full),
        vec![
            row(
                "options[0].id",
                AskErrorCode::INVALID_FORMAT,
                "options[0].id \"Yes\" is not a valid option id.",
                "Use 1-64 lowercase letters, digits, \"_\", or \"-\", starting with a letter or digit."
            ),
            row(
                "select",
                AskErrorCode::INVALID_ENUM,
                "select must be one of \"one\", \"many\", not \"all\".",
                "Use one of \"one\", \"many\"."
            )
        ]
    );
}

#[test]
fn indexes_sort_numerically() {
    let options: Vec<Value> = (0..11)
        .map(|i| json!({"id": if i == 2 || i == 10 { "a".to_string() } else { format!("o{i}") }, "label": "L"}))
        .collect();
    let paths: Vec<String> =
        errors(AskKind::Choice, choice(json!(options)), AskSurface::Full).into_iter().map(|r| r.0).collect();
    assert_eq!(paths, ["options[10].id"], "the first of a pair is not flagged");
    let options: Vec<Value> =
        (0..11).map(|i| json!({"id": if i == 2 || i == 10 { "Bad" } else { "ok" }, "label": "L"})).collect();
    let paths: Vec<String> =
        errors(AskKind::Choice, choice(json!(options)), AskSurface::Full).into_iter().map(|r| r.0).collect();
    assert!(paths.iter().position(|p| p == "options[2].id") < paths.iter().position(|p| p == "options[10].id"));
}

#[test]
fn compact_rules() {
    let ok = choice(json!([{"id": "a", "label": "Party 🎉🎉🎉🎉🎉🎉🎉"}, {"id": "b", "label": "Quiet"}]));
    assert!(errors(AskKind::Choice, ok, AskSurface::Compact).is_empty(), "20 UTF-16 units fit");
    let four = choice(
        json!([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}, {"id": "d", "label": "D"}]),
    );
    assert_eq!(
        errors(AskKind::Choice, four.clone(), AskSurface::Compact),
        vec![row(
            "options",
            AskErrorCode::TOO_MANY,
            "options has more than 3 items.",
            "Remove items from options until it has 3 or fewer."
        )]
    );
    assert!(errors(AskKind::Choice, four, AskSurface::Full).is_empty());
    let ascii = choice(json!([{"id": "a", "label": "x".repeat(21)}, {"id": "b", "label": "B"}]));
    assert_eq!(
        errors(AskKind::Choice, ascii, AskSurface::Compact),
        vec![row(
            "options[0].label",
            AskErrorCode::TOO_LONG,
            "options[0].label is longer than 20 characters.",
            "Shorten options[0].label to 20 characters or fewer."
        )]
    );
    let emoji = choice(json!([{"id": "a", "label": "Party 🎉🎉🎉🎉🎉🎉🎉🎉"}, {"id": "b", "label": "B"}]));
    assert_eq!(
        errors(AskKind::Choice, emoji, AskSurface::Compact),
        vec![row(
            "options[0].label",
            AskErrorCode::TOO_LONG,
            "options[0].label is longer than 20 characters, counting each emoji as 2 or more.",
            "Shorten options[0].label to 20 characters or fewer, or use fewer emoji."
        )]
    );
    let same = choice(json!([{"id": "a", "label": "Red"}, {"id": "b", "label": "Red"}]));
    assert_eq!(
        errors(AskKind::Choice, same.clone(), AskSurface::Compact),
        vec![row(
            "options[1].label",
            AskErrorCode::DUPLICATE_LABEL,
            "Option label \"Red\" is already used by options[0].",
            "Give every option a different label."
        )]
    );
    assert!(errors(AskKind::Choice, same, AskSurface::Full).is_empty(), "duplicate labels are fine on full");
    let mut many = choice(json!([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]));
    many["select"] = json!("many");
    many["maxSelected"] = json!(2);
    let codes: Vec<(String, AskErrorCode)> =
        errors(AskKind::Choice, many, AskSurface::Compact).into_iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(
        codes,
        [("maxSelected".into(), AskErrorCode::UNKNOWN_KEY), ("select".into(), AskErrorCode::INVALID_ENUM)]
    );
    let mut kept = choice(json!([{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]));
    kept["default"] = json!(["z"]);
    let codes: Vec<AskErrorCode> =
        errors(AskKind::Choice, kept, AskSurface::Compact).into_iter().map(|r| r.1).collect();
    assert_eq!(codes, [AskErrorCode::DEFAULT_NOT_IN_OPTIONS, AskErrorCode::DUPLICATE_ID]);
}

#[test]
fn surfaces_and_kinds() {
    assert_eq!(
        ask_kinds_for_surface(&[AskKind::Confirm, AskKind::Choice], AskSurface::Full),
        [AskKind::Confirm, AskKind::Choice]
    );
    assert_eq!(ask_kinds_for_surface(&ASK_KINDS, AskSurface::Compact), COMPACT_ASK_KINDS);
    assert!(ask_kinds_for_surface(&[], AskSurface::Compact).is_empty());
    assert_eq!(
        kind_offered_on(AskKind::Form, AskSurface::Compact),
        Err("The compact surface does not offer ask kind \"form\".".into())
    );
    assert_eq!(AskKind::parse("signature"), None);
    assert_eq!(AskSurface::parse("watch"), None);
}

fn parse(kind: AskKind, input: Value) -> Ask {
    parse_ask_input(kind, &input, AskSurface::Full).unwrap()
}

#[test]
fn helpers() {
    let Ask::Choice(one) =
        parse(AskKind::Choice, choice(json!([{"id": "a", "label": "A"}, {"id": "b", "label": "B"}])))
    else {
        panic!()
    };
    assert_eq!((one.selection_bounds().min, one.selection_bounds().max), (1, 1));
    let many: ChoiceInput = serde_json::from_value(json!({"prompt": "p", "select": "many", "allowOther": true,
        "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}))
    .unwrap();
    assert_eq!((many.selection_bounds().min, many.selection_bounds().max), (1, 3));

    let confirm = parse(AskKind::Confirm, json!({"prompt": "Go?"}));
    let Ask::Confirm(input) = &confirm else { panic!() };
    assert_eq!(input.button_labels(), ("Confirm", "Cancel"));
    assert!(!confirm.allows_decline());
    assert!(parse(AskKind::Confirm, json!({"prompt": "Go?", "allowDecline": true})).allows_decline());
    assert!(Ask::Choice(one).allows_decline());

    let Ask::Markdown(md) = parse(AskKind::Markdown, json!({"prompt": "p", "minLength": 3})) else { panic!() };
    assert_eq!((md.length_bounds().min, md.length_bounds().max), (3, 20000));
    let Ask::Files(files) = parse(AskKind::Files, json!({"prompt": "p", "accept": ["csv"], "maxFiles": 2})) else {
        panic!()
    };
    assert_eq!((files.count_bounds().min, files.count_bounds().max), (1, 2));
    let Ask::Form(form) = parse(
        AskKind::Form,
        json!({"prompt": "p", "fields": [
        {"id": "a", "type": "textarea", "label": "A"}, {"id": "b", "type": "text", "label": "B", "maxLength": 5, "default": "hey"},
        {"id": "c", "type": "email", "label": "C"}]}),
    ) else {
        panic!()
    };
    assert_eq!(
        form.fields.iter().map(palaver_contract::asks::FormField::text_max_length).collect::<Vec<_>>(),
        [10000, 5, 2000]
    );
    assert_eq!(Value::Object(form.default_values()), json!({"b": "hey"}));
    assert_eq!(accepted_file_mime_types(&[FileAccept::Json, FileAccept::Pdf]), ["application/json", "application/pdf"]);
    assert!(is_text_file_mime_type("text/csv") && !is_text_file_mime_type("image/png"));
}

#[test]
fn resolving_buttons() {
    let ask = parse(AskKind::Confirm, json!({"prompt": "Delete?", "destructive": true}));
    let card = to_simple_card(&ask, "call_1");
    assert_eq!(
        resolve_button_answer(&card, "deny").unwrap().to_value(),
        json!({"action": "accept", "content": {"confirmed": false}})
    );
    let error = resolve_button_answer(&card, "nope").unwrap_err();
    assert_eq!((error.path.to_string(), error.code), ("buttonId".into(), AskErrorCode::UNKNOWN_BUTTON));
    assert_eq!(error.message, "Button \"nope\" is not on the pending ask's simple card.");
    assert_eq!(error.fix, "Send the id of one of the card's buttons: \"approve\", \"deny\".");
    let mut empty = card.clone();
    empty.buttons.clear();
    assert_eq!(
        resolve_button_answer(&empty, "x").unwrap_err().fix,
        "The card has no buttons. Send a full askResponse instead."
    );
}
