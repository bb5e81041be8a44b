//! The hub every live event passes through. An event is stored once (`live_events`) and
//! signalled to every instance; each instance's hub reads it back and broadcasts it to its own
//! connections, which keep their user's events. A client that comes back, to any instance,
//! gets what it missed from the table.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::store;
use crate::db::Pool;
use crate::error::AppResult;
use crate::signals::{Channel, Signal, Signals};
use palaver_wire::live::{LiveEvent, Resync};

/// How many of a user's newest events a reconnecting client can get back.
const MISSED_AT_MOST: i64 = 256;

/// How long events are kept for clients that come back.
const KEPT_SECONDS: i64 = 3600;

/// How many events a slow connection may fall behind before it is told to resync.
const CHANNEL_CAPACITY: usize = 1024;

/// The id of an event meant for everyone (a resync): no stored event has it, so a client
/// that comes back with it is told to resync again.
const EVERYONE_ID: &str = "0";

/// An event with its ids and whose it is; `user_id` is empty for one meant for everyone.
#[derive(Debug)]
pub struct Delivered {
    /// Its place among every user's events: it orders them, and is never shown.
    pub seq: i64,
    /// What its client sees as its id: random, so it tells nothing of other users' events.
    pub id: String,
    pub user_id: String,
    pub event: LiveEvent,
}

impl Delivered {
    pub fn is_for(&self, user_id: &str) -> bool {
        self.user_id.is_empty() || self.user_id == user_id
    }
}

/// The live events of every user. Cloning shares it.
#[derive(Clone)]
pub struct LiveHub {
    pool: Pool,
    signals: Signals,
    sender: broadcast::Sender<Arc<Delivered>>,
    /// Flips to true when Palaver shuts down: every event stream ends.
    closing: watch::Sender<bool>,
}

/// What a client missed since the id it last saw.
pub enum Missed {
    Events(Vec<Arc<Delivered>>),
    /// More than is kept, or an id this database never gave.
    TooMuch,
}

/// A new connection: what it missed, then every event as it happens.
pub struct Subscription {
    pub missed: Missed,
    pub live: broadcast::Receiver<Arc<Delivered>>,
}

impl LiveHub {
    /// A hub delivering the events signalled on `signals`; it prunes old events as it goes.
    pub fn new(pool: Pool, signals: Signals) -> Self {
        let (sender, _) = broadcast::channel(CHANNEL_CAPACITY);
        tokio::spawn(deliver(pool.clone(), signals.subscribe(), sender.clone()));
        Self { pool, signals, sender, closing: watch::channel(false).0 }
    }

    /// Ends every event stream (clients reconnect to whichever instance serves next).
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Resolves once the hub closes.
    pub fn closed(&self) -> impl std::future::Future<Output = ()> + Send + use<> {
        let mut closing = self.closing.subscribe();
        async move {
            let _ = closing.wait_for(|closed| *closed).await;
        }
    }

    /// Stores `event` for `user_id` and signals it to every instance. A failure is logged,
    /// not returned: a live event only saves a reload, and what it tells is stored already.
    pub async fn publish(&self, user_id: &str, event: LiveEvent) {
        if let Err(err) = self.try_publish(user_id, &event).await {
            tracing::warn!(?err, user = user_id, "a live event was not sent");
        }
    }

    async fn try_publish(&self, user_id: &str, event: &LiveEvent) -> AppResult<()> {
        let json = serde_json::to_string(event)?;
        let seq = store::insert(&self.pool, user_id, &json).await?;
        self.signals.send(Channel::Live, &seq.to_string()).await
    }

    /// Subscribes `user_id`; `last_seen` is the `Last-Event-ID` of a client that reconnects.
    /// An event can be both missed and live: the caller skips the live copy.
    pub async fn subscribe(&self, user_id: &str, last_seen: Option<&str>) -> Subscription {
        let live = self.sender.subscribe();
        let missed = match last_seen {
            None => Missed::Events(Vec::new()),
            Some(seen) => match store::after(&self.pool, user_id, seen, MISSED_AT_MOST + 1).await {
                Ok(Some(events)) if events.len() <= MISSED_AT_MOST as usize => Missed::Events(
                    events
                        .into_iter()
                        .filter_map(|(seq, id, json)| Some(Arc::new(delivered(seq, id, user_id.to_owned(), &json)?)))
                        .collect(),
                ),
                _ => Missed::TooMuch,
            },
        };
        Subscription { missed, live }
    }
}

fn delivered(seq: i64, id: String, user_id: String, json: &str) -> Option<Delivered> {
    match serde_json::from_str(json) {
        Ok(event) => Some(Delivered { seq, id, user_id, event }),
        Err(err) => {
            tracing::error!(%err, seq, "unreadable live event skipped");
            None
        }
    }
}

