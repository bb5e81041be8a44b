//! The database: SQLite (the embedded default) or PostgreSQL, chosen by the URL's scheme;
//! opening it, applying the backend's embedded migrations, the few places where the two
//! dialects differ, and the ids of its rows.
//!
//! Every query goes through sqlx's `Any` driver, so the storage modules hold one copy of each
//! statement. Parameters are written `$1`, `$2`… (both backends read them); what differs —
//! the clock, reading and writing inside JSON, case-insensitive matching — comes from
//! [`Backend`]. JSON columns are `TEXT` on SQLite and `jsonb` on PostgreSQL, so a query reads
//! them as `CAST(column AS TEXT)` and writes them through [`Backend::json`].

use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::migrate::Migrator;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Executor};

/// The pool every storage module takes.
pub type Pool = AnyPool;
/// A transaction on it.
pub type Tx<'c> = sqlx::Transaction<'c, Any>;

/// A duration as whole seconds, to bind (saturating).
pub fn seconds(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_secs()).unwrap_or(i64::MAX)
}

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../migrations/postgres");

/// A new random id: 32 lowercase hex digits, time-ordered (UUID v7).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().simple().to_string()
}

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// The backend of `url`, or a message saying which schemes there are.
    pub fn of_url(url: &str) -> Result<Self, String> {
        let scheme = url.split_once(':').map(|(scheme, _)| scheme).unwrap_or_default();
        match scheme {
            "sqlite" => Ok(Backend::Sqlite),
            "postgres" | "postgresql" => Ok(Backend::Postgres),
            _ => Err(format!(
                "The database URL must start with sqlite:// (a file, the default) or postgres:// (a PostgreSQL \
                 server); `{}` does not.",
                redacted(url)
            )),
        }
    }

    /// The backend behind `pool`.
    pub fn of(pool: &Pool) -> Self {
        Self::of_url(pool.connect_options().database_url.as_str()).unwrap_or(Backend::Sqlite)
    }

    /// The backend a transaction runs on.
    pub fn of_tx(tx: &Tx<'_>) -> Self {
        if tx.backend_name().eq_ignore_ascii_case("PostgreSQL") { Backend::Postgres } else { Backend::Sqlite }
    }

    /// The database's clock as the API writes times: ISO 8601 UTC with milliseconds.
    pub const fn now(self) -> &'static str {
        match self {
            Backend::Sqlite => "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            Backend::Postgres => "palaver_now()",
        }
    }

    /// The time `seconds` (an integer expression) after `time` (an ISO 8601 expression), in the
    /// same form; NULL when `time` is NULL.
    pub fn seconds_after(self, time: &str, seconds: &str) -> String {
        match self {
            Backend::Sqlite => format!("strftime('%Y-%m-%dT%H:%M:%fZ', {time}, {seconds} || ' seconds')"),
            Backend::Postgres => format!("palaver_time(CAST({time} AS timestamptz) + {seconds} * interval '1 second')"),
        }
    }

    /// The time `seconds` from now.
    pub fn seconds_from_now(self, seconds: &str) -> String {
        match self {
            Backend::Sqlite => self.seconds_after("'now'", seconds),
            Backend::Postgres => format!("palaver_time(now() + {seconds} * interval '1 second')"),
        }
    }

    /// The text at `path` (dot-separated keys) inside the JSON `column`, NULL when absent.
    pub fn json_text(self, column: &str, path: &str) -> String {
        match self {
            Backend::Sqlite => format!("json_extract({column}, '$.{path}')"),
            Backend::Postgres if !path.contains('.') => format!("({column} ->> '{path}')"),
            Backend::Postgres => format!("({column} #>> '{{{}}}')", path.replace('.', ",")),
        }
    }

    /// The JSON text `value` (a parameter or an expression) as the JSON column type.
    pub fn json(self, value: &str) -> String {
        match self {
            Backend::Sqlite => value.to_owned(),
            Backend::Postgres => format!("CAST({value} AS jsonb)"),
        }
    }

    /// JSON text as this backend can store it: PostgreSQL's `jsonb` cannot hold U+0000, so
    /// there each one in a string or key becomes U+FFFD; SQLite keeps the text as it is.
    pub fn storable_json(self, json: String) -> String {
        if self == Backend::Sqlite || !json.contains("\\u0000") {
            return json;
        }
        fn replace_nul(value: &mut serde_json::Value) {
            match value {
                serde_json::Value::String(text) => *text = text.replace('\0', "\u{fffd}"),
                serde_json::Value::Array(items) => items.iter_mut().for_each(replace_nul),
                serde_json::Value::Object(map) => {
                    *map = std::mem::take(map)
                        .into_iter()
                        .map(|(key, mut item)| {
                            replace_nul(&mut item);
                            (key.replace('\0', "\u{fffd}"), item)
                        })
                        .collect();
                }
                _ => {}
            }
        }
        match serde_json::from_str::<serde_json::Value>(&json) {
            Ok(mut value) => {
                replace_nul(&mut value);
                value.to_string()
            }
            // Not JSON: the database refuses it as it would have anyway.
            Err(_) => json,
        }
    }

    /// Text as this backend can store it: PostgreSQL's `text` cannot hold U+0000 either.
    pub fn storable_text(self, text: &str) -> String {
        match self {
            Backend::Postgres => text.replace('\0', "\u{fffd}"),
            Backend::Sqlite => text.to_owned(),
        }
    }

    /// `target` (JSON) with each path set to its text value.
    pub fn json_set(self, target: &str, values: &[(&str, &str)]) -> String {
        match self {
            Backend::Sqlite => {
                let pairs: Vec<String> = values.iter().map(|(path, value)| format!("'$.{path}', {value}")).collect();
                format!("json_set({target}, {})", pairs.join(", "))
            }
            Backend::Postgres => values.iter().fold(target.to_owned(), |json, (path, value)| {
                format!("jsonb_set({json}, '{{{}}}', to_jsonb(CAST({value} AS text)))", path.replace('.', ","))
            }),
        }
    }

    /// The operator matching a `LIKE` pattern regardless of case.
    pub const fn like_any_case(self) -> &'static str {
        match self {
            // SQLite's LIKE ignores the case of ASCII letters already.
            Backend::Sqlite => "LIKE",
            Backend::Postgres => "ILIKE",
        }
    }
}

