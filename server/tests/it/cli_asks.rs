//! `palaver asks …` as a black box: the built binary, JSON on stdin, exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn palaver_asks(command: &str, stdin: &str) -> (i32, Value, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(["asks", command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("palaver runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let json =
        if stdout.trim().is_empty() { Value::Null } else { serde_json::from_str(&stdout).expect("stdout is JSON") };
    (output.status.code().unwrap(), json, String::from_utf8(output.stderr).unwrap())
}

fn plan() -> Value {
    json!({"prompt": "Which plan?", "select": "one", "default": ["team"],
           "options": [{"id": "starter", "label": "Starter"}, {"id": "team", "label": "Team"}]})
}

#[test]
fn check_reports_errors_and_exit_codes() {
    let (code, out, _) = palaver_asks("check", &json!({"kind": "choice", "input": plan()}).to_string());
    assert_eq!((code, out), (0, json!({"errors": []})));

    let (code, out, _) = palaver_asks("check", &json!({"kind": "choice", "input": {"prompt": ""}}).to_string());
    assert_eq!(code, 1);
    let codes: Vec<&str> = out["errors"].as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["MISSING_REQUIRED", "TOO_SHORT", "MISSING_REQUIRED"]);
    assert!(out["errors"][0]["fix"].is_string() && out["errors"][0]["message"].is_string());

    let four = json!({"kind": "choice", "surface": "compact", "input": {"prompt": "p", "select": "one",
        "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}, {"id": "d", "label": "D"}]}});
    let (code, out, _) = palaver_asks("check", &four.to_string());
    assert_eq!((code, out["errors"][0]["code"].as_str()), (1, Some("TOO_MANY")));
}

#[test]
fn unreadable_requests_exit_2_with_a_reason() {
    for (stdin, reason) in [
        ("not json", "not readable JSON"),
        (r#"{"kind": "signature", "input": {}}"#, "Unknown ask kind \"signature\"."),
        (r#"{"kind": "form", "input": {}, "surface": "compact"}"#, "does not offer ask kind \"form\""),
        (r#"{"kind": "choice", "input": {}, "surface": "watch"}"#, "Unknown ask surface \"watch\"."),
    ] {
        let (code, out, stderr) = palaver_asks("check", stdin);
        assert_eq!((code, out), (2, Value::Null), "{stdin}");
        assert!(stderr.contains(reason), "{stderr}");
        assert_eq!(stderr.lines().count(), 1);
    }
}

#[test]
fn card_and_answer() {
    let (code, card, _) =
        palaver_asks("card", &json!({"kind": "choice", "input": plan(), "toolCallId": "call_1"}).to_string());
    assert_eq!(code, 0);
    assert_eq!(card["buttons"][0]["id"], "option:team");
    assert_eq!(card["toolCallId"], "call_1");

    let answer = |response: Value| {
        palaver_asks("answer", &json!({"kind": "choice", "input": plan(), "response": response}).to_string())
    };
    assert_eq!(answer(json!({"action": "accept", "content": {"selected": ["team"]}})).0, 0);
    let (code, out, _) = answer(json!({"action": "accept", "content": {"selected": ["gold"]}}));
    assert_eq!((code, out["errors"][0]["code"].as_str()), (1, Some("OPTION_NOT_OFFERED")));

    let files = json!({"kind": "files", "input": {"prompt": "p", "accept": ["image"]}, "maxFileSizeBytes": 10,
        "response": {"action": "accept", "content": {"files": [{"fileId": "f", "filename": "a.png", "mimeType": "image/png", "size": 11}]}}});
    let (code, out, _) = palaver_asks("answer", &files.to_string());
    assert_eq!((code, out["errors"][0]["code"].as_str()), (1, Some("FILE_TOO_LARGE")));
}
