//! Users, sessions and API tokens in the database.

use crate::db::{Backend, Pool, Tx};

use crate::db::new_id;
use crate::error::{AppError, AppResult, ResultExt};
use palaver_wire::accounts::{PasswordOutcome, Role, TokenSummary, UserView};

/// A user as read: id, username, role, created, disabled (0 or 1).
type UserRow = (String, String, String, String, i64);
/// The columns of a [`UserRow`].
const USER_COLUMNS: &str = "id, username, role, created_at, CASE WHEN disabled_at IS NULL THEN 0 ELSE 1 END";
/// A token as listed: id, name, created, last used, expires.
type TokenRow = (String, String, String, Option<String>, Option<String>);

fn user_view((id, username, role, created, disabled): UserRow) -> UserView {
    let role = if role == "admin" { Role::Admin } else { Role::User };
    UserView { id, username, role, created, disabled: disabled == 1 }
}

/// Creates a user. The first account ever created is an admin, whatever `role` says: the
/// check and the insert are one statement, so two first sign-ups cannot both become admin.
pub async fn create_user(pool: &Pool, username: &str, password_hash: &str, role: Role) -> AppResult<UserView> {
    let row: UserRow = sqlx::query_as(&format!(
        "INSERT INTO users (id, username, username_key, password_hash, role)
         VALUES ($1, $2, $3, $4, CASE WHEN EXISTS (SELECT 1 FROM users) THEN $5 ELSE 'admin' END)
         RETURNING {USER_COLUMNS}"
    ))
    .bind(new_id())
    .bind(username)
    .bind(username.to_lowercase())
    .bind(password_hash)
    .bind(role.as_str())
    .fetch_one(pool)
    .await
    .on_constraint(|| AppError::UsernameTaken)?;
    Ok(user_view(row))
}

pub async fn user_by_id(pool: &Pool, id: &str) -> AppResult<Option<UserView>> {
    let row: Option<UserRow> = sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?;
    Ok(row.map(user_view))
}

pub async fn has_users(pool: &Pool) -> AppResult<bool> {
    let (exists,): (i64,) =
        sqlx::query_as("SELECT CASE WHEN EXISTS (SELECT 1 FROM users) THEN 1 ELSE 0 END").fetch_one(pool).await?;
    Ok(exists == 1)
}

/// A user and their password hash, by username (any case).
pub async fn find_login(pool: &Pool, username: &str) -> AppResult<Option<(UserView, String)>> {
    let row: Option<(String, String, String, String, i64, String)> =
        sqlx::query_as(&format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE username_key = $1"))
            .bind(username.to_lowercase())
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(id, username, role, created, disabled, hash)| {
        (user_view((id, username, role, created, disabled)), hash)
    }))
}

/// Starts a session; with `end_others`, the user's other sessions end in the same transaction.
/// Returns how many ended.
pub async fn create_session(
    pool: &Pool,
    user_id: &str,
    secret_hash: &str,
    idle_seconds: i64,
    end_others: bool,
) -> AppResult<u64> {
    let expires = Backend::of(pool).seconds_from_now("$3");
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query(&format!("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES ($1, $2, {expires})"))
        .bind(secret_hash)
        .bind(user_id)
        .bind(idle_seconds)
        .execute(&mut *tx)
        .await?;
    let ended = if end_others { end_sessions_but(&mut tx, user_id, Some(secret_hash)).await? } else { 0 };
    tx.commit().await?;
    Ok(ended)
}

/// How often the use of a session or token is written: its sliding expiry and "last used"
/// move at most once a minute, so a busy client's requests only read.
const USE_RECORDED_EVERY_SECONDS: i64 = 60;

/// The user of a live session, sliding its expiry forward: sessions expire after inactivity,
/// and at the latest `max_seconds` after they began, however busy.
pub async fn touch_session(
    pool: &Pool,
    secret_hash: &str,
    idle_seconds: i64,
    max_seconds: i64,
) -> AppResult<Option<UserView>> {
    let backend = Backend::of(pool);
    let (now, oldest, recorded) = (backend.now(), backend.seconds_from_now("$2"), backend.seconds_from_now("$3"));
    let row: Option<(String, String, String, String, i64, i64)> = sqlx::query_as(&with_user(
        &format!(
            "SELECT user_id, CAST(CASE WHEN last_seen_at < {recorded} THEN 1 ELSE 0 END AS BIGINT) AS stale FROM sessions
             WHERE id_hash = $1 AND revoked_at IS NULL AND expires_at > {now} AND created_at > {oldest}"
        ),
        "credential.stale",
    ))
    .bind(secret_hash)
    .bind(-max_seconds)
    .bind(-USE_RECORDED_EVERY_SECONDS)
    .fetch_optional(pool)
    .await?;
    let Some((id, username, role, created, disabled, stale)) = row else { return Ok(None) };
    if stale == 1 {
        let expires = backend.seconds_from_now("$2");
        sqlx::query(&format!(
            "UPDATE sessions SET last_seen_at = {now}, expires_at = {expires} WHERE id_hash = $1 AND revoked_at IS NULL"
        ))
        .bind(secret_hash)
        .bind(idle_seconds)
        .execute(pool)
        .await?;
    }
    Ok(Some(user_view((id, username, role, created, disabled))).filter(|user| !user.disabled))
}

