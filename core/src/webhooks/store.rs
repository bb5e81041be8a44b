//! The webhook tables (migration 0032): each person's webhooks, and the outbox of deliveries.
//!
//! A delivery is claimed with one guarded `UPDATE`: it sets the lease only where none is held
//! (or the one held has lapsed), so of two instances claiming the same row one changes it and
//! the other changes nothing (PostgreSQL re-checks the condition on the row the first wrote;
//! SQLite runs writes one at a time). An instance that dies mid-delivery leaves a lease that
//! lapses, and the delivery is attempted again.

use crate::db::{Backend, Pool};
use crate::error::AppResult;
use palaver_wire::webhooks::PING;

/// A webhook as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct WebhookRow {
    pub id: String,
    pub user_id: String,
    pub url: String,
    pub description: String,
    /// Comma-separated event types.
    pub events: String,
    pub secret: String,
    pub enabled: i32,
    pub disabled_reason: Option<String>,
    pub created_at: String,
}

/// A delivery as its webhook's person sees it.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct DeliveryRow {
    pub id: String,
    pub event_id: String,
    pub event_type: String,
    pub status: String,
    pub attempts: i32,
    pub last_status: Option<i32>,
    pub last_error: Option<String>,
    pub next_attempt_at: String,
    pub created_at: String,
}

/// A delivery this instance claimed: what to post, where, signed with what. `attempts`
/// counts this attempt.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct ClaimedDelivery {
    pub id: String,
    pub webhook_id: String,
    pub event_type: String,
    pub payload: String,
    pub attempts: i32,
    pub url: String,
    pub secret: String,
}

/// A delivery to insert: one event for one webhook.
pub struct NewDelivery<'a> {
    pub id: String,
    pub webhook_id: &'a str,
    pub event_id: &'a str,
    pub event_type: &'a str,
    pub payload: &'a str,
}

const WEBHOOK_COLUMNS: &str = "id, user_id, url, description, events, secret, enabled, disabled_reason, created_at";

/// The database's clock now, as times are stored.
pub async fn now(pool: &Pool) -> AppResult<String> {
    let (now,): (String,) = sqlx::query_as(&format!("SELECT {}", Backend::of(pool).now())).fetch_one(pool).await?;
    Ok(now)
}