/// How to reach the database.
#[derive(Clone, Debug)]
pub struct DatabaseSettings {
    /// `sqlite://<file>?mode=rwc` or `postgres://user:password@host:port/database` (TLS with
    /// `?sslmode=require` or `verify-full` and `sslrootcert=<file>`).
    pub url: String,
    pub max_connections: u32,
    /// How long a query waits for a connection (and the start for the first) before it fails.
    pub connect_timeout: Duration,
    /// PostgreSQL cancels a statement that runs longer (SQLite's statements wait at most five
    /// seconds for the write lock).
    pub statement_timeout: Duration,
}

impl DatabaseSettings {
    /// `url` with the defaults: eight connections, ten seconds to get one, statements cut off
    /// after 30 seconds.
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            max_connections: 8,
            connect_timeout: Duration::from_secs(10),
            statement_timeout: Duration::from_secs(30),
        }
    }
}

/// Opens (creating if needed) the database and migrates it to the newest schema.
pub async fn connect(url: &str) -> Result<Pool, sqlx::Error> {
    connect_with(&DatabaseSettings::new(url)).await
}

/// [`connect`] with settings.
pub async fn connect_with(settings: &DatabaseSettings) -> Result<Pool, sqlx::Error> {
    let backend = Backend::of_url(&settings.url).map_err(|message| sqlx::Error::Configuration(message.into()))?;
    install_default_drivers();
    let url = match backend {
        // A SQLite file is created when missing, unless the URL says otherwise (`mode=ro`).
        Backend::Sqlite if !settings.url.contains("mode=") => {
            format!("{}{}mode=rwc", settings.url, if settings.url.contains('?') { '&' } else { '?' })
        }
        _ => settings.url.clone(),
    };
    // One connection first, on its own: when the server cannot be reached the pool would only
    // say that it timed out, and this says why.
    match tokio::time::timeout(settings.connect_timeout, AnyConnection::connect(&url)).await {
        Ok(first) => first?.close().await?,
        Err(_) => return Err(sqlx::Error::PoolTimedOut),
    }
    let timeout_ms = settings.statement_timeout.as_millis();
    let pool = AnyPoolOptions::new()
        .max_connections(settings.max_connections)
        .acquire_timeout(settings.connect_timeout)
        // A SQLite connection is a file in this process: nothing drops it between uses, and the
        // check would be a round trip to its thread before every statement.
        .test_before_acquire(backend == Backend::Postgres)
        // A connection is never handed out inside a transaction: on SQLite its transaction
        // would hold the write lock (`begin` takes it at once) and no statement on it would be
        // committed. A dropped transaction's rollback is queued on its connection and flushed
        // when it goes back to the pool; one still in a transaction after that (its rollback
        // failed) is closed instead, which ends the transaction and frees its locks.
        .before_acquire(|connection, _| {
            Box::pin(async move {
                let clean = !connection.is_in_transaction();
                if !clean {
                    tracing::error!("a pooled database connection was still in a transaction; it is closed");
                }
                Ok(clean)
            })
        })
        .after_connect(move |connection, _| {
            Box::pin(async move {
                let setup = match backend {
                    // With WAL, NORMAL never corrupts the database; a power cut may lose the last commits.
                    Backend::Sqlite => "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                         PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;"
                        .to_owned(),
                    Backend::Postgres => format!("SET statement_timeout = {timeout_ms}; SET TIME ZONE 'UTC';"),
                };
                connection.execute(setup.as_str()).await.map(|_| ())
            })
        })
        .connect(&url)
        .await?;
    match backend {
        Backend::Sqlite => SQLITE_MIGRATIONS.run(&pool).await?,
        Backend::Postgres => POSTGRES_MIGRATIONS.run(&pool).await?,
    }
    Ok(pool)
}