/// `credential` (a statement giving a live credential's `user_id` and more) with its user's
/// columns and then `more` of the credential's, in one statement.
fn with_user(credential: &str, more: &str) -> String {
    format!("SELECT {USER_COLUMNS}, {more} FROM users JOIN ({credential}) credential ON users.id = credential.user_id")
}

pub async fn revoke_session(pool: &Pool, secret_hash: &str) -> AppResult<()> {
    let now = Backend::of(pool).now();
    sqlx::query(&format!("UPDATE sessions SET revoked_at = {now} WHERE id_hash = $1"))
        .bind(secret_hash)
        .execute(pool)
        .await?;
    Ok(())
}

/// Sets a user's password hash, ends their sessions but `kept` (a session's secret hash) and,
/// with `revoke_tokens`, revokes their live API tokens; says how many of each. One
/// transaction: the new password never meets an old session, or a token it was meant to end.
pub async fn set_password(
    pool: &Pool,
    user_id: &str,
    password_hash: &str,
    kept: Option<&str>,
    revoke_tokens: bool,
) -> AppResult<PasswordOutcome> {
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(user_id)
        .bind(password_hash)
        .execute(&mut *tx)
        .await?;
    let sessions_ended = end_sessions_but(&mut tx, user_id, kept).await?;
    let tokens_revoked = if revoke_tokens { revoke_live_tokens(&mut tx, user_id).await? } else { 0 };
    tx.commit().await?;
    Ok(PasswordOutcome { sessions_ended, tokens_revoked })
}

/// Revokes a user's live (unrevoked, unexpired) API tokens; how many.
async fn revoke_live_tokens(tx: &mut Tx<'_>, user_id: &str) -> AppResult<u64> {
    let revoked = sqlx::query(&format!(
        "UPDATE api_tokens SET revoked_at = {now}
         WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > {now})",
        now = Backend::of_tx(tx).now()
    ))
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(revoked.rows_affected())
}

/// Ends a user's sessions but `kept` (a session's secret hash); how many ended.
async fn end_sessions_but(tx: &mut Tx<'_>, user_id: &str, kept: Option<&str>) -> AppResult<u64> {
    let ended = sqlx::query(&format!(
        "UPDATE sessions SET revoked_at = {}
         WHERE user_id = $1 AND revoked_at IS NULL AND ($2 IS NULL OR id_hash <> $2)",
        Backend::of_tx(tx).now()
    ))
    .bind(user_id)
    .bind(kept)
    .execute(&mut **tx)
    .await?;
    Ok(ended.rows_affected())
}

/// Stores a token that expires `lifetime_seconds` from now (never, without).
pub async fn create_token(
    pool: &Pool,
    user_id: &str,
    name: &str,
    secret_hash: &str,
    lifetime_seconds: Option<i64>,
) -> AppResult<String> {
    let id = new_id();
    // A NULL lifetime makes a NULL expiry on both backends.
    let expires = Backend::of(pool).seconds_from_now("$5");
    sqlx::query(&format!(
        "INSERT INTO api_tokens (id, user_id, name, token_hash, expires_at) VALUES ($1, $2, $3, $4, {expires})"
    ))
    .bind(&id)
    .bind(user_id)
    .bind(name)
    .bind(secret_hash)
    .bind(lifetime_seconds)
    .execute(pool)
    .await?;
    Ok(id)
}

/// The user of a live token and the token's name, recording that it was used.
pub async fn use_token(pool: &Pool, secret_hash: &str) -> AppResult<Option<(UserView, String)>> {
    let backend = Backend::of(pool);
    let (now, recorded) = (backend.now(), backend.seconds_from_now("$2"));
    let row: Option<(String, String, String, String, i64, String, i64)> = sqlx::query_as(&with_user(
        &format!(
            "SELECT user_id, name, CAST(CASE WHEN last_used_at IS NULL OR last_used_at < {recorded} THEN 1 ELSE 0 END AS BIGINT) AS stale
             FROM api_tokens
             WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > {now})"
        ),
        "credential.name, credential.stale",
    ))
    .bind(secret_hash)
    .bind(-USE_RECORDED_EVERY_SECONDS)
    .fetch_optional(pool)
    .await?;
    let Some((id, username, role, created, disabled, name, stale)) = row else { return Ok(None) };
    if stale == 1 {
        sqlx::query(&format!("UPDATE api_tokens SET last_used_at = {now} WHERE token_hash = $1"))
            .bind(secret_hash)
            .execute(pool)
            .await?;
    }
    Ok(Some(user_view((id, username, role, created, disabled))).filter(|user| !user.disabled).map(|user| (user, name)))
}

