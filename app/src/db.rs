//! The SQLite database: opening it, applying the embedded migrations, and the ids of its rows.

use std::str::FromStr;
use std::time::Duration;

use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

/// A new random id: 32 lowercase hex digits, time-ordered (UUID v7).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

/// Opens (creating if needed) the database at `url` in WAL mode and migrates it to the newest schema.
pub async fn connect(url: &str) -> Result<SqlitePool, sqlx::Error> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        // With WAL, NORMAL never corrupts the database; a power cut may lose the last commits.
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5));
    let pool = SqlitePoolOptions::new().max_connections(8).connect_with(options).await?;
    sqlx::migrate!("../migrations").run(&pool).await?;
    Ok(pool)
}

/// Whether the database answers.
pub async fn ping(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT 1").execute(pool).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use sqlx::migrate::Migrator;

    use super::*;

    /// A database migrated up to `last` (a migration's file name), as an older Palaver left it.
    async fn migrated_up_to(dir: &std::path::Path, last: &str) -> SqlitePool {
        let sources = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
        let older = dir.join("migrations");
        std::fs::create_dir(&older).unwrap();
        for entry in std::fs::read_dir(&sources).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap().to_str().unwrap() <= last {
                std::fs::copy(&path, older.join(path.file_name().unwrap())).unwrap();
            }
        }
        let url = format!("sqlite://{}", dir.join("palaver.db").display());
        let pool = SqlitePool::connect_with(SqliteConnectOptions::from_str(&url).unwrap().create_if_missing(true))
            .await
            .unwrap();
        Migrator::new(older.as_path()).await.unwrap().run(&pool).await.unwrap();
        pool
    }

    #[tokio::test]
    async fn block_errors_move_out_of_the_text_of_older_rows() {
        let dir = tempfile::tempdir().unwrap();
        let pool = migrated_up_to(dir.path(), "0005_block_states.sql").await;
        let document = "v: 1\nblocks:\n  - type: heading\n";
        let errors = "- blocks[0].text MISSING_REQUIRED A required field is missing.";
        let rows = [
            serde_json::json!({"type": "assistant", "text": format!("{document}\n\nBlock validation errors:\n{errors}"), "document": true}),
            serde_json::json!({"type": "assistant", "text": "Prose that quotes\n\nBlock validation errors:\n- as text."}),
        ];
        sqlx::query("INSERT INTO histories (id) VALUES ('h')").execute(&pool).await.unwrap();
        for (seq, row) in rows.iter().enumerate() {
            sqlx::query("INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload) VALUES ('h', ?, 't', 'assistant', ?)")
                .bind(seq as i64)
                .bind(row.to_string())
                .execute(&pool)
                .await
                .unwrap();
        }
        sqlx::migrate!("../migrations").run(&pool).await.unwrap();

        let payloads: Vec<String> =
            sqlx::query_scalar("SELECT payload FROM history_rows ORDER BY seq").fetch_all(&pool).await.unwrap();
        let moved: serde_json::Value = serde_json::from_str(&payloads[0]).unwrap();
        assert_eq!(moved["text"], document);
        assert_eq!(moved["blockErrors"], errors);
        assert_eq!(payloads[1], rows[1].to_string(), "a reply that is not a document keeps its text");
    }
}
