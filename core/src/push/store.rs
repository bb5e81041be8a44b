//! The push tables (migration 0029): the VAPID key, subscriptions, tabs' presence, answer
//! capabilities (by their hash) and the asks a push went out for.

use crate::db::{Backend, Pool};
use crate::error::AppResult;
use palaver_wire::push::PRESENCE_SECONDS;

/// A subscription as stored: where to send, and the keys to encrypt for.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub id: String,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub name: String,
    pub created_at: String,
}

/// An answer capability as stored, with whether it was used and whether its ask's deadline
/// has passed (each 0 or 1).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct TokenRow {
    pub token_hash: String,
    pub user_id: String,
    pub history_id: String,
    pub tool_call_id: String,
    pub button_id: String,
    pub used: i32,
    pub past_deadline: i32,
}

pub async fn vapid_key(pool: &Pool) -> AppResult<Option<String>> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT private_key FROM push_vapid_keys WHERE id = 1").fetch_optional(pool).await?;
    Ok(row.map(|(key,)| key))
}

/// Stores `private_key` unless an instance stored one first (then that one is kept).
pub async fn offer_vapid_key(pool: &Pool, private_key: &str, public_key: &str) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO push_vapid_keys (id, private_key, public_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING",
    )
    .bind(private_key)
    .bind(public_key)
    .execute(pool)
    .await?;
    Ok(())
}

/// Stores a subscription; the same endpoint again (a browser subscribing anew) takes its
/// keys and name. Returns the subscription's id.
pub async fn save_subscription(pool: &Pool, user_id: &str, row: &SubscriptionRow) -> AppResult<String> {
    let (id,): (String,) = sqlx::query_as(
        "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, name) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id, endpoint) DO UPDATE
         SET p256dh = excluded.p256dh, auth = excluded.auth, name = excluded.name
         RETURNING id",
    )
    .bind(&row.id)
    .bind(user_id)
    .bind(&row.endpoint)
    .bind(&row.p256dh)
    .bind(&row.auth)
    .bind(&row.name)
    .fetch_one(pool)
    .await?;
    Ok(id)
}

pub async fn subscriptions_of(pool: &Pool, user_id: &str) -> AppResult<Vec<SubscriptionRow>> {
    Ok(sqlx::query_as(
        "SELECT id, endpoint, p256dh, auth, name, created_at FROM push_subscriptions
         WHERE user_id = $1 ORDER BY created_at, id",
    )
    .bind(user_id)
    .fetch_all(pool)
    .await?)
}

/// Renames one of the user's subscriptions; false when they have none by that id.
pub async fn rename_subscription(pool: &Pool, user_id: &str, id: &str, name: &str) -> AppResult<bool> {
    let renamed = sqlx::query("UPDATE push_subscriptions SET name = $3 WHERE id = $2 AND user_id = $1")
        .bind(user_id)
        .bind(id)
        .bind(name)
        .execute(pool)
        .await?;
    Ok(renamed.rows_affected() == 1)
}

/// Removes one of the user's subscriptions; false when they have none by that id.
pub async fn remove_subscription(pool: &Pool, user_id: &str, id: &str) -> AppResult<bool> {
    let removed = sqlx::query("DELETE FROM push_subscriptions WHERE id = $2 AND user_id = $1")
        .bind(user_id)
        .bind(id)
        .execute(pool)
        .await?;
    Ok(removed.rows_affected() == 1)
}

/// Removes a subscription whose push service said it is gone.
pub async fn forget_subscription(pool: &Pool, id: &str) -> AppResult<()> {
    sqlx::query("DELETE FROM push_subscriptions WHERE id = $1").bind(id).execute(pool).await?;
    Ok(())
}

