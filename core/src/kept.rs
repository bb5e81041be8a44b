//! Reads kept in memory until a write says they changed (issue 45): what every turn reads again
//! and rarely changes, such as a user's webhooks or push devices. A write, once committed, calls
//! [`Kept::changed`]: this instance forgets the value at once, and `Channel::Changed` tells every
//! other instance to. When the connection to the other instances drops, everything is forgotten;
//! what is read while it is down, and a change signalled before it listens again, can stay
//! stale. So can a change whose process died between its commit and its signal. A value is
//! kept at most [`MAX_AGE`], which bounds all of these to a minute.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use crate::error::AppResult;
use crate::signals::{Channel, Signal, Signals};

/// The longest a value is kept, whatever was heard.
pub const MAX_AGE: Duration = Duration::from_secs(60);

/// Values of one kind (`topic`), by key (a user's id), read through [`Kept::read`].
pub struct Kept<V> {
    inner: Arc<Inner<V>>,
}

impl<V> Clone for Kept<V> {
    fn clone(&self) -> Self {
        Self { inner: self.inner.clone() }
    }
}

struct Inner<V> {
    topic: &'static str,
    signals: Signals,
    values: Mutex<HashMap<String, (Instant, V)>>,
    /// Moved on by every change heard: a read begun before one does not keep what it read,
    /// which may be what the change replaced.
    generation: AtomicU64,
}

impl<V: Clone + Send + 'static> Kept<V> {
    /// Values named `topic` in the signals (unique among the kinds kept); forgets them as
    /// `signals` says they changed, until the last clone is dropped.
    pub fn new(topic: &'static str, signals: &Signals) -> Self {
        let inner = Arc::new(Inner {
            topic,
            signals: signals.clone(),
            values: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
        });
        tokio::spawn(forget_as_told(Arc::downgrade(&inner), signals.subscribe_changes()));
        Self { inner }
    }

    /// The value of `key`: kept, or read by `read` (and kept unless it changed meanwhile).
    pub async fn read<F, R>(&self, key: &str, read: F) -> AppResult<V>
    where
        F: FnOnce() -> R,
        R: Future<Output = AppResult<V>>,
    {
        if let Some((kept_at, value)) = self.inner.values().get(key)
            && kept_at.elapsed() < MAX_AGE
        {
            return Ok(value.clone());
        }
        let generation = self.inner.generation.load(Ordering::SeqCst);
        let value = read().await?;
        let mut values = self.inner.values();
        if self.inner.generation.load(Ordering::SeqCst) == generation {
            values.insert(key.to_owned(), (Instant::now(), value.clone()));
        }
        Ok(value)
    }

    /// Says that `key`'s value changed (its write committed): forgotten here at once, and on
    /// every other instance once the signal reaches it. A signal that cannot be sent is logged:
    /// the other instances keep the old value for [`MAX_AGE`] at most.
    pub async fn changed(&self, key: &str) {
        self.inner.forget(Some(key));
        if let Err(err) = self.inner.signals.send(Channel::Changed, &format!("{} {key}", self.inner.topic)).await {
            tracing::warn!(?err, topic = self.inner.topic, "the other instances were not told of a change");
        }
    }
}

impl<V> Inner<V> {
    fn values(&self) -> MutexGuard<'_, HashMap<String, (Instant, V)>> {
        self.values.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Forgets `key`'s value, or every value.
    fn forget(&self, key: Option<&str>) {
        let mut values = self.values();
        self.generation.fetch_add(1, Ordering::SeqCst);
        match key {
            Some(key) => {
                values.remove(key);
            }
            None => values.clear(),
        }
    }
}

/// Forgets the values the signals say changed, and all of them when signals may have been lost
/// (the connection to the other instances dropped, or this listener fell behind).
async fn forget_as_told<V>(inner: Weak<Inner<V>>, mut signals: broadcast::Receiver<Signal>) {
    loop {
        let received = signals.recv().await;
        let Some(inner) = inner.upgrade() else { return };
        match received {
            Ok(Signal { channel: Channel::Changed, payload }) => {
                if let Some(key) = payload.strip_prefix(inner.topic).and_then(|rest| rest.strip_prefix(' ')) {
                    inner.forget(Some(key));
                }
            }
            Ok(Signal { channel: Channel::Reconnected, .. }) | Err(broadcast::error::RecvError::Lagged(_)) => {
                inner.forget(None);
            }
            Ok(Signal { channel: Channel::Live | Channel::Stop | Channel::Stream, .. }) => {}
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn counted(reads: &AtomicU64, value: &'static str) -> AppResult<String> {
        reads.fetch_add(1, Ordering::SeqCst);
        Ok(value.to_owned())
    }

    /// Lets the listener run until `forgotten` holds (the test's runtime has one thread).
    async fn until(forgotten: impl Fn() -> bool) {
        while !forgotten() {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn a_value_is_read_once_until_it_changes_here_or_elsewhere() {
        let signals = Signals::local();
        let (hooks, elsewhere) = (Kept::<String>::new("hooks", &signals), Kept::<String>::new("hooks", &signals));
        let devices = Kept::<String>::new("devices", &signals);
        let reads = Arc::new(AtomicU64::new(0));
        assert_eq!(hooks.read("ada", || counted(&reads, "one")).await.unwrap(), "one");
        assert_eq!(hooks.read("ada", || counted(&reads, "two")).await.unwrap(), "one", "kept");
        devices.read("ada", || counted(&reads, "phone")).await.unwrap();
        assert_eq!(reads.load(Ordering::SeqCst), 2);

        // Another instance's write: heard through the signals.
        elsewhere.changed("ada").await;
        until(|| !hooks.inner.values().contains_key("ada")).await;
        assert_eq!(hooks.read("ada", || counted(&reads, "two")).await.unwrap(), "two", "read again");
        assert_eq!(devices.read("ada", || counted(&reads, "tablet")).await.unwrap(), "phone", "another topic stays");

        // This instance's write: forgotten at once.
        hooks.changed("ada").await;
        assert_eq!(hooks.read("ada", || counted(&reads, "three")).await.unwrap(), "three");
        assert_eq!(reads.load(Ordering::SeqCst), 4, "one, phone, two, three");
    }

    #[tokio::test]
    async fn a_read_that_a_change_overtook_is_not_kept() {
        let signals = Signals::local();
        let hooks = Kept::<String>::new("hooks", &signals);
        let reads = Arc::new(AtomicU64::new(0));
        let racing = hooks.clone();
        let read = hooks
            .read("ada", || async move {
                // The write commits and says so while this read is under way.
                racing.changed("ada").await;
                Ok("old".to_owned())
            })
            .await;
        assert_eq!(read.unwrap(), "old", "this read is answered");
        assert_eq!(hooks.read("ada", || counted(&reads, "new")).await.unwrap(), "new", "but its value was not kept");
    }

    #[tokio::test]
    async fn everything_is_forgotten_when_signals_may_have_been_lost() {
        let signals = Signals::local();
        let hooks = Kept::<String>::new("hooks", &signals);
        let reads = Arc::new(AtomicU64::new(0));
        hooks.read("ada", || counted(&reads, "one")).await.unwrap();
        signals.send(Channel::Reconnected, "").await.unwrap();
        until(|| hooks.inner.values().is_empty()).await;
        assert_eq!(hooks.read("ada", || counted(&reads, "two")).await.unwrap(), "two");
    }
}