pub async fn list_tokens(pool: &Pool, user_id: &str) -> AppResult<Vec<TokenSummary>> {
    let rows: Vec<TokenRow> = sqlx::query_as(
        "SELECT id, name, created_at, last_used_at, expires_at FROM api_tokens
         WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id DESC",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(|(id, name, created, last_used, expires)| TokenSummary { id, name, created, last_used, expires })
        .collect())
}

/// Revokes one of the user's tokens; false when they have no live token with that id.
pub async fn revoke_token(pool: &Pool, user_id: &str, token_id: &str) -> AppResult<bool> {
    let result = sqlx::query(&format!(
        "UPDATE api_tokens SET revoked_at = {} WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
        Backend::of(pool).now()
    ))
    .bind(token_id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Disables or enables a user; disabling ends their sessions in the same transaction. An
/// admin is disabled only while another enabled admin remains (checked in the statement, so
/// two admins cannot disable each other at once). `None`: no such user; `Some(false)`: it
/// would leave no admin.
pub async fn set_disabled(pool: &Pool, user_id: &str, disabled: bool) -> AppResult<Option<bool>> {
    let now = Backend::of(pool).now();
    let mut tx = crate::db::begin(pool).await?;
    let changed = if disabled {
        sqlx::query(&format!(
            "UPDATE users SET disabled_at = COALESCE(disabled_at, {now})
             WHERE id = $1 AND (role <> 'admin' OR EXISTS (
                 SELECT 1 FROM users AS other
                 WHERE other.role = 'admin' AND other.disabled_at IS NULL AND other.id <> $1))"
        ))
        .bind(user_id)
        .execute(&mut *tx)
        .await?
    } else {
        sqlx::query("UPDATE users SET disabled_at = NULL WHERE id = $1").bind(user_id).execute(&mut *tx).await?
    };
    if changed.rows_affected() == 0 {
        let (exists,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM users WHERE id = $1").bind(user_id).fetch_one(&mut *tx).await?;
        return Ok((exists == 1).then_some(false));
    }
    if disabled {
        sqlx::query(&format!("UPDATE sessions SET revoked_at = {now} WHERE user_id = $1 AND revoked_at IS NULL"))
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(Some(true))
}

/// Whether other accounts exist but no enabled admin besides `user_id`: removing that account
/// would leave them without one.
pub async fn would_leave_others_without_admin(pool: &Pool, user_id: &str) -> AppResult<bool> {
    let (others, other_admins): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), COUNT(CASE WHEN role = 'admin' AND disabled_at IS NULL THEN 1 END)
         FROM users WHERE id <> $1",
    )
    .bind(user_id)
    .fetch_one(pool)
    .await?;
    Ok(others > 0 && other_admins == 0)
}

pub async fn list_users(pool: &Pool) -> AppResult<Vec<UserView>> {
    let rows: Vec<UserRow> =
        sqlx::query_as(&format!("SELECT {USER_COLUMNS} FROM users ORDER BY created_at")).fetch_all(pool).await?;
    Ok(rows.into_iter().map(user_view).collect())
}

/// How many failures `key` had after `since_ms`, and the oldest of them.
pub async fn failures_since(pool: &Pool, key: &str, since_ms: i64) -> AppResult<(i64, Option<i64>)> {
    Ok(sqlx::query_as("SELECT COUNT(*), MIN(at_ms) FROM login_failures WHERE key = $1 AND at_ms > $2")
        .bind(key)
        .bind(since_ms)
        .fetch_one(pool)
        .await?)
}

/// Records a failure of each key at `at_ms`, forgetting theirs from before `forget_before_ms`.
pub async fn record_failures(pool: &Pool, keys: &[String], at_ms: i64, forget_before_ms: i64) -> AppResult<()> {
    let mut tx = crate::db::begin(pool).await?;
    for key in keys {
        sqlx::query("DELETE FROM login_failures WHERE key = $1 AND at_ms <= $2")
            .bind(key)
            .bind(forget_before_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO login_failures (key, at_ms) VALUES ($1, $2)")
            .bind(key)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

pub async fn forget_failures(pool: &Pool, key: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM login_failures WHERE key = $1").bind(key).execute(pool).await?;
    Ok(())
}