/// Inserts a webhook unless its person has `max` already; `false` then, and nothing is
/// written. Counted and inserted under a lock on the person's row, so two registrations at once
/// cannot both take the last place (PostgreSQL locks the row; SQLite runs writes one at a time).
pub async fn insert_webhook(pool: &Pool, row: &WebhookRow, max: i64) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query("UPDATE users SET id = id WHERE id = $1").bind(&row.user_id).execute(&mut *tx).await?;
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM webhooks WHERE user_id = $1")
        .bind(&row.user_id)
        .fetch_one(&mut *tx)
        .await?;
    if count >= max {
        return Ok(false);
    }
    sqlx::query(
        "INSERT INTO webhooks (id, user_id, url, description, events, secret, enabled)
         VALUES ($1, $2, $3, $4, $5, $6, 1)",
    )
    .bind(&row.id)
    .bind(&row.user_id)
    .bind(&row.url)
    .bind(&row.description)
    .bind(&row.events)
    .bind(&row.secret)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn webhooks_of(pool: &Pool, user_id: &str) -> AppResult<Vec<WebhookRow>> {
    Ok(sqlx::query_as(&format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE user_id = $1 ORDER BY created_at, id"))
        .bind(user_id)
        .fetch_all(pool)
        .await?)
}

/// One of the user's webhooks; `None` when they have none by that id.
pub async fn webhook(pool: &Pool, user_id: &str, id: &str) -> AppResult<Option<WebhookRow>> {
    Ok(sqlx::query_as(&format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = $2 AND user_id = $1"))
        .bind(user_id)
        .bind(id)
        .fetch_optional(pool)
        .await?)
}

/// Writes a webhook's URL, description and events, and whether it is enabled (enabling it
/// forgets why it was disabled and its run of failures).
pub async fn update_webhook(pool: &Pool, row: &WebhookRow) -> AppResult<()> {
    sqlx::query(
        "UPDATE webhooks SET url = $3, description = $4, events = $5, enabled = $6,
                disabled_reason = CASE WHEN $6 = 1 THEN NULL ELSE disabled_reason END,
                consecutive_failures = CASE WHEN $6 = 1 AND enabled = 0 THEN 0 ELSE consecutive_failures END
         WHERE id = $2 AND user_id = $1",
    )
    .bind(&row.user_id)
    .bind(&row.id)
    .bind(&row.url)
    .bind(&row.description)
    .bind(&row.events)
    .bind(row.enabled)
    .execute(pool)
    .await?;
    Ok(())
}

/// Replaces a webhook's secret; false when the user has no webhook by that id.
pub async fn set_secret(pool: &Pool, user_id: &str, id: &str, secret: &str) -> AppResult<bool> {
    let changed = sqlx::query("UPDATE webhooks SET secret = $3 WHERE id = $2 AND user_id = $1")
        .bind(user_id)
        .bind(id)
        .bind(secret)
        .execute(pool)
        .await?;
    Ok(changed.rows_affected() == 1)
}

/// Removes one of the user's webhooks and its deliveries; false when they have none by that id.
pub async fn remove_webhook(pool: &Pool, user_id: &str, id: &str) -> AppResult<bool> {
    let mut tx = crate::db::begin(pool).await?;
    let removed = sqlx::query("DELETE FROM webhooks WHERE id = $2 AND user_id = $1")
        .bind(user_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    if removed.rows_affected() != 1 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM webhook_deliveries WHERE webhook_id = $1").bind(id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// The user's enabled webhooks (their ids, and the events each wants).
pub async fn enabled_webhooks_of(pool: &Pool, user_id: &str) -> AppResult<Vec<(String, String)>> {
    Ok(sqlx::query_as("SELECT id, events FROM webhooks WHERE user_id = $1 AND enabled = 1 ORDER BY id")
        .bind(user_id)
        .fetch_all(pool)
        .await?)
}

/// Queues deliveries, due now; one already queued for the same event and webhook stays as it is.
/// An event is queued only for a webhook that is there and enabled (the list it was chosen from
/// may be a moment old); a ping for one that is there. On PostgreSQL the webhook's row is locked
/// against its removal until the insert commits (SQLite has one writer): a removal then finds the
/// delivery and takes it too.
pub async fn queue(pool: &Pool, deliveries: &[NewDelivery<'_>]) -> AppResult<()> {
    let backend = Backend::of(pool);
    let now = backend.now();
    let lock = if backend == Backend::Postgres { " FOR KEY SHARE" } else { "" };
    let mut tx = crate::db::begin(pool).await?;
    for delivery in deliveries {
        sqlx::query(&format!(
            "INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, payload, next_attempt_at)
             SELECT $1, $2, $3, $4, $5, {now}
             WHERE EXISTS (SELECT 1 FROM webhooks w WHERE w.id = $2 AND (w.enabled = 1 OR $4 = '{PING}'){lock})
             ON CONFLICT (event_id, webhook_id) DO NOTHING"
        ))
        .bind(&delivery.id)
        .bind(delivery.webhook_id)
        .bind(delivery.event_id)
        .bind(delivery.event_type)
        .bind(delivery.payload)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Claims the next due delivery of an enabled webhook for `lease_seconds`, counting the
/// attempt; `None` when no delivery is due or another instance claimed it first.
pub async fn claim_due(pool: &Pool, lease_seconds: i64) -> AppResult<Option<ClaimedDelivery>> {
    let backend = Backend::of(pool);
    let (now, until) = (backend.now(), backend.seconds_from_now(&lease_seconds.to_string()));
    let free = format!("(lease_until IS NULL OR lease_until <= {now})");
    let claimed: Option<(String,)> = sqlx::query_as(&format!(
        "UPDATE webhook_deliveries SET lease_until = {until}, attempts = attempts + 1
         WHERE id = (SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                     WHERE d.status = 'pending' AND w.enabled = 1 AND d.next_attempt_at <= {now}
                       AND (d.lease_until IS NULL OR d.lease_until <= {now})
                     ORDER BY d.next_attempt_at, d.id LIMIT 1)
           AND status = 'pending' AND {free}
         RETURNING id"
    ))
    .fetch_optional(pool)
    .await?;
    let Some((id,)) = claimed else { return Ok(None) };
    Ok(sqlx::query_as(
        "SELECT d.id, d.webhook_id, d.event_type, d.payload, d.attempts, w.url, w.secret
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = $1",
    )
    .bind(&id)
    .fetch_optional(pool)
    .await?)
}

/// Records a 2xx: the delivery is done, and its webhook's run of failures ends.
pub async fn delivered(pool: &Pool, claimed: &ClaimedDelivery, status: u16) -> AppResult<()> {
    let now = Backend::of(pool).now();
    let mut tx = crate::db::begin(pool).await?;
    sqlx::query(&format!(
        "UPDATE webhook_deliveries SET status = 'delivered', last_status = $2, last_error = NULL,
                lease_until = NULL, finished_at = {now} WHERE id = $1"
    ))
    .bind(&claimed.id)
    .bind(i32::from(status))
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE webhooks SET consecutive_failures = 0 WHERE id = $1")
        .bind(&claimed.webhook_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(())
}

/// What a failed attempt leaves.
pub struct Failure<'a> {
    pub status: Option<u16>,
    pub error: &'a str,
    /// Seconds until the next attempt; `None`: no more attempts (the delivery failed).
    pub retry_in: Option<f64>,
    /// Failures in a row at which the webhook is disabled.
    pub disable_after: i32,
}

/// Records a failed attempt: the delivery is due again later or has failed, and its webhook is
/// disabled once `disable_after` attempts in a row failed. Says so when it is disabled after
/// this attempt, however it came to be.
pub async fn failed(pool: &Pool, claimed: &ClaimedDelivery, failure: &Failure<'_>) -> AppResult<Option<Disabled>> {
    let backend = Backend::of(pool);
    let now = backend.now();
    let mut tx = crate::db::begin(pool).await?;
    let next = match failure.retry_in {
        Some(seconds) => {
            format!("status = 'pending', next_attempt_at = {}", backend.seconds_from_now(&format!("{seconds:.3}")))
        }
        None => format!("status = 'failed', finished_at = {now}"),
    };
    sqlx::query(&format!(
        "UPDATE webhook_deliveries SET {next}, last_status = $2, last_error = $3, lease_until = NULL WHERE id = $1"
    ))
    .bind(&claimed.id)
    .bind(failure.status.map(i32::from))
    .bind(failure.error)
    .execute(&mut *tx)
    .await?;
    let reason =
        format!("Disabled after {} failed attempts in a row; the last: {}", failure.disable_after, failure.error);
    let disabled: Option<(i32, i32, String)> = sqlx::query_as(
        "UPDATE webhooks SET consecutive_failures = consecutive_failures + 1,
                enabled = CASE WHEN consecutive_failures + 1 >= $2 THEN 0 ELSE enabled END,
                disabled_reason = CASE WHEN consecutive_failures + 1 >= $2 AND enabled = 1 THEN $3
                                       ELSE disabled_reason END
         WHERE id = $1
         RETURNING enabled, consecutive_failures, user_id",
    )
    .bind(&claimed.webhook_id)
    .bind(failure.disable_after)
    .bind(&reason)
    .fetch_optional(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(disabled
        .filter(|(enabled, ..)| *enabled == 0)
        .map(|(_, failures, owner)| Disabled { owner, by_this_attempt: failures == failure.disable_after }))
}

/// A webhook found disabled after a failed attempt.
pub struct Disabled {
    pub owner: String,
    /// This attempt was the last of the failures in a row that disabled it (not one racing it,
    /// nor one under way when its owner disabled it).
    pub by_this_attempt: bool,
}

/// The webhook's deliveries, newest first, at most `limit`.
pub async fn deliveries_of(pool: &Pool, webhook_id: &str, limit: i64) -> AppResult<Vec<DeliveryRow>> {
    Ok(sqlx::query_as(
        "SELECT id, event_id, event_type, status, attempts, last_status, last_error, next_attempt_at, created_at
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
    )
    .bind(webhook_id)
    .bind(limit)
    .fetch_all(pool)
    .await?)
}

/// Drops finished deliveries older than `keep_days`, and past the newest `keep_last` of each webhook.
pub async fn prune(pool: &Pool, keep_days: i64, keep_last: i64) -> AppResult<u64> {
    let cutoff = Backend::of(pool).seconds_from_now(&format!("-{}", keep_days * 86_400));
    let pruned = sqlx::query(&format!(
        "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND (created_at < {cutoff} OR id IN (
             SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY webhook_id ORDER BY created_at DESC, id DESC) AS n
                             FROM webhook_deliveries WHERE status <> 'pending') ranked
             WHERE n > $1))"
    ))
    .bind(keep_last)
    .execute(pool)
    .await?;
    Ok(pruned.rows_affected())
}

/// The title of the user's conversation (`None` inside: not named yet), or `None` when it is
/// not theirs or is deleted.
pub async fn conversation_title(pool: &Pool, user_id: &str, history_id: &str) -> AppResult<Option<Option<String>>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT title FROM histories WHERE id = $2 AND owner_id = $1 AND deleted_at IS NULL")
            .bind(user_id)
            .bind(history_id)
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(title,)| title))
}