/// Opens a transaction that writes. On SQLite it takes the write lock at once (`BEGIN
/// IMMEDIATE`): a deferred transaction that reads first and writes after another connection's
/// commit fails with "database is locked" (`SQLITE_BUSY_SNAPSHOT`) however long it would wait,
/// while an immediate one waits its turn under the busy timeout.
///
/// The begin runs in a task of its own. sqlx 0.8 awaits once more after the database began the
/// transaction and before its `Transaction` exists: a caller dropped there (a request whose
/// client went away) would leave the transaction open on a pooled connection, holding SQLite's
/// write lock. In its own task the begin always finishes, and a transaction no one takes is
/// dropped, which rolls it back.
#[allow(clippy::disallowed_methods)] // the one place that may call `Pool::begin`
pub async fn begin(pool: &Pool) -> Result<Tx<'static>, sqlx::Error> {
    let pool = pool.clone();
    let begun = tokio::spawn(async move {
        match Backend::of(&pool) {
            Backend::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
            Backend::Postgres => pool.begin().await,
        }
    });
    begun.await.map_err(|err| sqlx::Error::Io(std::io::Error::other(err)))?
}

/// `$first, $first+1, …`: one placeholder for each of `count` values, numbered from `first`.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count).map(|at| format!("${at}")).collect::<Vec<_>>().join(", ")
}

/// A pool for code that needs one but never queries it: an in-memory SQLite, opened on first use.
pub fn detached() -> Result<Pool, sqlx::Error> {
    install_default_drivers();
    Pool::connect_lazy("sqlite::memory:")
}

/// Sends `payload` on the PostgreSQL channel `channel`, to every connection that listens.
pub async fn notify(pool: &Pool, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
    // pg_notify returns void, which the Any driver cannot carry: select a constant instead.
    sqlx::query("SELECT 1 FROM pg_notify($1, $2)").bind(channel).bind(payload).execute(pool).await.map(|_| ())
}

/// Whether the database answers.
pub async fn ping(pool: &Pool) -> Result<(), sqlx::Error> {
    pool.acquire().await?.ping().await
}

/// The database a test or benchmark runs on: a fresh SQLite file in `dir`, or, when
/// `PALAVER_TEST_POSTGRES_URL` names a PostgreSQL server (scripts/test.sh starts one), a fresh
/// database on that server. This one switch runs every storage test on either backend.
pub async fn scratch_url(dir: &std::path::Path) -> Result<String, sqlx::Error> {
    let server = std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default();
    if server.is_empty() {
        return Ok(format!("sqlite://{}?mode=rwc", dir.join("palaver.db").display()));
    }
    let name = format!("palaver_{}", new_id());
    let mut admin = sqlx::postgres::PgConnection::connect(&server).await?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await?;
    admin.close().await?;
    let mut url = url::Url::parse(&server).map_err(|err| sqlx::Error::Configuration(err.into()))?;
    url.set_path(&name);
    Ok(url.to_string())
}

