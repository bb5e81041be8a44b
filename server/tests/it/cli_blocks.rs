//! `palaver blocks check|sanitize` as a black box: the built binary, a document on stdin, exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn palaver(args: &[&str], stdin: &[u8]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("palaver runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let output = child.wait_with_output().unwrap();
    (output.status.code().unwrap(), String::from_utf8(output.stdout).unwrap())
}

fn check(args: &[&str], document: &[u8]) -> (i32, Value) {
    let (code, stdout) = palaver(&[&["blocks", "check"], args].concat(), document);
    (code, if stdout.trim().is_empty() { Value::Null } else { serde_json::from_str(&stdout).expect("stdout is JSON") })
}

fn golden() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures/blocks/golden/sunday-roast.yaml");
    std::fs::read(path).expect("the golden fixture")
}

#[test]
fn check_prints_errors_and_warnings_with_exit_codes() {
    let (code, out) = check(&[], b"v: 1\nblocks:\n  - type: divider\n");
    assert_eq!((code, out), (0, json!({"errors": [], "warnings": []})));

    let (code, out) = check(&[], b"v: 1\nblocks:\n  - type: heading\n    text: Hi\n    color: red\n");
    assert_eq!(code, 1);
    assert_eq!(
        (out["errors"][0]["code"].as_str(), out["errors"][0]["path"].as_str()),
        (Some("UNKNOWN_KEY"), Some("blocks[0].color"))
    );
    assert!(out["errors"][0]["fix"].is_string() && out["errors"][0]["message"].is_string());

    let (code, out) =
        check(&[], b"v: 1\nblocks:\n  - type: chart\n    kind: line\n    points: [{label: a, value: 1}]\n");
    assert_eq!((code, out["warnings"][0]["code"].as_str()), (0, Some("LINE_SINGLE_POINT")));

    let (code, out) = check(&[], &[0xff, 0xfe]);
    assert_eq!((code, out), (2, Value::Null));
}

#[test]
fn options_turn_on_html_image_hosts_and_callback_checks() {
    let html = br#"{"v": 1, "blocks": [{"type": "html", "html": "<p>Hi</p>"}]}"#;
    assert_eq!(check(&[], html).1["errors"][0]["code"], "HTML_DISABLED");
    assert_eq!(check(&["--html"], html).0, 0);

    let (code, out) = check(&[], &golden());
    assert_eq!(code, 1);
    assert!(out["errors"].as_array().unwrap().iter().all(|error| error["code"] == "IMAGE_HOST_NOT_ALLOWED"));
    assert_eq!(check(&["--image-host", "images.example.com"], &golden()), (0, json!({"errors": [], "warnings": []})));
    let (code, out) = check(&["--image-host", "images.example.com", "--host-action", "other"], &golden());
    assert_eq!((code, out["errors"][0]["code"].as_str()), (1, Some("UNKNOWN_HOST_ACTION")));
}

#[test]
fn sanitize_prints_the_inert_html() {
    let (code, stdout) = palaver(
        &["blocks", "sanitize"],
        b"<h1 onclick=\"x()\">Invoice</h1><script>alert(1)</script><img src=\"https://evil.test/p.png\" alt=\"p\">",
    );
    assert_eq!((code, stdout.as_str()), (0, "<h1>Invoice</h1><img alt=\"p\">\n"));
}
