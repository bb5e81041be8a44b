//! With several instances, a running turn's stream crosses to the others through the database:
//! the instance that runs the turn writes its events in small batches (`turn_stream_events`)
//! and signals each batch; a client that attaches through another instance gets a replica of
//! the turn's log, filled from those rows as they come. With one instance nothing is written.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::store;
use super::turn_log::TurnLog;
use crate::db::Pool;
use crate::signals::{Channel, Signal, Signals};
use palaver_wire::conversation::model::TurnEvent;

/// Deltas that arrive this close together are written as one batch.
const BATCH_WINDOW: Duration = Duration::from_millis(40);

/// How long a finished turn's writer waits for the stream's `{done}` (sent just after the turn
/// is unregistered).
const LAST_EVENTS_WAIT: Duration = Duration::from_secs(2);

/// How often a replica looks whether its turn still runs when no batch arrives.
const FOLLOW_CHECK: Duration = Duration::from_secs(1);

/// Writes the events of `log` (the turn registered as `key`) while it runs: each stream it
/// streams (a turn resumed by the answer to a tool's question starts another), until shortly
/// after `finished` flips (the stream's `{done}` comes just after).
pub async fn write(pool: Pool, signals: Signals, key: String, log: Arc<TurnLog>, mut finished: watch::Receiver<bool>) {
    let mut changes = log.changes();
    let (mut stream_id, mut written) = (log.stream_id(), 0_usize);
    let mut deadline = None;
    loop {
        changes.borrow_and_update();
        let current = log.stream_id();
        if current != stream_id {
            if let Err(err) = store::set_running_stream(&pool, &key, &current).await {
                tracing::warn!(?err, "a resumed turn's new stream is not visible to other instances");
            }
            (stream_id, written) = (current, 0);
        }
        let Some((events, ended)) = log.since(&stream_id, written) else { continue };
        if !events.is_empty() {
            let json: Vec<String> = events.iter().filter_map(|event| serde_json::to_string(event).ok()).collect();
            let first = i64::try_from(written).unwrap_or(i64::MAX);
            match store::append_stream_events(&pool, &stream_id, first, &json).await {
                Ok(()) => {
                    written += events.len();
                    let _ = signals.send(Channel::Stream, &stream_id).await;
                }
                Err(err) => tracing::warn!(?err, "a turn's events were not written for other instances"),
            }
        }
        if *finished.borrow() {
            if ended {
                return;
            }
            deadline.get_or_insert_with(|| tokio::time::Instant::now() + LAST_EVENTS_WAIT);
        }
        let changed = match deadline {
            Some(deadline) => {
                tokio::time::timeout_at(deadline, changes.changed()).await.is_ok_and(|changed| changed.is_ok())
            }
            None => tokio::select! {
                changed = changes.changed() => changed.is_ok(),
                _ = finished.changed() => true,
            },
        };
        if !changed {
            return;
        }
        tokio::time::sleep(BATCH_WINDOW).await;
    }
}

/// A replica of the log of a turn whose stream is `stream_id`, running on another instance:
/// the events written so far, then the rest as they come (a task fills it); it ends with the
/// stream, or when the turn is gone.
pub async fn follow(pool: Pool, signals: &Signals, stream_id: String, prompt: Option<String>) -> Arc<TurnLog> {
    let replica = TurnLog::new(&stream_id, prompt);
    // Subscribed first, so no batch written from now on goes unheard.
    let heard = signals.subscribe();
    let have = fill_from(&pool, &stream_id, &replica, 0).await;
    if replica.is_streaming() {
        tokio::spawn(fill(pool, heard, stream_id, replica.clone(), have));
    }
    replica
}

/// Pushes the stream's stored events from number `have` on into the replica; the new count.
async fn fill_from(pool: &Pool, stream_id: &str, replica: &TurnLog, mut have: i64) -> i64 {
    match store::stream_events_from(pool, stream_id, have).await {
        Ok(events) => {
            for json in events {
                have += 1;
                match serde_json::from_str::<TurnEvent>(&json) {
                    Ok(event) => replica.push(&event),
                    Err(err) => tracing::warn!(%err, "an unreadable stream event skipped"),
                }
            }
        }
        Err(err) => tracing::warn!(?err, "a turn's events could not be read from the database"),
    }
    have
}

async fn fill(
    pool: Pool,
    mut signals: broadcast::Receiver<Signal>,
    stream_id: String,
    replica: Arc<TurnLog>,
    mut have: i64,
) {
    loop {
        let woken = tokio::time::timeout(FOLLOW_CHECK, async {
            loop {
                match signals.recv().await {
                    Ok(Signal { channel: Channel::Stream, payload }) if payload == stream_id => return true,
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => return true,
                    Err(broadcast::error::RecvError::Closed) => return false,
                }
            }
        })
        .await;
        match woken {
            Ok(false) => return replica.end(),
            // No batch for a while: the turn may be gone. It ended if its last events (written
            // just after its row goes) arrive in the writer's grace; else its instance died.
            Err(_) if !matches!(store::stream_is_running(&pool, &stream_id).await, Ok(true)) => {
                tokio::time::sleep(LAST_EVENTS_WAIT).await;
                fill_from(&pool, &stream_id, &replica, have).await;
                if replica.is_streaming() {
                    replica.push(&TurnEvent::Error {
                        error: "The reply was cut off: the server running it stopped.".into(),
                    });
                    replica.end();
                }
                return;
            }
            Ok(true) | Err(_) => {}
        }
        have = fill_from(&pool, &stream_id, &replica, have).await;
        if !replica.is_streaming() {
            return;
        }
    }
}
