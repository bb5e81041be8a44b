//! Embeds the ask fixtures the storybook shows (app/fixtures/asks/valid), so the running
//! product never reads ../shared. Only server builds include the generated list.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/asks/valid");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
                .filter_map(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let entries: String = names
        .iter()
        .map(|name| {
            format!("    ({name:?}, include_str!({:?})),\n", dir.join(format!("{name}.json")).display().to_string())
        })
        .collect();
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("ask_fixtures.rs");
    std::fs::write(
        out,
        format!(
            "/// (name, JSON) of every valid ask fixture.\npub const ASK_FIXTURES: &[(&str, &str)] = &[\n{entries}];\n"
        ),
    )
    .expect("write the fixture list");
}
