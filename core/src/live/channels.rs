//! One channel per user with an open connection on this instance, so an event wakes only its
//! own user's connections, and a user's channel is gone once their last connection closes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::broadcast;

use palaver_wire::live::LiveEvent;

/// An event with its ids.
#[derive(Debug)]
pub struct Delivered {
    /// Its place among every user's events: it orders them, and is never shown.
    pub seq: i64,
    /// What its client sees as its id: random, so it tells nothing of other users' events.
    pub id: String,
    pub event: LiveEvent,
}

/// How many events one connection may fall behind before it is told to resync. Each user's
/// channel holds this many slots, so it stays small: a resync only costs a reload.
const CHANNEL_CAPACITY: usize = 128;

type Senders = HashMap<String, broadcast::Sender<Arc<Delivered>>>;

/// The channels of the users connected here. Cloning shares them.
#[derive(Clone, Default)]
pub struct UserChannels {
    senders: Arc<Mutex<Senders>>,
}

impl UserChannels {
    fn senders(&self) -> std::sync::MutexGuard<'_, Senders> {
        // A panic elsewhere while holding the lock leaves the map whole: keep using it.
        self.senders.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A receiver of `user_id`'s events, opening their channel if it is the first.
    pub fn join(&self, user_id: &str) -> Membership {
        let mut senders = self.senders();
        let sender = senders.entry(user_id.to_owned()).or_insert_with(|| broadcast::channel(CHANNEL_CAPACITY).0);
        Membership { receiver: sender.subscribe(), user_id: user_id.to_owned(), channels: self.clone() }
    }

    /// Whether anyone of `user_id` listens here: an event of a user who does not is not read.
    pub fn has(&self, user_id: &str) -> bool {
        self.senders().contains_key(user_id)
    }

    /// Hands `event` to the connections of `user_id`, if any.
    pub fn send(&self, user_id: &str, event: Arc<Delivered>) {
        if let Some(sender) = self.senders().get(user_id) {
            let _ = sender.send(event);
        }
    }

    /// Hands `event` to every connection here.
    pub fn send_to_everyone(&self, event: Arc<Delivered>) {
        for sender in self.senders().values() {
            let _ = sender.send(event.clone());
        }
    }

    /// How many users have a channel here.
    #[cfg(test)]
    pub fn users(&self) -> usize {
        self.senders().len()
    }
}

/// One connection's place in its user's channel; leaving it (dropping it) closes the channel
/// when it was the user's last connection here.
pub struct Membership {
    receiver: broadcast::Receiver<Arc<Delivered>>,
    user_id: String,
    channels: UserChannels,
}

impl Membership {
    pub async fn recv(&mut self) -> Result<Arc<Delivered>, broadcast::error::RecvError> {
        self.receiver.recv().await
    }
}

impl Drop for Membership {
    fn drop(&mut self) {
        let mut senders = self.channels.senders();
        // Receivers are only made under this lock, so the count cannot grow meanwhile.
        if senders.get(&self.user_id).is_some_and(|sender| sender.receiver_count() <= 1) {
            senders.remove(&self.user_id);
        }
    }
}
