//! validate_ask_response: one test per answer error code (reference AC2), with the reference's
//! exact messages where its test suite pins them.

use palaver_contract::asks::{
    Ask, AskErrorCode, AskKind, AskSurface, check_ask_file_bytes, file_not_owned_error, parse_ask_input,
    validate_ask_response,
};
use serde_json::{Value, json};

const CAP: u64 = 10 * 1024 * 1024;

fn ask(kind: AskKind, input: Value) -> Ask {
    parse_ask_input(kind, &input, AskSurface::Full).unwrap_or_else(|errors| panic!("invalid ask: {errors:?}"))
}

fn plan() -> Ask {
    ask(
        AskKind::Choice,
        json!({"prompt": "Which plan?", "select": "one", "options": [
            {"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}, {"id": "enterprise", "label": "Enterprise"}]}),
    )
}

fn toppings(extra: Value) -> Ask {
    let mut input = json!({"prompt": "Toppings?", "select": "many", "options": [
        {"id": "cheese", "label": "Cheese"}, {"id": "olives", "label": "Olives"},
        {"id": "peppers", "label": "Peppers"}, {"id": "ham", "label": "Ham"}]});
    input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    ask(AskKind::Choice, input)
}

/// `(path, code, message, fix)` of each error.
fn errors(ask: &Ask, response: Value) -> Vec<(String, AskErrorCode, String, String)> {
    validate_ask_response(ask, &response, CAP)
        .into_iter()
        .map(|e| (e.path.to_string(), e.code, e.message, e.fix))
        .collect()
}

fn codes(ask: &Ask, response: Value) -> Vec<(String, AskErrorCode)> {
    errors(ask, response).into_iter().map(|(path, code, _, _)| (path, code)).collect()
}

fn one(path: &str, code: AskErrorCode, message: &str, fix: &str) -> Vec<(String, AskErrorCode, String, String)> {
    vec![(path.into(), code, message.into(), fix.into())]
}

#[test]
fn valid_envelopes() {
    assert!(errors(&plan(), json!({"action": "accept", "content": {"selected": ["team"]}})).is_empty());
    assert!(errors(&plan(), json!({"action": "decline"})).is_empty());
    let confirm = ask(AskKind::Confirm, json!({"prompt": "Go?"}));
    assert!(errors(&confirm, json!({"action": "cancel"})).is_empty(), "cancel is always allowed");
    assert!(errors(&confirm, json!({"action": "cancel", "reason": "user_sent_message"})).is_empty());
}

#[test]
fn option_not_offered() {
    assert_eq!(
        errors(&plan(), json!({"action": "accept", "content": {"selected": ["gold"]}})),
        one(
            "content.selected[0]",
            AskErrorCode::OPTION_NOT_OFFERED,
            "\"gold\" is not one of the offered options.",
            "Use the id of one of the ask's options."
        )
    );
    let long = "x".repeat(100);
    let message = &errors(&plan(), json!({"action": "accept", "content": {"selected": [long]}}))[0].2;
    assert_eq!(message, &format!("\"{}…\" is not one of the offered options.", "x".repeat(39)));
}

#[test]
fn selection_count() {
    assert_eq!(
        errors(&plan(), json!({"action": "accept", "content": {"selected": ["team", "starter"]}})),
        one(
            "content.selected",
            AskErrorCode::SELECTION_COUNT,
            "Choose exactly one option; the answer selects 2.",
            "Send exactly one option id in content.selected."
        )
    );
    assert_eq!(
        codes(&plan(), json!({"action": "accept", "content": {"selected": ["team", "gold"]}})),
        vec![
            ("content.selected".into(), AskErrorCode::SELECTION_COUNT),
            ("content.selected[1]".into(), AskErrorCode::OPTION_NOT_OFFERED)
        ]
    );
    let many = toppings(json!({}));
    assert_eq!(
        errors(&many, json!({"action": "accept", "content": {"selected": []}}))[0].2,
        "Choose 1 to 4 options; the answer selects 0."
    );
    let with_other = toppings(json!({"allowOther": true, "minSelected": 1, "maxSelected": 2}));
    assert!(errors(&with_other, json!({"action": "accept", "content": {"selected": [], "other": "Basil"}})).is_empty());
    assert_eq!(
        errors(
            &with_other,
            json!({"action": "accept", "content": {"selected": ["cheese", "olives"], "other": "Basil"}})
        ),
        one(
            "content.selected",
            AskErrorCode::SELECTION_COUNT,
            "Choose 1 to 2 options; the answer selects 3, counting Other.",
            "Send 1 to 2 options in content.selected. Other counts as one choice."
        )
    );
    let exactly = toppings(json!({"minSelected": 2, "maxSelected": 2}));
    assert_eq!(
        errors(&exactly, json!({"action": "accept", "content": {"selected": ["ham"]}}))[0].2,
        "Choose exactly 2 options; the answer selects 1."
    );
    let at_most = toppings(json!({"minSelected": 0, "maxSelected": 2}));
    assert!(errors(&at_most, json!({"action": "accept", "content": {"selected": []}})).is_empty());
    assert_eq!(
        errors(&at_most, json!({"action": "accept", "content": {"selected": ["ham", "cheese", "olives"]}}))[0].2,
        "Choose at most 2 options; the answer selects 3."
    );
}

#[test]
fn duplicate_id_in_an_answer() {
    assert_eq!(
        errors(&toppings(json!({})), json!({"action": "accept", "content": {"selected": ["cheese", "cheese"]}})),
        one(
            "content.selected[1]",
            AskErrorCode::DUPLICATE_ID,
            "\"cheese\" is already selected at content.selected[0].",
            "List each option id in content.selected once."
        )
    );
}

#[test]
fn other_not_allowed() {
    assert_eq!(
        errors(&toppings(json!({})), json!({"action": "accept", "content": {"selected": ["ham"], "other": "Basil"}})),
        one(
            "content.other",
            AskErrorCode::OTHER_NOT_ALLOWED,
            "This ask does not accept an Other answer.",
            "Remove content.other and pick from the options."
        )
    );
}

#[test]
fn decline_not_allowed() {
    let strict = ask(
        AskKind::Choice,
        json!({"prompt": "Pick", "select": "one", "allowDecline": false, "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]}),
    );
    assert_eq!(
        errors(&strict, json!({"action": "decline"})),
        one(
            "action",
            AskErrorCode::DECLINE_NOT_ALLOWED,
            "This ask cannot be skipped.",
            "Answer with action \"accept\"."
        )
    );
    let confirm = ask(AskKind::Confirm, json!({"prompt": "Go?"}));
    assert_eq!(
        codes(&confirm, json!({"action": "decline"})),
        vec![("action".into(), AskErrorCode::DECLINE_NOT_ALLOWED)]
    );
    let skippable = ask(AskKind::Confirm, json!({"prompt": "Go?", "allowDecline": true}));
    assert!(errors(&skippable, json!({"action": "decline"})).is_empty());
}

#[test]
fn envelope_shape_errors() {
    assert_eq!(
        errors(&plan(), json!({"action": "maybe"})),
        one(
            "action",
            AskErrorCode::INVALID_ENUM,
            "action must be one of \"accept\", \"decline\", \"cancel\", not \"maybe\".",
            "Use one of \"accept\", \"decline\", \"cancel\"."
        )
    );
    assert_eq!(codes(&plan(), json!({})), vec![("action".into(), AskErrorCode::MISSING_REQUIRED)]);
    assert_eq!(codes(&plan(), json!({"action": "accept"})), vec![("content".into(), AskErrorCode::MISSING_REQUIRED)]);
    assert_eq!(
        errors(&plan(), json!({"action": "accept", "content": {}})),
        one(
            "content.selected",
            AskErrorCode::MISSING_REQUIRED,
            "content.selected is required.",
            "Add \"selected\" to content."
        )
    );
    assert_eq!(codes(&plan(), json!("team")), vec![("".into(), AskErrorCode::INVALID_TYPE)]);
    assert_eq!(
        errors(&plan(), json!({"action": "accept", "content": {"selected": "team"}})),
        one(
            "content.selected",
            AskErrorCode::INVALID_TYPE,
            "content.selected must be a list, not a string.",
            "Make content.selected a list."
        )
    );
    assert_eq!(
        codes(&plan(), json!({"action": "accept", "content": {"selected": [7]}})),
        vec![("content.selected[0]".into(), AskErrorCode::INVALID_TYPE)]
    );
    assert_eq!(
        codes(&plan(), json!({"action": "decline", "content": {}})),
        vec![("content".into(), AskErrorCode::UNKNOWN_KEY)]
    );
    assert_eq!(
        codes(&plan(), json!({"action": "accept", "content": {"selected": ["team"], "extra": 1}})),
        vec![("content.extra".into(), AskErrorCode::UNKNOWN_KEY)]
    );
}

#[test]
fn too_long_too_short_too_many() {
    assert_eq!(
        codes(&plan(), json!({"action": "cancel", "reason": "r".repeat(201)})),
        vec![("reason".into(), AskErrorCode::TOO_LONG)]
    );
    assert_eq!(
        codes(&plan(), json!({"action": "cancel", "reason": " "})),
        vec![("reason".into(), AskErrorCode::TOO_SHORT)]
    );
    let ids: Vec<String> = (0..51).map(|i| format!("id{i}")).collect();
    assert_eq!(
        codes(&plan(), json!({"action": "accept", "content": {"selected": ids}})),
        vec![("content.selected".into(), AskErrorCode::TOO_MANY)]
    );
}

#[test]
fn confirm_answers() {
    let confirm = ask(AskKind::Confirm, json!({"prompt": "Go?"}));
    assert!(errors(&confirm, json!({"action": "accept", "content": {"confirmed": false}})).is_empty());
    assert_eq!(
        errors(&confirm, json!({"action": "accept", "content": {}})),
        one(
            "content.confirmed",
            AskErrorCode::MISSING_REQUIRED,
            "content.confirmed is required.",
            "Add \"confirmed\" to content."
        )
    );
    assert_eq!(
        errors(&confirm, json!({"action": "accept", "content": {"confirmed": "yes"}})),
        one(
            "content.confirmed",
            AskErrorCode::INVALID_TYPE,
            "content.confirmed must be true or false, not a string.",
            "Make content.confirmed true or false."
        )
    );
}

fn draft() -> Ask {
    ask(
        AskKind::Markdown,
        json!({"prompt": "Edit", "initial": "# We're live\n\nToday we launched.", "maxLength": 40, "minLength": 10}),
    )
}

#[test]
fn markdown_lengths_and_changed() {
    let draft = draft();
    assert!(
        errors(
            &draft,
            json!({"action": "accept", "content": {"markdown": "# We're live\n\nToday we launched.", "changed": false}})
        )
        .is_empty()
    );
    assert_eq!(
        errors(&draft, json!({"action": "accept", "content": {"markdown": "x".repeat(41), "changed": true}})),
        one(
            "content.markdown",
            AskErrorCode::TOO_LONG,
            "The text is 41 characters, but this ask allows at most 40.",
            "Shorten content.markdown to 40 characters or fewer."
        )
    );
    assert!(
        errors(&draft, json!({"action": "accept", "content": {"markdown": "😀".repeat(20), "changed": true}}))
            .is_empty()
    );
    assert_eq!(
        codes(&draft, json!({"action": "accept", "content": {"markdown": "😀".repeat(21), "changed": true}}))[0].1,
        AskErrorCode::TOO_LONG
    );
    assert_eq!(
        errors(&draft, json!({"action": "accept", "content": {"markdown": "x".repeat(20001), "changed": true}}))[0].2,
        "The text is 20001 characters, but this ask allows at most 40."
    );
    assert_eq!(
        errors(&draft, json!({"action": "accept", "content": {"markdown": "   short   ", "changed": true}})),
        one(
            "content.markdown",
            AskErrorCode::TOO_SHORT,
            "The text is 5 characters, but this ask needs at least 10.",
            "Write at least 10 characters in content.markdown."
        )
    );
    assert_eq!(
        errors(&draft, json!({"action": "accept", "content": {"markdown": "A new draft", "changed": false}})),
        one(
            "content.changed",
            AskErrorCode::CHANGED_MISMATCH,
            "The text differs from the draft, but changed is false.",
            "Set content.changed to true."
        )
    );
    let open = ask(AskKind::Markdown, json!({"prompt": "Write"}));
    assert!(
        errors(&open, json!({"action": "accept", "content": {"markdown": "x".repeat(20000), "changed": true}}))
            .is_empty()
    );
    assert_eq!(
        codes(&open, json!({"action": "accept", "content": {"markdown": "😀".repeat(10001), "changed": true}}))[0].1,
        AskErrorCode::TOO_LONG
    );
    assert_eq!(
        codes(&open, json!({"action": "accept", "content": {"markdown": "", "changed": true}}))[0].1,
        AskErrorCode::CHANGED_MISMATCH
    );
}

fn invoice() -> Ask {
    ask(
        AskKind::Form,
        json!({"prompt": "Details", "fields": [
            {"id": "company", "type": "text", "label": "Company name", "required": true, "maxLength": 12},
            {"id": "seats", "type": "number", "label": "Seats", "min": 1, "max": 500, "integer": true},
            {"id": "start", "type": "date", "label": "Start date"},
            {"id": "region", "type": "select", "label": "Region", "options": [{"id": "us", "label": "US"}, {"id": "eu", "label": "EU"}]},
            {"id": "email", "type": "email", "label": "Email"},
            {"id": "notify", "type": "boolean", "label": "Notify", "default": true}]}),
    )
}

fn form_codes(values: Value) -> Vec<(String, AskErrorCode)> {
    codes(&invoice(), json!({"action": "accept", "content": {"values": values}}))
}

#[test]
fn form_answers() {
    assert!(
        form_codes(json!({"company": "Acme", "seats": 12, "start": "2026-10-01", "region": "us", "notify": false}))
            .is_empty()
    );
    let required = errors(&invoice(), json!({"action": "accept", "content": {"values": {"company": "  "}}}));
    assert_eq!(
        required,
        one(
            "content.values.company",
            AskErrorCode::REQUIRED_FIELD,
            "\"Company name\" is required.",
            "Fill in \"Company name\" (content.values.company)."
        )
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "seats": "12"})),
        vec![("content.values.seats".into(), AskErrorCode::FIELD_TYPE_MISMATCH)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "seats": 2.5})),
        vec![("content.values.seats".into(), AskErrorCode::FIELD_TYPE_MISMATCH)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "notify": null})),
        vec![("content.values.notify".into(), AskErrorCode::FIELD_TYPE_MISMATCH)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "seats": 501})),
        vec![("content.values.seats".into(), AskErrorCode::OUT_OF_RANGE)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "start": "2026-02-30"})),
        vec![("content.values.start".into(), AskErrorCode::INVALID_DATE)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme Corporation"})),
        vec![("content.values.company".into(), AskErrorCode::TOO_LONG)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "region": "apac"})),
        vec![("content.values.region".into(), AskErrorCode::OPTION_NOT_OFFERED)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "email": "nope"})),
        vec![("content.values.email".into(), AskErrorCode::FIELD_TYPE_MISMATCH)]
    );
    assert_eq!(
        form_codes(json!({"company": "Acme", "fax": "1"})),
        vec![("content.values.fax".into(), AskErrorCode::UNKNOWN_KEY)]
    );
    assert_eq!(
        codes(&invoice(), json!({"action": "accept", "content": {}})),
        vec![("content.values".into(), AskErrorCode::MISSING_REQUIRED)]
    );
}

