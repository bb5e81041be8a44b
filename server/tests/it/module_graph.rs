//! The shape of the source tree, checked: no import cycle between the modules of any crate
//! (at every depth: `chat` and `turn`, `chat::service` and `chat::actions`), no SQL outside the
//! storage modules (`store.rs`, `db.rs`), no file over 500 lines before its tests, and the
//! crates' layers: the core builds without Leptos, the wire without tokio, sqlx or Leptos.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const CRATES: [&str; 6] = ["contract/src", "wire/src", "core/src", "app/src", "server/src", "frontend/src"];
const MAX_LINES: usize = 500;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// A file's module path inside its crate: `chat/ask_card/mod.rs` is `chat::ask_card`.
fn module_of(crate_dir: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(crate_dir).expect("inside the crate").with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|last| last == "mod" || last == "lib" || last == "main") {
        parts.pop();
    }
    parts
}

/// The source before its unit tests, without comments.
fn code(text: &str) -> String {
    let before_tests = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
    before_tests.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// The modules a file names through `crate::a::b` or `super::a`, cut to `depth` segments.
fn uses(module: &[String], code: &str, depth: usize) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    for (start, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
        if code[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let path: String =
            code[start..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        let mut segments: Vec<&str> = path.split("::").filter(|segment| !segment.is_empty()).collect();
        let mut target: Vec<String> = Vec::new();
        match segments.first() {
            Some(&"crate") => {
                segments.remove(0);
            }
            _ => {
                target = module.to_vec();
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    target.pop();
                }
            }
        }
        // Module names are lower case; a type or function ends the module path.
        target.extend(
            segments.iter().take_while(|segment| segment.starts_with(char::is_lowercase)).map(|s| s.to_string()),
        );
        target.truncate(depth);
        let own: Vec<String> = module.iter().take(depth).cloned().collect();
        if !target.is_empty() && target != own {
            found.insert(target);
        }
    }
    found
}

/// A cycle in the graph, if there is one (depth-first search).
fn cycle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        stack: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<String>> {
        if let Some(start) = stack.iter().position(|on_stack| on_stack == node) {
            return Some(stack[start..].iter().chain([node]).map(|module| module.join("::")).collect());
        }
        if !done.insert(node.clone()) {
            return None;
        }
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, stack, done) {
                return Some(found);
            }
        }
        stack.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_module_of_any_crate_is_in_an_import_cycle() {
    for crate_dir in CRATES.map(|dir| root().join(dir)) {
        let mut files = Vec::new();
        rust_files(&crate_dir, &mut files);
        let modules: Vec<(Vec<String>, String)> = files
            .iter()
            .map(|file| (module_of(&crate_dir, file), code(&std::fs::read_to_string(file).expect("readable"))))
            .collect();
        for depth in 1..=3 {
            let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
            for (module, code) in &modules {
                let from: Vec<String> = module.iter().take(depth).cloned().collect();
                graph.entry(from).or_default().extend(uses(module, code, depth));
            }
            // At depth 1, a domain's server functions (`*/api.rs`) sit in its folder above the
            // state they need; that edge is the adapter layer, not a cycle between domains. So
            // the graph is checked without `server_fn`: every other cycle fails.
            if depth == 1 {
                let adapters = vec!["server_fn".to_string()];
                graph.remove(&adapters);
                graph.values_mut().for_each(|targets| {
                    targets.remove(&adapters);
                });
            }
            if let Some(cycle) = cycle(&graph) {
                panic!("{}: import cycle at depth {depth}: {}", crate_dir.display(), cycle.join(" → "));
            }
        }
    }
}

#[test]
fn every_sql_statement_lives_in_a_storage_module() {
    for crate_dir in CRATES.map(|dir| root().join(dir)) {
        let mut files = Vec::new();
        rust_files(&crate_dir, &mut files);
        for file in files {
            let storage = file.file_name().is_some_and(|name| name == "store.rs" || name == "db.rs");
            let text = code(&std::fs::read_to_string(&file).expect("readable"));
            assert!(storage || !text.contains("sqlx::query"), "{} runs SQL outside a storage module", file.display());
        }
    }
}

#[test]
fn no_source_file_is_over_500_lines_before_its_tests() {
    for crate_dir in CRATES.map(|dir| root().join(dir)) {
        let mut files = Vec::new();
        rust_files(&crate_dir, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("readable");
            let lines = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default().lines().count();
            assert!(lines <= MAX_LINES, "{} has {lines} lines before its tests (at most {MAX_LINES})", file.display());
        }
    }
}

/// The crates `package` depends on (normal dependencies, with its default features).
fn dependencies_of(package: &str) -> BTreeSet<String> {
    let tree = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--edges", "normal", "--prefix", "none", "--format", "{p}", "--package", package])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(tree.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&tree.stderr));
    let text = String::from_utf8(tree.stdout).expect("UTF-8");
    text.lines().filter_map(|line| line.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn the_core_builds_without_leptos_and_the_wire_without_tokio_sqlx_or_leptos() {
    let core = dependencies_of("palaver-core");
    assert!(core.contains("sqlx"), "the tree was read: {core:?}");
    let leptos: Vec<&String> = core.iter().filter(|name| name.starts_with("leptos")).collect();
    assert!(leptos.is_empty(), "palaver-core depends on {leptos:?}");
    let wire = dependencies_of("palaver-wire");
    assert!(wire.contains("serde"), "the tree was read: {wire:?}");
    let heavy: Vec<&String> =
        wire.iter().filter(|name| ["tokio", "sqlx"].contains(&name.as_str()) || name.starts_with("leptos")).collect();
    assert!(heavy.is_empty(), "palaver-wire depends on {heavy:?}");
}
