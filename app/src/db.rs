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
