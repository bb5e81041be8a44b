//! The HTML block sanitizer on ../shared/bench/html_100k.html.
//! Run: `cargo bench -p app --features ssr --bench blocks`. Budget (issue 7): ≤ 2 ms.

use std::hint::black_box;
use std::path::PathBuf;

use app::blocks::sanitize_html_fragment;
use criterion::{Criterion, criterion_group, criterion_main};

fn benches(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/bench/html_100k.html");
    let html = std::fs::read_to_string(&path).expect("the 100 KB HTML sample");
    c.bench_function("sanitize html_100k.html", |b| b.iter(|| sanitize_html_fragment(black_box(&html))));
}

criterion_group!(blocks, benches);
criterion_main!(blocks);
