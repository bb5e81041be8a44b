//! Signals between the Palaver instances that share one database: a live event one of them
//! stored, a Stop for a turn that runs on another. On PostgreSQL a signal is a NOTIFY on a
//! channel every instance LISTENs to; with one instance (SQLite, or a test) it stays in the
//! process. Either way each instance hands every signal, its own included, to its subscribers
//! once.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::{broadcast, oneshot};

use crate::db;
use crate::db::{Backend, Pool};
use crate::error::AppResult;

/// Signals waiting for slow subscribers before the oldest are dropped (a subscriber that falls
/// that far behind resyncs).
const CAPACITY: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// A live event was stored; the payload is its sequence number.
    Live,
    /// Stop the turns of a conversation; the payload is `<history id>` or `<history id> <stream id>`.
    Stop,
    /// A running turn's stream has new events stored; the payload is the stream's id.
    Stream,
    /// A value kept in memory (`kept`) changed; the payload is `<topic> <key>`.
    Changed,
    /// The connection to the other instances was lost and is back: what was sent meanwhile is gone.
    Reconnected,
}

impl Channel {
    const fn name(self) -> &'static str {
        match self {
            Channel::Live => "palaver_live",
            Channel::Stop => "palaver_stop",
            Channel::Stream => "palaver_stream",
            Channel::Changed => "palaver_changed",
            Channel::Reconnected => "palaver_reconnected",
        }
    }

    fn named(name: &str) -> Option<Self> {
        [Channel::Live, Channel::Stop, Channel::Stream, Channel::Changed]
            .into_iter()
            .find(|channel| channel.name() == name)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    pub channel: Channel,
    pub payload: String,
}

/// Where a signal heard goes: changes of kept values to their own subscribers, so the kept
/// values' listeners are not woken by every live event; the rest to the others. Both hear
/// `Reconnected`.
#[derive(Clone)]
struct Senders {
    signals: broadcast::Sender<Signal>,
    changes: broadcast::Sender<Signal>,
}

impl Senders {
    fn new() -> Self {
        Self { signals: broadcast::channel(CAPACITY).0, changes: broadcast::channel(CAPACITY).0 }
    }

    /// Hands `signal` to its subscribers; having none is no failure.
    fn hand(&self, signal: Signal) {
        match signal.channel {
            Channel::Changed => {
                let _ = self.changes.send(signal);
            }
            Channel::Reconnected => {
                let _ = self.changes.send(signal.clone());
                let _ = self.signals.send(signal);
            }
            Channel::Live | Channel::Stop | Channel::Stream => {
                let _ = self.signals.send(signal);
            }
        }
    }
}

struct Inner {
    senders: Senders,
    /// Present when signals cross instances: the pool they are sent through.
    shared: Option<Pool>,
    /// Dropped with the last clone, which ends the listener.
    _listening: Option<oneshot::Sender<()>>,
}

/// This instance's end of the signals. Cloning shares it.
#[derive(Clone)]
pub struct Signals {
    inner: Arc<Inner>,
}

impl Signals {
    /// Signals that stay in this process: for one instance.
    pub fn local() -> Self {
        Self { inner: Arc::new(Inner { senders: Senders::new(), shared: None, _listening: None }) }
    }

    /// Signals shared with every instance on the database of `pool`: on PostgreSQL, a listening
    /// connection of its own; on SQLite (one instance only), [`Signals::local`].
    pub async fn connect(pool: &Pool) -> Result<Self, sqlx::Error> {
        if Backend::of(pool) == Backend::Sqlite {
            return Ok(Self::local());
        }
        let mut listener = PgListener::connect(pool.connect_options().database_url.as_str()).await?;
        let channels = [Channel::Live, Channel::Stop, Channel::Stream, Channel::Changed];
        listener.listen_all(channels.map(Channel::name)).await?;
        let senders = Senders::new();
        let (listening, stopped) = oneshot::channel();
        tokio::spawn(relay(listener, senders.clone(), stopped));
        Ok(Self { inner: Arc::new(Inner { senders, shared: Some(pool.clone()), _listening: Some(listening) }) })
    }

    /// Sends a signal to every instance (this one included).
    pub async fn send(&self, channel: Channel, payload: &str) -> AppResult<()> {
        match &self.inner.shared {
            Some(pool) => db::notify(pool, channel.name(), payload).await?,
            None => self.inner.senders.hand(Signal { channel, payload: payload.to_owned() }),
        }
        Ok(())
    }

    /// Whether other instances may hear these signals (and read what this one stores for them).
    pub fn cross_instances(&self) -> bool {
        self.inner.shared.is_some()
    }

    /// Every signal but the changes of kept values.
    pub fn subscribe(&self) -> broadcast::Receiver<Signal> {
        self.inner.senders.signals.subscribe()
    }

    /// The changes of kept values (`Changed`), and `Reconnected`.
    pub fn subscribe_changes(&self) -> broadcast::Receiver<Signal> {
        self.inner.senders.changes.subscribe()
    }
}

/// Hands each notification to the subscribers until the last [`Signals`] is dropped. When the
/// connection drops, PgListener reconnects and listens again; what was sent meanwhile is lost,
/// so subscribers hear `Reconnected`.
async fn relay(mut listener: PgListener, senders: Senders, mut stopped: oneshot::Receiver<()>) {
    loop {
        let received = tokio::select! {
            received = listener.try_recv() => received,
            _ = &mut stopped => return,
        };
        match received {
            Ok(Some(notification)) => {
                if let Some(channel) = Channel::named(notification.channel()) {
                    senders.hand(Signal { channel, payload: notification.payload().to_owned() });
                }
            }
            Ok(None) => {
                tracing::warn!("lost the connection that hears other instances; reconnecting");
                senders.hand(Signal { channel: Channel::Reconnected, payload: String::new() });
            }
            Err(err) => {
                tracing::warn!(%err, "cannot hear other instances; retrying in a second");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}
