//! `palaver audit key` and `palaver audit verify` as a black box: the built binary on the
//! database a test app wrote, and on the export the API gave.

use std::process::Command;

use serde_json::json;

use crate::common::{TestApp, asked};
use palaver_core::audit::signing::AuditKey;
use palaver_wire::accounts::Role;

fn palaver(app: &TestApp, data_dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(args)
        .env("PALAVER_DATABASE_URL", app.pool.connect_options().database_url.as_str())
        .env("PALAVER_DATA_DIR", data_dir)
        .env_remove("PALAVER_AUDIT_KEY")
        .output()
        .expect("palaver runs");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.code().unwrap(), text(output.stdout), text(output.stderr))
}

#[tokio::test]
async fn the_trail_checks_whole_from_the_database_and_from_its_export_and_a_change_is_named() {
    let choice = json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one", "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]});
    let app = TestApp::with_mock(&json!({"responses": [choice, {"text": "Team it is."}]}).to_string()).await;
    let ada = app.user("ada", Role::User).await;
    let turn = app.prompt(&ada, json!({"prompt": "Pick a plan"})).await;
    let history = turn.last().unwrap()["historyId"].clone();
    let answer = json!({"historyId": history, "askResponse": {"toolCallId": asked(&turn), "action": "decline"}});
    app.prompt(&ada, answer).await;
    let key = AuditKey::load(None, app.dir.path()).unwrap();
    palaver_core::audit::sign_heads(&app.pool, &key).await.unwrap();

    let (code, out, err) = palaver(&app, app.dir.path(), &["audit", "key"]);
    assert_eq!((code, out.trim()), (0, key.public_key()), "{err}");
    let (code, out, err) = palaver(&app, app.dir.path(), &["audit", "verify"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("The audit trail holds: 1 entry in 1 chain, 1 signature; 0 entries are newer"), "{out}");

    let export = app.call(Some(&ada), "GET", "/gpt/audit/export", None).await;
    assert_eq!(export.headers["content-type"], "application/x-ndjson");
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("audit.jsonl");
    std::fs::write(&file, &export.text).unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) =
        palaver(&app, elsewhere.path(), &["audit", "verify", "--file", file, "--trust", key.public_key()]);
    assert_eq!(code, 0, "an untouched export verifies offline: {err}");
    assert!(out.contains("1 entry in 1 chain"), "{out}");
    let (code, _, err) = palaver(&app, elsewhere.path(), &["audit", "verify", "--file", file]);
    assert_eq!(code, 1, "signed by a key this machine was not told to trust");
    assert!(err.contains("does not trust"), "{err}");

    std::fs::write(file, export.text.replace(r#""decision":"decline""#, r#""decision":"accept""#)).unwrap();
    let (code, _, err) =
        palaver(&app, elsewhere.path(), &["audit", "verify", "--file", file, "--trust", key.public_key()]);
    assert_eq!(code, 1);
    assert!(err.contains("(position 1 of") && err.contains("was changed after it was written"), "{err}");
    std::fs::write(file, "{\"entry\": 1}\n").unwrap();
    let (code, _, err) = palaver(&app, elsewhere.path(), &["audit", "verify", "--file", file]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("Line 1 of the export is not an audit line"), "{err}");

    sqlx::query("UPDATE ask_audit SET reason = 'changed my mind'").execute(&app.pool).await.unwrap();
    let (id,): (i64,) = sqlx::query_as("SELECT id FROM ask_audit").fetch_one(&app.pool).await.unwrap();
    let (code, _, err) = palaver(&app, app.dir.path(), &["audit", "verify"]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("Entry {id} (position 1 of")) && err.contains("was changed"), "{err}");
}

#[tokio::test]
async fn an_owner_exports_their_own_chain_and_an_admin_every_chain() {
    let choice = json!({"toolCalls": [{"id": "call_plan", "name": "ask_choice", "input": {
        "prompt": "Which plan?", "select": "one", "options": [{"id": "solo", "label": "Solo"}, {"id": "team", "label": "Team"}]}}]});
    let script = json!({"responses": [choice.clone(), {"text": "One."}, choice, {"text": "Two."}]});
    let app = TestApp::with_mock(&script.to_string()).await;
    let admin = app.user("root", Role::Admin).await;
    let (ada, bob) = (app.user("ada", Role::User).await, app.user("bob", Role::User).await);
    for user in [&ada, &bob] {
        let turn = app.prompt(user, json!({"prompt": "Pick a plan"})).await;
        let history = turn.last().unwrap()["historyId"].clone();
        app.prompt(
            user,
            json!({"historyId": history, "askResponse": {"toolCallId": asked(&turn), "action": "decline"}}),
        )
        .await;
    }
    let chains_in = |text: &str| {
        let mut owners: Vec<String> = text
            .lines()
            .filter_map(|line| {
                serde_json::from_str::<serde_json::Value>(line).ok()?["entry"]["chainOwner"].as_str().map(String::from)
            })
            .collect();
        owners.sort();
        owners
    };
    let own = app.call(Some(&ada), "GET", "/gpt/audit/export", None).await;
    assert_eq!(chains_in(&own.text), std::slice::from_ref(&ada.id));
    let every = app.call(Some(&admin), "GET", "/gpt/audit/export", None).await;
    let mut both = vec![ada.id.clone(), bob.id.clone()];
    both.sort();
    assert_eq!(chains_in(&every.text), both);
}
