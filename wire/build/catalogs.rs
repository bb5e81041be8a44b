//! Compiles the Fluent catalogs (`locales/<language>/cards.ftl`) into Rust data, read with
//! Fluent's own parser: the product carries the messages and a small formatter
//! (`src/words/format.rs`), not a Fluent runtime. The catalogs may use text, variables and
//! selectors (on a count: exact numbers, then plural categories; on a word: its value);
//! anything else, a syntax error, or a language without plural rules fails the build.

use std::path::Path;

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey};

/// The languages whose plural rules `src/words/format.rs` knows.
const PLURAL_RULES: &[&str] = &["ar", "de", "en"];

fn parts(id: &str, pattern: &Pattern<&str>) -> String {
    let mut out = String::from("&[");
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => out.push_str(&format!("Part::Text({value:?}),")),
            PatternElement::Placeable { expression } => out.push_str(&placeable(id, expression)),
        }
    }
    out.push(']');
    out
}

fn placeable(id: &str, expression: &Expression<&str>) -> String {
    match expression {
        Expression::Inline(InlineExpression::VariableReference { id: var }) => format!("Part::Var({:?}),", var.name),
        Expression::Select { selector: InlineExpression::VariableReference { id: var }, variants } => {
            let default = variants.iter().position(|variant| variant.default).expect("Fluent requires a default");
            let mut out = format!("Part::Select {{ var: {:?}, default: {default}, variants: &[", var.name);
            for variant in variants {
                let key = match variant.key {
                    VariantKey::Identifier { name } => format!("Key::Name({name:?})"),
                    VariantKey::NumberLiteral { value } => {
                        let number: i64 = value.parse().unwrap_or_else(|_| panic!("{id}: [{value}] is not a count"));
                        format!("Key::Count({number})")
                    }
                };
                out.push_str(&format!("({key}, {}),", parts(id, &variant.value)));
            }
            out.push_str("] },");
            out
        }
        other => panic!("{id}: the catalogs use variables and selectors on them only, not {other:?}"),
    }
}

/// The Rust source of every catalog under `locales`, by language tag.
pub fn compiled(locales: &Path) -> String {
    println!("cargo:rerun-if-changed={}", locales.display());
    let mut languages: Vec<_> = std::fs::read_dir(locales)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", locales.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    languages.sort();
    // English is every other catalog's fallback, and the words' default.
    assert!(languages.iter().any(|language| language == "en"), "locales/en is missing");
    let mut out = String::from(
        "/// Every catalog, by language tag; each one's messages by id.\npub(super) static CATALOGS: &[Catalog] = &[\n",
    );
    for language in &languages {
        assert!(PLURAL_RULES.contains(&language.as_str()), "locales/{language}: add its plural rules first");
        let path = locales.join(language).join("cards.ftl");
        println!("cargo:rerun-if-changed={}", path.display());
        let source =
            std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
        let resource = fluent_syntax::parser::parse(source.as_str())
            .unwrap_or_else(|(_, errors)| panic!("{}: {errors:?}", path.display()));
        let mut messages: Vec<(&str, String)> = resource
            .body
            .iter()
            .filter_map(|entry| match entry {
                Entry::Message(message) => {
                    let value = message.value.as_ref().unwrap_or_else(|| panic!("{}: no value", message.id.name));
                    Some((message.id.name, parts(message.id.name, value)))
                }
                Entry::Term(term) => panic!("{}: terms are not supported", term.id.name),
                Entry::Junk { content } => panic!("{}: unreadable: {content}", path.display()),
                _ => None,
            })
            .collect();
        messages.sort_by(|a, b| a.0.cmp(b.0));
        out.push_str(&format!("    Catalog {{ tag: {language:?}, messages: &[\n"));
        for (id, parts) in messages {
            out.push_str(&format!("        ({id:?}, {parts}),\n"));
        }
        out.push_str("    ] },\n");
    }
    out.push_str("];\n");
    out
}