/// Reads back each event signalled and broadcasts it here, until the signals end or the pool
/// closes (Palaver shuts down); prunes the table once a minute.
async fn deliver(pool: Pool, mut signals: broadcast::Receiver<Signal>, sender: broadcast::Sender<Arc<Delivered>>) {
    let mut prune = tokio::time::interval(Duration::from_secs(60));
    let everyone = |event| Arc::new(Delivered { seq: 0, id: EVERYONE_ID.into(), user_id: String::new(), event });
    while !pool.is_closed() {
        let signal = tokio::select! {
            signal = signals.recv() => signal,
            _ = prune.tick() => {
                if let Err(err) = store::prune(&pool, KEPT_SECONDS).await {
                    tracing::warn!(?err, "old live events were not pruned");
                }
                continue;
            }
        };
        match signal {
            Ok(Signal { channel: Channel::Live, payload }) => {
                let Ok(seq) = payload.parse::<i64>() else { continue };
                match store::event(&pool, seq).await {
                    Ok(Some((user_id, id, json))) => {
                        if let Some(delivered) = delivered(seq, id, user_id, &json) {
                            let _ = sender.send(Arc::new(delivered));
                        }
                    }
                    Ok(None) => {}
                    Err(err) => {
                        tracing::warn!(?err, seq, "a live event could not be read back");
                        let _ = sender.send(everyone(LiveEvent::Resync(Resync {})));
                    }
                }
            }
            // What other instances sent meanwhile is lost: everyone loads again.
            Ok(Signal { channel: Channel::Reconnected, .. }) | Err(broadcast::error::RecvError::Lagged(_)) => {
                let _ = sender.send(everyone(LiveEvent::Resync(Resync {})));
            }
            Ok(Signal { channel: Channel::Stop | Channel::Stream, .. }) => {}
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_wire::live::HistoryRef;

    fn started(id: &str) -> LiveEvent {
        LiveEvent::TurnStarted(HistoryRef { history_id: id.into() })
    }

    fn ids(missed: Missed) -> Vec<String> {
        match missed {
            Missed::Events(events) => events.iter().map(|event| event.id.clone()).collect(),
            Missed::TooMuch => panic!("expected the missed events"),
        }
    }

    #[tokio::test]
    async fn a_client_that_comes_back_gets_what_it_missed_or_a_resync() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap();
        let hub = LiveHub::new(pool, Signals::local());
        let mut live = hub.sender.subscribe();
        hub.publish("ada", started("h1")).await;
        hub.publish("bob", started("h2")).await;
        hub.publish("ada", started("h3")).await;
        let first = live.recv().await.unwrap().id.clone();
        let bobs = live.recv().await.unwrap();
        assert_eq!((bobs.user_id.as_str(), bobs.event.history_id()), ("bob", Some("h2")), "delivered in order");
        let third = live.recv().await.unwrap().id.clone();

        let again = hub.subscribe("ada", Some(&first)).await;
        assert_eq!(ids(again.missed), [third], "ada's own, after the one she saw");
        assert_eq!(ids(hub.subscribe("ada", None).await.missed), Vec::<String>::new(), "a new client starts now");
        for unknown in [bobs.id.clone(), bobs.seq.to_string(), "999999".into(), "epoch.1".into(), EVERYONE_ID.into()] {
            let missed = hub.subscribe("ada", Some(&unknown)).await.missed;
            assert!(matches!(missed, Missed::TooMuch), "{unknown}: not one of ada's events");
        }
        for _ in 0..MISSED_AT_MOST {
            hub.publish("ada", LiveEvent::Resync(Resync {})).await;
        }
        let missed = hub.subscribe("ada", Some(&first)).await.missed;
        assert!(matches!(missed, Missed::TooMuch), "beyond what a client gets back");
    }

    #[tokio::test]
    async fn an_events_id_tells_nothing_of_other_users_events() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap();
        let hub = LiveHub::new(pool, Signals::local());
        let mut live = hub.sender.subscribe();
        hub.publish("ada", started("h1")).await;
        let before = live.recv().await.unwrap().id.clone();
        for history in ["h2", "h3", "h4"] {
            hub.publish("bob", started(history)).await;
            live.recv().await.unwrap();
        }
        hub.publish("ada", started("h5")).await;
        let after = live.recv().await.unwrap().id.clone();
        // A count would have skipped bob's three between ada's two: each id is random instead.
        for id in [&before, &after] {
            assert!(id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()), "not a count: {id}");
        }
        assert_ne!(before, after);
        assert_eq!(ids(hub.subscribe("ada", Some(&before)).await.missed), [after], "and still resumes");
    }
}
