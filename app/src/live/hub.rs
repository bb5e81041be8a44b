//! The hub every live event passes through: one broadcast to every connection (each keeps its
//! user's events) and, per user, the newest events for connections that come back.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{broadcast, watch};

use super::LiveEvent;

/// How many of a user's newest events a reconnecting client can get back.
const BUFFER_PER_USER: usize = 256;

/// How many events a slow connection may fall behind before it is told to resync.
const CHANNEL_CAPACITY: usize = 1024;

/// An event with its id and whose it is.
#[derive(Debug)]
pub struct Delivered {
    pub seq: u64,
    pub user_id: String,
    pub event: LiveEvent,
}

#[derive(Default)]
struct UserBuffer {
    events: VecDeque<Arc<Delivered>>,
    /// The newest sequence number that fell out of the buffer.
    dropped_through: u64,
}

struct HubState {
    next_seq: u64,
    buffers: HashMap<String, UserBuffer>,
}

/// The live events of every user. Cloning shares it.
#[derive(Clone)]
pub struct LiveHub {
    /// Ids are `<epoch>.<seq>`: an id from before a restart names another epoch.
    epoch: Arc<str>,
    state: Arc<Mutex<HubState>>,
    sender: broadcast::Sender<Arc<Delivered>>,
    /// Flips to true when Palaver shuts down: every event stream ends.
    closing: watch::Sender<bool>,
}

impl Default for LiveHub {
    fn default() -> Self {
        let (sender, _) = broadcast::channel(CHANNEL_CAPACITY);
        let epoch = crate::db::new_id().chars().filter(char::is_ascii_alphanumeric).take(8).collect::<String>();
        Self {
            epoch: epoch.into(),
            state: Arc::new(Mutex::new(HubState { next_seq: 1, buffers: HashMap::new() })),
            sender,
            closing: watch::channel(false).0,
        }
    }
}

/// What a client missed since the id it last saw.
pub enum Missed {
    Events(Vec<Arc<Delivered>>),
    /// More than the buffer holds, or an id from before a restart.
    TooMuch,
}

/// A new connection: what it missed, then every event as it happens.
pub struct Subscription {
    pub missed: Missed,
    pub live: broadcast::Receiver<Arc<Delivered>>,
}

impl LiveHub {
    fn state(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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

    /// The SSE id of an event.
    pub fn id_of(&self, delivered: &Delivered) -> String {
        format!("{}.{}", self.epoch, delivered.seq)
    }

    /// Sends `event` to every connection of `user_id`, and keeps it for those that come back.
    pub fn publish(&self, user_id: &str, event: LiveEvent) {
        let mut state = self.state();
        let delivered = Arc::new(Delivered { seq: state.next_seq, user_id: user_id.to_string(), event });
        state.next_seq += 1;
        let buffer = state.buffers.entry(user_id.to_string()).or_default();
        buffer.events.push_back(delivered.clone());
        if buffer.events.len() > BUFFER_PER_USER
            && let Some(dropped) = buffer.events.pop_front()
        {
            buffer.dropped_through = dropped.seq;
        }
        // Sent under the lock, so a subscriber sees each event once: in its buffer copy or live.
        let _ = self.sender.send(delivered);
    }

    /// Subscribes `user_id`; `last_seen` is the `Last-Event-ID` of a client that reconnects.
    pub fn subscribe(&self, user_id: &str, last_seen: Option<&str>) -> Subscription {
        let state = self.state();
        let live = self.sender.subscribe();
        let buffer = state.buffers.get(user_id);
        let missed = match last_seen.map(|id| id.split_once('.')) {
            None => Missed::Events(Vec::new()),
            Some(Some((epoch, seq))) if epoch == &*self.epoch => match seq.parse::<u64>() {
                Ok(seq) if seq >= buffer.map_or(0, |buffer| buffer.dropped_through) && seq < state.next_seq => {
                    Missed::Events(
                        buffer
                            .map(|buffer| buffer.events.iter().filter(|event| event.seq > seq).cloned().collect())
                            .unwrap_or_default(),
                    )
                }
                _ => Missed::TooMuch,
            },
            Some(_) => Missed::TooMuch,
        };
        Subscription { missed, live }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{HistoryRef, Resync};

    fn started(id: &str) -> LiveEvent {
        LiveEvent::TurnStarted(HistoryRef { history_id: id.into() })
    }

    fn seqs(missed: Missed) -> Vec<u64> {
        match missed {
            Missed::Events(events) => events.iter().map(|event| event.seq).collect(),
            Missed::TooMuch => panic!("expected the missed events"),
        }
    }

    #[test]
    fn a_client_that_comes_back_gets_what_it_missed_or_a_resync() {
        let hub = LiveHub::default();
        hub.publish("ada", started("h1"));
        hub.publish("bob", started("h2"));
        hub.publish("ada", started("h3"));
        let first = format!("{}.1", hub.epoch);
        assert_eq!(seqs(hub.subscribe("ada", Some(&first)).missed), [3], "ada's own, after the one she saw");
        assert_eq!(seqs(hub.subscribe("ada", None).missed), Vec::<u64>::new(), "a new client starts now");
        assert!(matches!(hub.subscribe("ada", Some("other.1")).missed, Missed::TooMuch), "another epoch");
        assert!(matches!(hub.subscribe("ada", Some(&format!("{}.99", hub.epoch))).missed, Missed::TooMuch));
        for _ in 0..BUFFER_PER_USER {
            hub.publish("ada", LiveEvent::Resync(Resync {}));
        }
        assert!(matches!(hub.subscribe("ada", Some(&first)).missed, Missed::TooMuch), "beyond the buffer");
        let recent = format!("{}.{}", hub.epoch, hub.state().next_seq - 2);
        assert_eq!(seqs(hub.subscribe("ada", Some(&recent)).missed).len(), 1);
    }
}
