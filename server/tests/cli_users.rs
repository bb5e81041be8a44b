//! `palaver users create` as a black box: the built binary, a password on stdin, a real database.

use std::io::Write;
use std::process::{Command, Stdio};

fn create_user(database_url: &str, args: &[&str], password: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_palaver"))
        .args(["users", "create"])
        .args(args)
        .env("PALAVER_DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("palaver runs");
    child.stdin.take().unwrap().write_all(password.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[tokio::test]
async fn creates_accounts_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("users.db").display());
    let (code, out, err) = create_user(&url, &["alice"], "correct horse battery\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "created alice (admin)", "the first account is an admin");
    let (code, out, _) = create_user(&url, &["bob"], "correct horse battery\n");
    assert_eq!((code, out.trim()), (0, "created bob (user)"));
    let (code, out, _) = create_user(&url, &["carol", "--admin"], "correct horse battery");
    assert_eq!((code, out.trim()), (0, "created carol (admin)"));

    let (code, _, err) = create_user(&url, &["ALICE"], "correct horse battery");
    assert_eq!(code, 1);
    assert!(err.contains("That username is taken."), "{err}");
    let (code, _, err) = create_user(&url, &["dave"], "short");
    assert_eq!(code, 1);
    assert!(err.contains("at least 10 characters"), "{err}");

    let pool = app::db::connect(&url).await.unwrap();
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users").fetch_one(&pool).await.unwrap();
    assert_eq!(count, 3);
}
