//! The hub every live event passes through. An event is stored once (`live_events`), handed at
//! once to its user's connections on this instance, and signalled to the other instances with
//! its user's id; an instance reads it back only when that user has a connection there. A client
//! that comes back, to any instance, gets what it missed from the table.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::channels::{Delivered, Membership, UserChannels};
use super::followers::{Followers, Following};
use super::store;
use crate::db::Pool;
use crate::error::AppResult;
use crate::signals::{Channel, Signal, Signals};
use palaver_wire::live::{LiveEvent, Resync};

/// How many of a user's newest events a reconnecting client can get back.
const MISSED_AT_MOST: i64 = 256;

/// How long events are kept for clients that come back.
const KEPT_SECONDS: i64 = 3600;

/// The id of an event meant for everyone (a resync): no stored event has it, so a client
/// that comes back with it is told to resync again.
const EVERYONE_ID: &str = "0";

/// The live events of every user. Cloning shares it.
#[derive(Clone)]
pub struct LiveHub {
    pool: Pool,
    signals: Signals,
    /// Names this instance in its signals, so it does not deliver its own events twice.
    instance: Arc<str>,
    channels: UserChannels,
    /// Flips to true when Palaver shuts down: every event stream ends.
    closing: watch::Sender<bool>,
    /// The services acting on the events published here, stored or not.
    followers: Followers,
}

/// What a client missed since the id it last saw.
pub enum Missed {
    Events(Vec<Arc<Delivered>>),
    /// More than is kept, or an id this database never gave.
    TooMuch,
}

/// A new connection: what it missed, then every event of its user as it happens.
pub struct Subscription {
    pub missed: Missed,
    pub live: Membership,
}

/// What a [`Channel::Live`] signal carries: `<instance> <seq> <user id>`.
fn live_signal(instance: &str, seq: i64, user_id: &str) -> String {
    format!("{instance} {seq} {user_id}")
}

fn read_live_signal(payload: &str) -> Option<(&str, i64, &str)> {
    let mut parts = payload.splitn(3, ' ');
    let instance = parts.next()?;
    let seq = parts.next()?.parse().ok()?;
    Some((instance, seq, parts.next()?))
}

impl LiveHub {
    /// A hub delivering the events signalled on `signals`; it prunes old events as it goes.
    pub fn new(pool: Pool, signals: Signals) -> Self {
        let instance: Arc<str> = uuid::Uuid::new_v4().simple().to_string().into();
        let channels = UserChannels::default();
        tokio::spawn(deliver(pool.clone(), signals.subscribe(), instance.clone(), channels.clone()));
        Self { pool, signals, instance, channels, closing: watch::channel(false).0, followers: Followers::default() }
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

    /// Stores `event` for `user_id`, hands it to their connections here and signals it to the
    /// other instances. A failure is logged, not returned: a live event only saves a reload,
    /// and what it tells is stored already.
    pub async fn publish(&self, user_id: &str, event: LiveEvent) {
        self.publish_all(user_id, vec![event]).await;
    }

    /// Publishes events of `user_id` that happened together, in order, stored at once.
    pub async fn publish_all(&self, user_id: &str, events: Vec<LiveEvent>) {
        if events.is_empty() {
            return;
        }
        self.followers.hand(user_id, &events);
        if let Err(err) = self.try_publish(user_id, events).await {
            tracing::warn!(?err, user = user_id, "live events were not sent");
        }
    }

    async fn try_publish(&self, user_id: &str, events: Vec<LiveEvent>) -> AppResult<()> {
        let stored = events
            .iter()
            .map(|event| Ok((uuid::Uuid::new_v4().simple().to_string(), serde_json::to_string(event)?)))
            .collect::<AppResult<Vec<_>>>()?;
        let numbers = store::insert(&self.pool, user_id, &stored).await?;
        for ((&seq, (id, _)), event) in numbers.iter().zip(stored).zip(events) {
            self.channels.send(user_id, Arc::new(Delivered { seq, id, event }));
        }
        if !self.signals.cross_instances() {
            return Ok(());
        }
        // Each is signalled even when one is not: the first failure is the one told.
        let mut failed = Ok(());
        for seq in numbers {
            let sent = self.signals.send(Channel::Live, &live_signal(&self.instance, seq, user_id)).await;
            failed = failed.and(sent);
        }
        failed
    }

    /// The events `wants` accepts among those published on this instance from now on (not those
    /// other instances publish), for the service `name`.
    pub fn follow(&self, name: &'static str, wants: fn(&LiveEvent) -> bool) -> Following {
        self.followers.follow(name, wants)
    }

    /// The signals this hub shares with the other instances.
    pub fn signals(&self) -> &Signals {
        &self.signals
    }

    /// Subscribes `user_id`; `last_seen` is the `Last-Event-ID` of a client that reconnects.
    /// An event can be both missed and live: the caller skips the live copy.
    pub async fn subscribe(&self, user_id: &str, last_seen: Option<&str>) -> Subscription {
        let live = self.channels.join(user_id);
        let missed = match last_seen {
            None => Missed::Events(Vec::new()),
            Some(seen) => match store::after(&self.pool, user_id, seen, MISSED_AT_MOST + 1).await {
                Ok(Some(events)) if events.len() <= MISSED_AT_MOST as usize => Missed::Events(
                    events
                        .into_iter()
                        .filter_map(|(seq, id, json)| Some(Arc::new(delivered(seq, id, &json)?)))
                        .collect(),
                ),
                _ => Missed::TooMuch,
            },
        };
        Subscription { missed, live }
    }

    /// How many users have a connection to this instance.
    #[cfg(test)]
    fn connected_users(&self) -> usize {
        self.channels.users()
    }
}

fn delivered(seq: i64, id: String, json: &str) -> Option<Delivered> {
    match serde_json::from_str(json) {
        Ok(event) => Some(Delivered { seq, id, event }),
        Err(err) => {
            tracing::error!(%err, seq, "unreadable live event skipped");
            None
        }
    }
}

/// Delivers here the events other instances signal, reading back only those of users connected
/// here, until the signals end or the pool closes (Palaver shuts down); prunes the table once a
/// minute.
async fn deliver(pool: Pool, mut signals: broadcast::Receiver<Signal>, instance: Arc<str>, channels: UserChannels) {
    let mut prune = tokio::time::interval(Duration::from_secs(60));
    let everyone = |event| Arc::new(Delivered { seq: 0, id: EVERYONE_ID.into(), event });
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
                let Some((sender, seq, user_id)) = read_live_signal(&payload) else { continue };
                if sender == &*instance || !channels.has(user_id) {
                    continue;
                }
                match store::event(&pool, seq).await {
                    Ok(Some((id, json))) => {
                        if let Some(delivered) = delivered(seq, id, &json) {
                            channels.send(user_id, Arc::new(delivered));
                        }
                    }
                    Ok(None) => {}
                    Err(err) => {
                        tracing::warn!(?err, seq, "a live event could not be read back");
                        channels.send(user_id, everyone(LiveEvent::Resync(Resync {})));
                    }
                }
            }
            // What other instances sent meanwhile is lost: everyone loads again.
            Ok(Signal { channel: Channel::Reconnected, .. }) | Err(broadcast::error::RecvError::Lagged(_)) => {
                channels.send_to_everyone(everyone(LiveEvent::Resync(Resync {})));
            }
            Ok(Signal { channel: Channel::Stop | Channel::Stream | Channel::Changed, .. }) => {}
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

