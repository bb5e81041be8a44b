//! `palaver mcp try` as a black box: the built binary against real MCP servers installed by
//! `scripts/install-tools.sh --test` into `scripts/mcp` (`server-filesystem` on a temporary
//! folder, `asking_server.mjs`, whose read-only tool asks a question, and `input_server.py`,
//! whose tools need input under MCP 2026-07-28). Pointed at a server
//! it does not know, it calls only the tools marked read-only and declines every question.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scripts_mcp() -> PathBuf {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/mcp");
    assert!(
        folder.join("node_modules/@modelcontextprotocol").is_dir(),
        "the test MCP servers are not installed: run scripts/install-tools.sh --test"
    );
    folder
}

/// `palaver mcp try <options> node <server> <server args>`: its exit code, stdout and stderr.
fn try_server(options: &[&str], server: &Path, server_args: &[&Path]) -> (i32, String, String) {
    try_command(options, Path::new("node"), server, server_args)
}

/// `palaver mcp try <options> <program> <server> <server args>`.
fn try_command(options: &[&str], program: &Path, server: &Path, server_args: &[&Path]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(["mcp", "try"])
        .args(options)
        .arg(program)
        .arg(server)
        .args(server_args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("palaver runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Every file and folder under `root` with its bytes (`None` for a folder).
fn contents(root: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut found = BTreeMap::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let relative = path.strip_prefix(root).unwrap().to_path_buf();
            if path.is_dir() {
                found.insert(relative, None);
                folders.push(path);
            } else {
                found.insert(relative, Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    found
}

/// A folder with a file and a subfolder in it, for server-filesystem to serve.
fn served_folder() -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "Keep me as I am.\n").unwrap();
    std::fs::create_dir(folder.path().join("drafts")).unwrap();
    std::fs::write(folder.path().join("drafts/plan.md"), "# Plan\n").unwrap();
    folder
}

fn filesystem_server() -> PathBuf {
    scripts_mcp().join("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js")
}

#[test]
fn by_default_it_calls_only_the_read_only_tools_and_names_the_ones_it_skipped() {
    let folder = served_folder();
    let before = contents(folder.path());
    let (code, out, err) = try_server(&[], &filesystem_server(), &[folder.path()]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(contents(folder.path()), before, "nothing in the folder changed:\n{out}");
    assert!(out.contains("call list_allowed_directories"), "the read-only tools are called:\n{out}");
    assert!(out.contains("call read_text_file"), "{out}");
    let skipped = out.lines().find(|line| line.starts_with("skipped")).unwrap_or_else(|| panic!("{out}"));
    for tool in ["write_file", "edit_file", "create_directory", "move_file"] {
        assert!(skipped.contains(tool), "{tool} is named as skipped: {skipped}");
        assert!(!out.contains(&format!("call {tool} ")), "{tool} was not called:\n{out}");
    }
    assert!(!err.contains("--call-all"), "no warning without the option: {err}");
}

#[test]
fn call_all_warns_then_calls_the_tools_that_change_things() {
    let folder = served_folder();
    let before = contents(folder.path());
    let (code, out, err) = try_server(&["--call-all"], &filesystem_server(), &[folder.path()]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(err.contains("warning: --call-all calls every tool"), "{err}");
    assert!(out.contains("call write_file "), "{out}");
    assert!(!out.contains("skipped"), "{out}");
    // The sample path resolves inside the served folder: the writes land there.
    assert_ne!(contents(folder.path()), before, "the tools that change things ran:\n{out}");
}

#[test]
fn the_servers_questions_are_declined_unless_asked_to_answer_with_the_defaults() {
    let asking = scripts_mcp().join("asking_server.mjs");
    let (code, out, err) = try_server(&[], &asking, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("the server asked a question: decline"), "{out}");
    assert!(out.contains("No one answered (decline)."), "{out}");

    let (code, out, err) = try_server(&["--answer-defaults"], &asking, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("the server asked a question: accept"), "{out}");
    assert!(out.contains("Hello, Ada."), "{out}");
}

#[test]
fn input_a_server_requires_is_answered_and_the_call_sent_again() {
    let python = scripts_mcp().join(".venv/bin/python");
    let desk = scripts_mcp().join("input_server.py");
    let (code, out, err) = try_command(&["--call-all", "--answer-defaults"], &python, &desk, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("the server needs input (__main__:ask_guest): accept"), "{out}");
    assert!(out.contains("Hello, Ada."), "{out}");

    let (code, out, err) = try_command(&["--call-all"], &python, &desk, &[]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("the server needs input (__main__:ask_guest): decline"), "{out}");
    assert!(out.contains("No one answered (decline)."), "{out}");
}
