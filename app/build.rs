//! Embeds the fixtures the storybook shows (contract/fixtures/asks/valid and contract/fixtures/blocks), so
//! the running product never reads ../shared (only server builds include the generated lists).

use std::path::{Path, PathBuf};

/// The files of `dir` with one of `extensions`, as (name without extension, path), by name.
fn files(dir: &Path, extensions: &[&str]) -> Vec<(String, PathBuf)> {
    println!("cargo:rerun-if-changed={}", dir.display());
    // A missing folder fails the build: an empty storybook must never ship silently.
    let entries = std::fs::read_dir(dir).unwrap_or_else(|err| panic!("cannot read {}: {err}", dir.display()));
    let mut files: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| extensions.iter().any(|wanted| ext == *wanted)))
        .filter_map(|path| Some((path.file_stem()?.to_string_lossy().into_owned(), path)))
        .collect();
    files.sort();
    files
}

fn main() {
    // Read at run time: a build script binary reused from another checkout must look here.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let fixtures = Path::new(&manifest_dir).join("../contract/fixtures");
    let asks: String = files(&fixtures.join("asks/valid"), &["json"])
        .iter()
        .map(|(name, path)| format!("    ({name:?}, include_str!({:?})),\n", path.display().to_string()))
        .collect();
    let blocks: String = ["valid", "golden", "partial", "invalid"]
        .iter()
        .flat_map(|group| {
            files(&fixtures.join("blocks").join(group), &["yaml", "txt"]).into_iter().map(move |(name, path)| {
                format!("    ({group:?}, {name:?}, include_str!({:?})),\n", path.display().to_string())
            })
        })
        .collect();
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(
        Path::new(&out_dir).join("fixtures.rs"),
        format!(
            "/// (name, JSON) of every valid ask fixture.\n\
             pub const ASK_FIXTURES: &[(&str, &str)] = &[\n{asks}];\n\
             /// (group, name, text) of every block fixture: valid, golden, partial, invalid.\n\
             pub const BLOCK_FIXTURES: &[(&str, &str, &str)] = &[\n{blocks}];\n"
        ),
    )
    .expect("write the fixture lists");
}
