//! The live events' table: each event stored once, read back by every instance that delivers
//! it and by clients that come back with the id they last saw. `seq` orders the events and
//! names them between instances; clients see only each event's random `public_id`, which
//! tells nothing of anyone else's events.

use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// A stored event: its sequence number, its public id and its JSON.
pub type StoredEvent = (i64, String, String);

/// Stores events of `user_id` in one statement, each `(public id, JSON)`; their sequence
/// numbers, in the same order.
pub async fn insert(pool: &Pool, user_id: &str, events: &[(String, String)]) -> AppResult<Vec<i64>> {
    let backend = Backend::of(pool);
    let values: Vec<String> = (0..events.len())
        .map(|event| format!("(${}, $1, {})", 2 + 2 * event, backend.json(&format!("${}", 3 + 2 * event))))
        .collect();
    let sql = format!(
        "INSERT INTO live_events (public_id, user_id, event) VALUES {} RETURNING public_id, seq",
        values.join(", ")
    );
    let mut insert = sqlx::query_as::<_, (String, i64)>(&sql).bind(user_id);
    for (public_id, json) in events {
        insert = insert.bind(public_id).bind(backend.storable_json(json.clone()));
    }
    let numbered: std::collections::HashMap<String, i64> = insert.fetch_all(pool).await?.into_iter().collect();
    Ok(events.iter().filter_map(|(public_id, _)| numbered.get(public_id).copied()).collect())
}

/// The event `seq`, as `(public id, event JSON)`.
pub async fn event(pool: &Pool, seq: i64) -> AppResult<Option<(String, String)>> {
    Ok(sqlx::query_as("SELECT public_id, CAST(event AS TEXT) FROM live_events WHERE seq = $1")
        .bind(seq)
        .fetch_optional(pool)
        .await?)
}

/// The events of `user_id` after the one whose public id is `seen`, oldest first, at most
/// `limit`; `None` when `seen` is not an event of theirs that is still kept (pruned, or from
/// another database).
pub async fn after(pool: &Pool, user_id: &str, seen: &str, limit: i64) -> AppResult<Option<Vec<StoredEvent>>> {
    let kept: Option<(i64,)> = sqlx::query_as("SELECT seq FROM live_events WHERE public_id = $1 AND user_id = $2")
        .bind(seen)
        .bind(user_id)
        .fetch_optional(pool)
        .await?;
    let Some((seen_seq,)) = kept else { return Ok(None) };
    let events = sqlx::query_as(
        "SELECT seq, public_id, CAST(event AS TEXT) FROM live_events
         WHERE user_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
    )
    .bind(user_id)
    .bind(seen_seq)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok(Some(events))
}

/// Forgets the events older than `seconds`.
pub async fn prune(pool: &Pool, seconds: i64) -> AppResult<u64> {
    let cutoff = Backend::of(pool).seconds_from_now("$1");
    let pruned = sqlx::query(&format!("DELETE FROM live_events WHERE created_at < {cutoff}"))
        .bind(-seconds)
        .execute(pool)
        .await?;
    Ok(pruned.rows_affected())
}
