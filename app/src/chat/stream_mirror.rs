//! With several instances, a running turn's stream crosses to the others through the database:
//! the instance that runs the turn writes its events in small batches (`turn_stream_events`)
//! and signals each batch; a client that attaches through another instance gets a replica of
//! the turn's log, filled from those rows as they come. With one instance nothing is written.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::model::TurnEvent;
use super::store;
use super::turn_log::TurnLog;
use crate::db::Pool;
use crate::signals::{Channel, Signal, Signals};

/// Deltas that arrive this close together are written as one batch.
const BATCH_WINDOW: Duration = Duration::from_millis(40);

/// How long a finished turn's writer waits for the stream's `{done}` (sent just after the turn
/// is unregistered).
const LAST_EVENTS_WAIT: Duration = Duration::from_secs(2);

/// How often a replica looks whether its turn still runs when no batch arrives.
const FOLLOW_CHECK: Duration = Duration::from_secs(1);

/// Writes the events of `log` (the turn registered as `key`) until its stream ends, or
/// shortly after `finished` flips.
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
        if ended {
            return;
        }
        let wait = async {
            match deadline {
                Some(deadline) => tokio::time::timeout_at(deadline, changes.changed()).await.is_ok(),
                None => tokio::select! {
                    changed = changes.changed() => changed.is_ok(),
                    _ = finished.wait_for(|finished| *finished) => {
                        deadline = Some(tokio::time::Instant::now() + LAST_EVENTS_WAIT);
                        true
                    }
                },
            }
        };
        if !wait.await {
            return;
        }
        tokio::time::sleep(BATCH_WINDOW).await;
    }
}

/// A replica of the log of a turn whose stream is `stream_id`, running on another instance,
/// filled as its events are written; it ends with the stream, or when the turn is gone.
pub fn follow(pool: Pool, signals: &Signals, stream_id: String, prompt: Option<String>) -> Arc<TurnLog> {
    let replica = TurnLog::new(&stream_id, prompt);
    tokio::spawn(fill(pool, signals.subscribe(), stream_id, replica.clone()));
    replica
}

async fn fill(pool: Pool, mut signals: broadcast::Receiver<Signal>, stream_id: String, replica: Arc<TurnLog>) {
    let mut have = 0_i64;
    loop {
        match store::stream_events_from(&pool, &stream_id, have).await {
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
        if !replica.is_streaming() {
            return;
        }
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
        let running = || store::stream_is_running(&pool, &stream_id);
        match woken {
            Ok(true) => {}
            Ok(false) => return replica.end(),
            // No batch for a while: the turn may be gone (its instance died, or it ended just now).
            Err(_) if !matches!(running().await, Ok(true)) => {
                if let Ok(events) = store::stream_events_from(&pool, &stream_id, have).await {
                    for json in events {
                        if let Ok(event) = serde_json::from_str::<TurnEvent>(&json) {
                            replica.push(&event);
                        }
                    }
                }
                if replica.is_streaming() {
                    replica.push(&TurnEvent::Error {
                        error: "The reply was cut off: the server running it stopped.".into(),
                    });
                    replica.end();
                }
                return;
            }
            Err(_) => {}
        }
    }
}