/// `url` without its password, for messages and logs.
pub fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use sqlx::SqlitePool;
    use sqlx::sqlite::SqliteConnectOptions;

    use super::*;

    #[test]
    fn a_nul_in_json_is_kept_on_sqlite_and_replaced_for_postgres() {
        let json = serde_json::json!({"text": "a\u{0}b", "k\u{0}": ["\u{0}"], "literal": "\\u0000"}).to_string();
        assert_eq!(Backend::Sqlite.storable_json(json.clone()), json);
        let stored: serde_json::Value = serde_json::from_str(&Backend::Postgres.storable_json(json)).unwrap();
        assert_eq!(
            stored,
            serde_json::json!({"text": "a\u{fffd}b", "k\u{fffd}": ["\u{fffd}"], "literal": "\\u0000"}),
            "a backslash and u0000 typed as text stay"
        );
    }

    #[test]
    fn only_sqlite_and_postgres_urls_are_taken() {
        assert_eq!(Backend::of_url("sqlite://data/palaver.db?mode=rwc"), Ok(Backend::Sqlite));
        assert_eq!(Backend::of_url("sqlite::memory:"), Ok(Backend::Sqlite));
        assert_eq!(Backend::of_url("postgres://palaver@db/palaver"), Ok(Backend::Postgres));
        assert_eq!(Backend::of_url("postgresql://palaver@db/palaver"), Ok(Backend::Postgres));
        let refused = Backend::of_url("mysql://root:hunter2@db/palaver").unwrap_err();
        assert!(refused.contains("sqlite://") && refused.contains("postgres://"), "{refused}");
        assert!(!refused.contains("hunter2"), "the password stays out of the message: {refused}");
        assert!(Backend::of_url("data/palaver.db").is_err(), "a bare path is not taken for a SQLite file");
    }

    #[tokio::test]
    async fn a_sqlite_file_is_created_when_missing_unless_the_url_says_read_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fresh.db");
        connect(&format!("sqlite://{}", path.display())).await.unwrap();
        assert!(path.exists());
        let read_only = dir.path().join("absent.db");
        assert!(connect(&format!("sqlite://{}?mode=ro", read_only.display())).await.is_err());
        assert!(!read_only.exists());
    }

    /// The columns of every table Palaver made, as `table.column`, sorted.
    async fn columns(pool: &Pool) -> Vec<String> {
        let sql = match Backend::of(pool) {
            // SQLite's search index (`history_search*`, FTS5 and its own tables) is a trigram
            // index on the rows on PostgreSQL.
            Backend::Sqlite => {
                "SELECT m.name || '.' || p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '_sqlx_migrations'
                   AND m.name NOT LIKE 'history\\_search%' ESCAPE '\\'"
            }
            Backend::Postgres => {
                "SELECT CAST(table_name || '.' || column_name AS TEXT) FROM information_schema.columns
                 WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'"
            }
        };
        let mut columns: Vec<String> = sqlx::query_scalar(sql).fetch_all(pool).await.unwrap();
        columns.sort();
        columns
    }

    #[tokio::test]
    async fn both_backends_have_the_same_tables_and_columns() {
        if std::env::var("PALAVER_TEST_POSTGRES_URL").unwrap_or_default().is_empty() {
            eprintln!("skipped: needs PostgreSQL (PALAVER_TEST_POSTGRES_URL)");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let postgres = connect(&scratch_url(dir.path()).await.unwrap()).await.unwrap();
        let sqlite = connect(&format!("sqlite://{}", dir.path().join("parity.db").display())).await.unwrap();
        let (on_postgres, on_sqlite) = (columns(&postgres).await, columns(&sqlite).await);
        assert!(on_sqlite.len() > 60, "{on_sqlite:?}");
        assert_eq!(on_postgres, on_sqlite);
    }

    /// The test server's URL and the CA of its certificate, when the test run has them.
    fn test_server() -> Option<(String, String)> {
        let server = std::env::var("PALAVER_TEST_POSTGRES_URL").ok().filter(|url| !url.is_empty());
        let ca = std::env::var("PALAVER_TEST_POSTGRES_CA").ok().filter(|ca| !ca.is_empty());
        let found = server.zip(ca);
        if found.is_none() {
            eprintln!("skipped: needs PostgreSQL with TLS (PALAVER_TEST_POSTGRES_URL, PALAVER_TEST_POSTGRES_CA)");
        }
        found
    }

    #[tokio::test]
    async fn postgres_over_tls_checks_the_servers_certificate() {
        let Some((_, ca)) = test_server() else { return };
        let dir = tempfile::tempdir().unwrap();
        let plain = scratch_url(dir.path()).await.unwrap();
        let verified = plain.replace("sslmode=disable", &format!("sslmode=verify-full&sslrootcert={ca}"));
        let pool = connect(&verified).await.unwrap();
        let (ssl,): (String,) =
            sqlx::query_as("SELECT CAST(ssl AS TEXT) FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(ssl, "true", "the connection is encrypted");
        // The machine's own CAs never signed the test server's certificate.
        let other_ca =
            plain.replace("sslmode=disable", "sslmode=verify-full&sslrootcert=/etc/ssl/certs/ca-certificates.crt");
        assert!(connect(&other_ca).await.is_err(), "a certificate that does not verify is refused");
    }

    #[tokio::test]
    async fn postgres_cuts_off_a_statement_that_runs_past_the_timeout() {
        let Some(_) = test_server() else { return };
        let dir = tempfile::tempdir().unwrap();
        let settings = DatabaseSettings {
            statement_timeout: Duration::from_millis(300),
            ..DatabaseSettings::new(scratch_url(dir.path()).await.unwrap())
        };
        let pool = connect_with(&settings).await.unwrap();
        let slow = sqlx::query("SELECT 1 FROM pg_sleep(3)").execute(&pool).await.unwrap_err();
        assert!(slow.to_string().contains("statement timeout"), "{slow}");
    }

    /// A database migrated up to `last` (a migration's file name), as an older Palaver left it.
    async fn migrated_up_to(dir: &std::path::Path, last: &str) -> SqlitePool {
        let sources = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/sqlite");
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
        SQLITE_MIGRATIONS.run(&pool).await.unwrap();

        let payloads: Vec<String> =
            sqlx::query_scalar("SELECT payload FROM history_rows ORDER BY seq").fetch_all(&pool).await.unwrap();
        let moved: serde_json::Value = serde_json::from_str(&payloads[0]).unwrap();
        assert_eq!(moved["text"], document);
        assert_eq!(moved["blockErrors"], errors);
        assert_eq!(payloads[1], rows[1].to_string(), "a reply that is not a document keeps its text");
    }

    #[tokio::test]
    async fn older_ask_rows_are_keyed_by_their_id_and_of_two_sharing_one_only_the_newer() {
        let dir = tempfile::tempdir().unwrap();
        let pool = migrated_up_to(dir.path(), "0017_ratings.sql").await;
        sqlx::query("INSERT INTO histories (id) VALUES ('h')").execute(&pool).await.unwrap();
        let rows = [
            ("tool-call", Some("choice"), "call_plan"),
            ("tool-result", None, "call_plan"),
            ("tool-call", Some("choice"), "call_plan"),
            ("tool-call", None, "call_host"),
            ("tool-call", Some("confirm"), "approval_call_host"),
        ];
        for (seq, (row_type, ask_kind, id)) in rows.into_iter().enumerate() {
            let payload = serde_json::json!({"type": row_type, "toolCallId": id});
            sqlx::query(
                "INSERT INTO history_rows (history_id, seq, turn_id, row_type, payload, ask_kind)
                 VALUES ('h', ?, 't', ?, ?, ?)",
            )
            .bind(seq as i64)
            .bind(row_type)
            .bind(payload.to_string())
            .bind(ask_kind)
            .execute(&pool)
            .await
            .unwrap();
        }
        SQLITE_MIGRATIONS.run(&pool).await.unwrap();

        let keys: Vec<Option<String>> =
            sqlx::query_scalar("SELECT ask_id FROM history_rows ORDER BY seq").fetch_all(&pool).await.unwrap();
        let keys: Vec<Option<&str>> = keys.iter().map(Option::as_deref).collect();
        assert_eq!(keys, [None, None, Some("call_plan"), None, Some("approval_call_host")]);
        let twice = sqlx::query("UPDATE history_rows SET ask_id = 'call_plan' WHERE seq = 0").execute(&pool).await;
        assert!(twice.is_err(), "an ask id is unique in its conversation");
    }
}
