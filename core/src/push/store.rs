//! The push tables (migration 0029): the VAPID key, subscriptions, tabs' presence and the asks
//! a push went out for (the answer capabilities are `crate::answer_links`').

use crate::db::{Backend, Pool, Tx};
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

/// Whether anyone on this server has a device to push to.
pub async fn any_subscription(pool: &Pool) -> AppResult<bool> {
    let (any,): (i64,) = sqlx::query_as("SELECT CASE WHEN EXISTS (SELECT 1 FROM push_subscriptions) THEN 1 ELSE 0 END")
        .fetch_one(pool)
        .await?;
    Ok(any == 1)
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
    let mut tx = crate::db::begin(pool).await?;
    let removed = sqlx::query("DELETE FROM push_subscriptions WHERE id = $2 AND user_id = $1")
        .bind(user_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    forget_notified_if_deviceless(&mut tx, user_id).await?;
    tx.commit().await?;
    Ok(removed.rows_affected() == 1)
}

/// Removes a subscription whose push service said it is gone; returns its owner (`None`: it
/// was gone already).
pub async fn forget_subscription(pool: &Pool, id: &str) -> AppResult<Option<String>> {
    let mut tx = crate::db::begin(pool).await?;
    let owner: Option<(String,)> = sqlx::query_as("DELETE FROM push_subscriptions WHERE id = $1 RETURNING user_id")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    if let Some((owner,)) = &owner {
        forget_notified_if_deviceless(&mut tx, owner).await?;
    }
    tx.commit().await?;
    Ok(owner.map(|(owner,)| owner))
}

/// Once a user has no device left, the records of the pushes they were sent go: the "closed"
/// push they wait for has nowhere to go, and an ask's ending reads them only while someone on
/// the server has a device.
async fn forget_notified_if_deviceless(tx: &mut Tx<'_>, user_id: &str) -> AppResult<()> {
    sqlx::query(
        "DELETE FROM push_notified_asks
         WHERE user_id = $1 AND NOT EXISTS (SELECT 1 FROM push_subscriptions WHERE user_id = $1)",
    )
    .bind(user_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Records what a tab shows, for [`PRESENCE_SECONDS`]; drops the user's lapsed presences.
pub async fn set_presence(pool: &Pool, user_id: &str, tab_id: &str, history_id: Option<&str>) -> AppResult<()> {
    let backend = Backend::of(pool);
    let (until, now) = (backend.seconds_from_now(&PRESENCE_SECONDS.to_string()), backend.now());
    let mut tx = crate::db::begin(pool).await?;
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

/// The title of the conversation and the seconds left until `expires_at` (when given), or
/// `None` when the conversation is deleted.
pub async fn ask_context(
    pool: &Pool,
    history_id: &str,
    expires_at: Option<&str>,
) -> AppResult<Option<(Option<String>, Option<i64>)>> {
    let seconds_left = match Backend::of(pool) {
        Backend::Sqlite => "CAST(ROUND((julianday($2) - julianday('now')) * 86400) AS INTEGER)",
        Backend::Postgres => "CAST(ROUND(EXTRACT(EPOCH FROM (CAST($2 AS timestamptz) - now()))) AS BIGINT)",
    };
    let row: Option<(Option<String>, Option<i64>)> =
        sqlx::query_as(&format!("SELECT title, {seconds_left} FROM histories WHERE id = $1 AND deleted_at IS NULL"))
            .bind(history_id)
            .bind(expires_at)
            .fetch_optional(pool)
            .await?;
    Ok(row)
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
