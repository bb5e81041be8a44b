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
    let url = palaver_core::db::scratch_url(dir.path()).await.unwrap();
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

    let pool = palaver_core::db::connect(&url).await.unwrap();
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users").fetch_one(&pool).await.unwrap();
    assert_eq!(count, 3);
}

#[test]
fn a_database_url_palaver_cannot_open_is_refused_with_what_to_write_instead() {
    let dir = tempfile::tempdir().unwrap();
    let run_in = |url: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_palaver"))
            .args(["users", "create", "alice"])
            .current_dir(dir.path())
            .env("PALAVER_DATABASE_URL", url)
            .env("PALAVER_DATABASE_CONNECT_TIMEOUT_SECONDS", "1")
            .stdin(Stdio::null())
            .output()
            .expect("palaver runs");
        (output.status.code().unwrap(), String::from_utf8(output.stderr).unwrap())
    };
    let (code, err) = run_in("mysql://root:hunter2@localhost/palaver");
    assert_eq!(code, 1);
    assert!(err.contains("must start with sqlite:// (a file, the default) or postgres://"), "{err}");
    assert!(!err.contains("hunter2"), "the password stays out of the message: {err}");

    // Once, a postgres:// URL was taken for a file path and a folder `postgres:` appeared.
    let (code, err) = run_in("postgres://palaver:hunter2@127.0.0.1:9/palaver");
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "Cannot open the database postgres://palaver:***@127.0.0.1:9/palaver: error communicating with database"
        ),
        "{err}"
    );
    assert!(!err.contains("hunter2"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing was created on disk");
}
