//! The services that act on what happens (push notifications, ask mails, webhooks), each woken
//! only by the kinds of event it wants. A follower hears every event it wants, in the order they
//! were published, however far it falls behind: its queue has no bound, and a backlog is logged
//! (when events are handed, so a follower stuck in its work is told of too).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use palaver_wire::live::LiveEvent;

/// An event as it was published on this instance, for a service that acts on what happens:
/// each event is published once, where it happened.
#[derive(Clone, Debug)]
pub struct Published {
    pub user_id: String,
    pub event: LiveEvent,
}

/// A backlog at which a follower is said to fall behind (once, until it catches up).
const BACKLOG_TOLD: usize = 1000;

struct Follower {
    name: &'static str,
    wants: fn(&LiveEvent) -> bool,
    sender: mpsc::UnboundedSender<Arc<Published>>,
    backlog: Arc<Backlog>,
}

/// What a follower has been handed and not taken yet.
#[derive(Default)]
struct Backlog {
    queued: AtomicUsize,
    /// Said to fall behind, and not caught up since.
    told: AtomicBool,
}

/// The followers of one instance's events. Cloning shares them.
#[derive(Clone, Default)]
pub(super) struct Followers {
    followers: Arc<Mutex<Vec<Follower>>>,
}

impl Followers {
    /// A new follower of the events `wants` accepts, named `name` in the log.
    pub(super) fn follow(&self, name: &'static str, wants: fn(&LiveEvent) -> bool) -> Following {
        let (sender, receiver) = mpsc::unbounded_channel();
        let backlog = Arc::new(Backlog::default());
        let follower = Follower { name, wants, sender, backlog: backlog.clone() };
        self.followers.lock().unwrap_or_else(PoisonError::into_inner).push(follower);
        Following { receiver, backlog }
    }

    /// Hands each of `user_id`'s `events` to the followers that want it; one whose
    /// [`Following`] was dropped is forgotten.
    pub(super) fn hand(&self, user_id: &str, events: &[LiveEvent]) {
        let mut followers = self.followers.lock().unwrap_or_else(PoisonError::into_inner);
        followers.retain(|follower| !follower.sender.is_closed());
        for event in events {
            let mut published = None;
            for follower in followers.iter().filter(|follower| (follower.wants)(event)) {
                let published = published
                    .get_or_insert_with(|| Arc::new(Published { user_id: user_id.to_owned(), event: event.clone() }));
                // A receiver dropped since the `retain` is no failure.
                if follower.sender.send(published.clone()).is_ok() {
                    let queued = follower.backlog.queued.fetch_add(1, Ordering::Relaxed) + 1;
                    if queued >= BACKLOG_TOLD && !follower.backlog.told.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            follower = follower.name,
                            queued,
                            "a follower of the live events is falling behind"
                        );
                    }
                }
            }
        }
    }
}

/// A follower's end: the events it wants, in order.
pub struct Following {
    receiver: mpsc::UnboundedReceiver<Arc<Published>>,
    backlog: Arc<Backlog>,
}

impl Following {
    /// The next event; `None` once the hub is gone.
    pub async fn next(&mut self) -> Option<Arc<Published>> {
        let published = self.receiver.recv().await?;
        if self.backlog.queued.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.backlog.told.store(false, Ordering::Relaxed); // caught up
        }
        Some(published)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_wire::live::{AskCreated, HistoryRef};

    fn started(id: &str) -> LiveEvent {
        LiveEvent::TurnStarted(HistoryRef { history_id: id.into() })
    }

    fn asked(id: &str) -> LiveEvent {
        LiveEvent::AskCreated(AskCreated {
            history_id: "h".into(),
            tool_call_id: id.into(),
            kind: palaver_contract::asks::AskKind::Choice,
            expires_at: None,
        })
    }

    #[tokio::test]
    async fn a_held_follower_hears_every_event_it_wants_in_order_and_nothing_else() {
        let followers = Followers::default();
        let mut push = followers.follow("push", |event| matches!(event, LiveEvent::AskCreated(_)));
        let mut everything = followers.follow("everything", |_| true);
        // The push follower is held while far more than any bound is published.
        for n in 0..2000 {
            followers.hand("ada", &[started(&n.to_string())]);
            if n % 7 == 0 {
                followers.hand("ada", &[asked(&format!("ask {}", n / 7))]);
            }
        }
        let mut heard = Vec::new();
        while let Ok(published) = push.receiver.try_recv() {
            match &published.event {
                LiveEvent::AskCreated(created) => heard.push(created.tool_call_id.clone()),
                other => panic!("the push follower heard {other:?}"),
            }
        }
        let expected: Vec<String> = (0..=1999 / 7).map(|n| format!("ask {n}")).collect();
        assert_eq!(heard, expected, "every ask, in order, none skipped");
        assert!(everything.backlog.told.load(Ordering::Relaxed), "2,286 queued: told it falls behind");
        assert_eq!(everything.next().await.unwrap().event, started("0"));

        drop(everything);
        followers.hand("ada", &[started("after")]);
        assert_eq!(followers.followers.lock().unwrap().len(), 1, "a follower that went is forgotten");
    }
}
