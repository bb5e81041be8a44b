//! Compiles the word catalogs (`locales/`) into Rust data (`build/catalogs.rs`).

#[path = "build/catalogs.rs"]
mod catalogs;

use std::path::Path;

fn main() {
    // Read at run time: a build script binary reused from another checkout must look here.
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let locales = Path::new(&manifest_dir).join("locales");
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("catalogs.rs"), catalogs::compiled(&locales)).expect("write the catalogs");
}