fn receipts() -> Ask {
    ask(AskKind::Files, json!({"prompt": "Upload", "accept": ["image", "pdf"], "maxFiles": 2}))
}

fn png(extra: Value) -> Value {
    let mut file = json!({"filename": "receipt.png", "mimeType": "image/png", "size": 8});
    file.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    file
}

fn files_codes(files: Value, cap: u64) -> Vec<(String, AskErrorCode)> {
    validate_ask_response(&receipts(), &json!({"action": "accept", "content": {"files": files}}), cap)
        .into_iter()
        .map(|e| (e.path.to_string(), e.code))
        .collect()
}

#[test]
fn files_answers() {
    assert!(files_codes(json!([png(json!({"fileId": "abc"}))]), CAP).is_empty());
    assert!(files_codes(json!([png(json!({"url": "data:image/png;base64,iVBORw0KGgo="}))]), CAP).is_empty());
    assert_eq!(files_codes(json!([]), CAP), vec![("content.files".into(), AskErrorCode::FILE_COUNT)]);
    let three = json!([png(json!({"fileId": "a"})), png(json!({"fileId": "b"})), png(json!({"fileId": "c"}))]);
    assert_eq!(files_codes(three, CAP), vec![("content.files".into(), AskErrorCode::FILE_COUNT)]);
    assert_eq!(
        files_codes(json!([{"fileId": "a", "filename": "notes.txt", "mimeType": "text/plain", "size": 3}]), CAP),
        vec![("content.files[0].mimeType".into(), AskErrorCode::FILE_TYPE_NOT_ACCEPTED)]
    );
    assert_eq!(
        files_codes(json!([png(json!({"fileId": "a", "size": 2048}))]), 1024),
        vec![("content.files[0].size".into(), AskErrorCode::FILE_TOO_LARGE)]
    );
    assert_eq!(
        files_codes(json!([png(json!({"url": "data:image/jpeg;base64,iVBORw0KGgo="}))]), CAP),
        vec![("content.files[0].url".into(), AskErrorCode::MIME_MISMATCH)]
    );
    assert_eq!(
        files_codes(json!([png(json!({}))]), CAP),
        vec![("content.files[0]".into(), AskErrorCode::MISSING_REQUIRED)]
    );
    assert_eq!(
        files_codes(json!([png(json!({"fileId": "a", "url": "data:image/png;base64,iVBORw0KGgo="}))]), CAP),
        vec![("content.files[0].url".into(), AskErrorCode::INVALID_FORMAT)]
    );
    assert_eq!(
        files_codes(json!([png(json!({"url": "https://example.com/receipt.png"}))]), CAP),
        vec![("content.files[0].url".into(), AskErrorCode::INVALID_FORMAT)]
    );
    assert_eq!(
        files_codes(json!([png(json!({"fileId": "a", "filename": ""}))]), CAP),
        vec![("content.files[0].filename".into(), AskErrorCode::TOO_SHORT)]
    );
}

#[test]
fn server_byte_checks_and_ownership() {
    let spoofed = check_ask_file_bytes(b"name,total\nlunch,12\n", 0, "image/png", CAP);
    assert_eq!(
        (spoofed[0].path.to_string(), spoofed[0].code),
        ("content.files[0].mimeType".into(), AskErrorCode::MIME_MISMATCH)
    );
    let not_owned = file_not_owned_error(1);
    assert_eq!(
        (not_owned.path.to_string(), not_owned.code),
        ("content.files[1].fileId".into(), AskErrorCode::FILE_NOT_OWNED)
    );
}
