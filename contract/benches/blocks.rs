//! Reply documents: parse + validate ../shared/bench/blocks_50.yaml and the golden fixture, and
//! the HTML block sanitizer on ../shared/bench/html_100k.html.
//! Run: `cargo bench -p palaver-contract --features sanitize --bench blocks`.
//! Each is read as a ratio to its floor, measured beside it (`scripts/contract-ratios.py`):
//! parse + validate against saphyr's raw event pass, sanitize against html5ever's parse alone.

// A benchmark that cannot set up has nothing to measure: it stops there.
#![allow(clippy::unwrap_used)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use html5ever::tendril::TendrilSink;
use palaver_contract::blocks::{BlockOptions, check_blocks_text, sanitize_html_fragment};

fn shared(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

fn benches(c: &mut Criterion) {
    let blocks_50 = shared("bench/blocks_50.yaml");
    let options = BlockOptions::default();
    assert!(check_blocks_text(&blocks_50, &options).ok, "blocks_50.yaml validates");
    // The full YAML reader's parser alone: what a document outside the subset reader's
    // plain style pays before it is even read into a value.
    c.bench_function("saphyr events blocks_50.yaml", |b| {
        b.iter(|| saphyr_parser::Parser::new_from_str(black_box(&blocks_50)).count())
    });
    c.bench_function("parse blocks_50.yaml", |b| {
        b.iter(|| palaver_contract::blocks::parse_blocks(black_box(&blocks_50)))
    });
    c.bench_function("parse+validate blocks_50.yaml", |b| {
        b.iter(|| check_blocks_text(black_box(&blocks_50), &options))
    });

    let golden = shared("fixtures/blocks/golden/sunday-roast.yaml");
    let golden_options = BlockOptions {
        checklist_actions: Some(vec!["toggleChecklist".into()]),
        host_actions: Some(vec!["scaleStepper".into(), "toggleChecklist".into()]),
        image_hosts: vec!["images.example.com".into()],
        stepper_actions: Some(vec!["scaleStepper".into()]),
        ..BlockOptions::default()
    };
    assert!(check_blocks_text(&golden, &golden_options).ok, "the golden document validates");
    c.bench_function("saphyr events golden", |b| {
        b.iter(|| saphyr_parser::Parser::new_from_str(black_box(&golden)).count())
    });
    c.bench_function("parse golden", |b| b.iter(|| palaver_contract::blocks::parse_blocks(black_box(&golden))));
    c.bench_function("parse+validate golden", |b| b.iter(|| check_blocks_text(black_box(&golden), &golden_options)));

    let html = shared("bench/html_100k.html");
    c.bench_function("sanitize html_100k.html", |b| b.iter(|| sanitize_html_fragment(black_box(&html))));
    // The sanitizer's floor: html5ever reading the fragment into a plain DOM, as ammonia does
    // before it cleans anything.
    c.bench_function("html5ever parse html_100k.html", |b| {
        b.iter(|| {
            html5ever::parse_fragment(
                markup5ever_rcdom::RcDom::default(),
                html5ever::ParseOpts::default(),
                html5ever::QualName::new(None, html5ever::ns!(html), html5ever::local_name!("div")),
                Vec::new(),
                false,
            )
            .one(black_box(html.as_str()))
        })
    });
}

criterion_group!(blocks, benches);
criterion_main!(blocks);