/// Records what a tab shows, for [`PRESENCE_SECONDS`]; drops the user's lapsed presences.
pub async fn set_presence(pool: &Pool, user_id: &str, tab_id: &str, history_id: Option<&str>) -> AppResult<()> {
    let backend = Backend::of(pool);
    let (until, now) = (backend.seconds_from_now(&PRESENCE_SECONDS.to_string()), backend.now());
    let mut tx = pool.begin().await?;
    sqlx::query(&format!("DELETE FROM push_presence WHERE user_id = $1 AND expires_at <= {now}"))
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(&format!(
        "INSERT INTO push_presence (user_id, tab_id, history_id, expires_at) VALUES ($1, $2, $3, {until})
         ON CONFLICT (user_id, tab_id) DO UPDATE SET history_id = excluded.history_id, expires_at = excluded.expires_at"
    ))
    .bind(user_id)
    .bind(tab_id)
    .bind(history_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether a tab of the user shows the conversation and is visible, as last told.
pub async fn shown_in_a_tab(pool: &Pool, user_id: &str, history_id: &str) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let row: Option<(i32,)> = sqlx::query_as(&format!(
        "SELECT 1 FROM push_presence WHERE user_id = $1 AND history_id = $2 AND expires_at > {now} LIMIT 1"
    ))
    .bind(user_id)
    .bind(history_id)
    .fetch_optional(pool)
    .await?;
    Ok(row.is_some())
}

/// The title of the user's conversation and the seconds left until `expires_at` (when given),
/// or `None` when the conversation is not theirs or is deleted.
pub async fn ask_context(
    pool: &Pool,
    user_id: &str,
    history_id: &str,
    expires_at: Option<&str>,
) -> AppResult<Option<(Option<String>, Option<i64>)>> {
    let seconds_left = match Backend::of(pool) {
        Backend::Sqlite => "CAST(ROUND((julianday($3) - julianday('now')) * 86400) AS INTEGER)",
        Backend::Postgres => "CAST(ROUND(EXTRACT(EPOCH FROM (CAST($3 AS timestamptz) - now()))) AS BIGINT)",
    };
    let row: Option<(Option<String>, Option<i64>)> = sqlx::query_as(&format!(
        "SELECT title, {seconds_left} FROM histories WHERE id = $2 AND owner_id = $1 AND deleted_at IS NULL"
    ))
    .bind(user_id)
    .bind(history_id)
    .bind(expires_at)
    .fetch_optional(pool)
    .await?;
    Ok(row)
}

/// Stores an ask's answer capabilities (`(hash, button id)`), valid until `expires_at`.
pub async fn store_tokens(
    pool: &Pool,
    user_id: &str,
    history_id: &str,
    tool_call_id: &str,
    expires_at: &str,
    tokens: &[(String, String)],
) -> AppResult<()> {
    let mut tx = pool.begin().await?;
    for (hash, button_id) in tokens {
        sqlx::query(
            "INSERT INTO push_answer_tokens (token_hash, user_id, history_id, tool_call_id, button_id, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(hash)
        .bind(user_id)
        .bind(history_id)
        .bind(tool_call_id)
        .bind(button_id)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

pub async fn token(pool: &Pool, hash: &str) -> AppResult<Option<TokenRow>> {
    let now = Backend::of(pool).now();
    Ok(sqlx::query_as(&format!(
        "SELECT token_hash, user_id, history_id, tool_call_id, button_id,
                CASE WHEN used_at IS NULL THEN 0 ELSE 1 END AS used,
                CASE WHEN expires_at <= {now} THEN 1 ELSE 0 END AS past_deadline
         FROM push_answer_tokens WHERE token_hash = $1"
    ))
    .bind(hash)
    .fetch_optional(pool)
    .await?)
}

/// Marks a capability used; false when it was already (a racing second use).
pub async fn use_token(pool: &Pool, hash: &str) -> AppResult<bool> {
    let now = Backend::of(pool).now();
    let used = sqlx::query(&format!(
        "UPDATE push_answer_tokens SET used_at = {now} WHERE token_hash = $1 AND used_at IS NULL"
    ))
    .bind(hash)
    .execute(pool)
    .await?;
    Ok(used.rows_affected() == 1)
}

/// Gives a capability back after its answer failed for a reason of the server's own.
pub async fn release_token(pool: &Pool, hash: &str) -> AppResult<()> {
    sqlx::query("UPDATE push_answer_tokens SET used_at = NULL WHERE token_hash = $1").bind(hash).execute(pool).await?;
    Ok(())
}

/// Drops the capabilities whose asks ended a day ago or more.
pub async fn prune_tokens(pool: &Pool) -> AppResult<()> {
    let day_ago = Backend::of(pool).seconds_from_now("-86400");
    sqlx::query(&format!("DELETE FROM push_answer_tokens WHERE expires_at <= {day_ago}")).execute(pool).await?;
    Ok(())
}

/// Records that a push went out for the ask (again, for an ask pending once more).
pub async fn mark_notified(pool: &Pool, user_id: &str, history_id: &str, tool_call_id: &str) -> AppResult<()> {
    sqlx::query(
        "INSERT INTO push_notified_asks (history_id, tool_call_id, user_id) VALUES ($1, $2, $3)
         ON CONFLICT (history_id, tool_call_id, user_id) DO NOTHING",
    )
    .bind(history_id)
    .bind(tool_call_id)
    .bind(user_id)
    .execute(pool)
    .await?;
    Ok(())
}

/// Takes the records of the pushes for the ask: the users notified, for the one caller that
/// took them (none for any other).
pub async fn take_notified(pool: &Pool, history_id: &str, tool_call_id: &str) -> AppResult<Vec<String>> {
    let taken: Vec<(String,)> =
        sqlx::query_as("DELETE FROM push_notified_asks WHERE history_id = $1 AND tool_call_id = $2 RETURNING user_id")
            .bind(history_id)
            .bind(tool_call_id)
            .fetch_all(pool)
            .await?;
    Ok(taken.into_iter().map(|(user_id,)| user_id).collect())
}

/// The enabled admins, but `except` (the person who asked).
pub async fn admins_but(pool: &Pool, except: &str) -> AppResult<Vec<String>> {
    let admins: Vec<(String,)> =
        sqlx::query_as("SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL AND id <> $1 ORDER BY id")
            .bind(except)
            .fetch_all(pool)
            .await?;
    Ok(admins.into_iter().map(|(id,)| id).collect())
}
