//! Arbitrary JSON never panics the contract: random values, deep nesting, huge strings, odd
//! numbers and wrong types at every path of the valid fixtures.

use std::path::PathBuf;

use palaver_contract::asks::{
    ASK_KINDS, AskKind, AskSurface, check_simple_card, parse_ask_input, parse_stored_ask, to_simple_card, told_answer,
    validate_ask_input, validate_ask_response,
};
use proptest::prelude::*;
use serde_json::{Value, json};

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_filter("finite", |n| n.is_finite()).prop_map(|n| json!(n)),
        prop_oneof![Just(1e308), Just(-0.0), Just(9007199254740993.0), Just(0.5)].prop_map(|n| json!(n)),
        ".{0,40}".prop_map(Value::String),
        prop_oneof![
            Just("one"),
            Just("many"),
            Just("accept"),
            Just("decline"),
            Just("image"),
            Just("text"),
            Just("🎉🎉")
        ]
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::btree_map(
                prop_oneof![
                    Just("prompt".to_string()),
                    Just("select".to_string()),
                    Just("options".to_string()),
                    Just("fields".to_string()),
                    Just("content".to_string()),
                    Just("action".to_string()),
                    "[a-zA-Z]{1,8}",
                ],
                inner,
                0..8
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

fn valid_fixtures() -> Vec<(AskKind, Value)> {
    // The reference's fixtures and Palaver's own (question sets, locales).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/asks/valid");
    let mut fixtures: Vec<(AskKind, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let fixture: Value =
                serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
            (AskKind::parse(fixture["kind"].as_str().unwrap()).unwrap(), fixture["input"].clone())
        })
        .collect();
    fixtures.sort_by_key(|(_, input)| input.to_string());
    fixtures
}

/// Every place in a value, as a list of steps, so a mutation can replace any one of them.
fn places(value: &Value, prefix: Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    match value {
        Value::Object(map) => map.iter().for_each(|(key, child)| {
            let mut path = prefix.clone();
            path.push(Step::Key(key.clone()));
            places(child, path, out);
        }),
        Value::Array(items) => items.iter().enumerate().for_each(|(index, child)| {
            let mut path = prefix.clone();
            path.push(Step::Index(index));
            places(child, path, out);
        }),
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn replace(value: &mut Value, path: &[Step], with: Value) {
    match path.split_first() {
        None => *value = with,
        Some((Step::Key(key), rest)) => replace(&mut value[key.as_str()], rest, with),
        Some((Step::Index(index), rest)) => replace(&mut value[*index], rest, with),
    }
}

/// Runs every entry point on an input and an answer; panics are the failure being looked for.
fn exercise(kind: AskKind, input: &Value, answer: &Value) {
    for surface in AskSurface::ALL {
        let errors = validate_ask_input(kind, input, surface);
        if let Ok(ask) = parse_ask_input(kind, input, surface) {
            assert!(errors.is_empty());
            let card = to_simple_card(&ask, "call_fuzz");
            assert_eq!(check_simple_card(&serde_json::to_value(&card).unwrap()), vec![]);
            let _ = validate_ask_response(&ask, answer, 1024);
            let _ = told_answer(kind, input, answer);
            let stored = ask.stored_input(input);
            if surface == AskSurface::Full {
                assert_eq!(parse_stored_ask(kind, &stored), Ok(ask.clone()), "{stored}");
            }
            for button in &card.buttons {
                assert_eq!(validate_ask_response(&ask, &button.response.to_value(), 10 * 1024 * 1024), vec![]);
            }
        }
    }
    let _ = check_simple_card(input);
    let _ = parse_stored_ask(kind, input);
    let _ = told_answer(kind, input, answer);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_values_never_panic(kind in 0..ASK_KINDS.len(), input in arbitrary_json(), answer in arbitrary_json()) {
        exercise(ASK_KINDS[kind], &input, &answer);
    }

    #[test]
    fn fixtures_with_one_value_replaced_never_panic(pick in any::<prop::sample::Index>(), place in any::<prop::sample::Index>(), with in arbitrary_json(), answer in arbitrary_json()) {
        let fixtures = valid_fixtures();
        let (kind, mut input) = fixtures[pick.index(fixtures.len())].clone();
        let mut all = Vec::new();
        places(&input, Vec::new(), &mut all);
        let path = all[place.index(all.len())].clone();
        replace(&mut input, &path, with);
        exercise(kind, &input, &answer);
    }
}

#[test]
fn deep_nesting_and_huge_strings() {
    let mut deep = json!("leaf");
    for _ in 0..200 {
        deep = json!({"options": [deep]});
    }
    let huge = "x".repeat(5_000_000);
    for kind in ASK_KINDS {
        exercise(kind, &deep, &deep);
        exercise(
            kind,
            &json!({"prompt": huge, "options": huge, "fields": [huge], "accept": [huge], "questions": [{"title": huge}], "locale": huge}),
            &json!({"action": huge}),
        );
    }
}