    async fn hub() -> (LiveHub, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap();
        (LiveHub::new(pool, Signals::local()), dir)
    }

    #[tokio::test]
    async fn a_client_that_comes_back_gets_what_it_missed_or_a_resync() {
        let (hub, _dir) = hub().await;
        let mut adas = hub.subscribe("ada", None).await.live;
        let mut bobs = hub.subscribe("bob", None).await.live;
        hub.publish("ada", started("h1")).await;
        hub.publish("bob", started("h2")).await;
        hub.publish("ada", started("h3")).await;
        let first = adas.recv().await.unwrap().id.clone();
        let bobs = bobs.recv().await.unwrap();
        assert_eq!(bobs.event.history_id(), Some("h2"));
        let third = adas.recv().await.unwrap();
        assert_eq!(third.event.history_id(), Some("h3"), "delivered in order");

        let again = hub.subscribe("ada", Some(&first)).await;
        assert_eq!(ids(again.missed), std::slice::from_ref(&third.id), "ada's own, after the one she saw");
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
        let (hub, _dir) = hub().await;
        let mut adas = hub.subscribe("ada", None).await.live;
        hub.publish("ada", started("h1")).await;
        let before = adas.recv().await.unwrap().id.clone();
        for history in ["h2", "h3", "h4"] {
            hub.publish("bob", started(history)).await;
        }
        hub.publish("ada", started("h5")).await;
        let after = adas.recv().await.unwrap().id.clone();
        // A count would have skipped bob's three between ada's two: each id is random instead.
        for id in [&before, &after] {
            assert!(id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()), "not a count: {id}");
        }
        assert_ne!(before, after);
        assert_eq!(ids(hub.subscribe("ada", Some(&before)).await.missed), [after], "and still resumes");
    }

    #[tokio::test]
    async fn an_event_reaches_only_its_users_connections_and_a_channel_closes_with_its_last() {
        let (hub, _dir) = hub().await;
        let (mut ada_tab, mut ada_phone) =
            (hub.subscribe("ada", None).await.live, hub.subscribe("ada", None).await.live);
        let mut bobs = hub.subscribe("bob", None).await.live;
        assert_eq!(hub.connected_users(), 2);
        hub.publish("ada", started("h1")).await;
        hub.publish("bob", started("h2")).await;
        for connection in [&mut ada_tab, &mut ada_phone] {
            assert_eq!(connection.recv().await.unwrap().event.history_id(), Some("h1"), "each of ada's connections");
        }
        // Bob's first event is his own: ada's never entered his channel.
        assert_eq!(bobs.recv().await.unwrap().event.history_id(), Some("h2"));

        drop(ada_tab);
        assert_eq!(hub.connected_users(), 2, "ada's phone still listens");
        drop(ada_phone);
        assert_eq!(hub.connected_users(), 1, "ada's channel went with her last connection");
        hub.publish("ada", started("h3")).await;
        assert_eq!(hub.connected_users(), 1, "an event for nobody here opens nothing");
        drop(bobs);
        assert_eq!(hub.connected_users(), 0);
    }

    #[test]
    fn a_live_signal_names_its_instance_its_event_and_its_user() {
        let payload = live_signal("i1", 42, "user with spaces");
        assert_eq!(read_live_signal(&payload), Some(("i1", 42, "user with spaces")));
        for unreadable in ["", "i1", "i1 x u", "i1 42"] {
            assert_eq!(read_live_signal(unreadable), None, "{unreadable:?}");
        }
    }
}
