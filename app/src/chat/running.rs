//! The turns running right now, by conversation: the turn runner registers each turn's stop
//! switch and event log here; the chat service flips the switches (a stop, or a delete), and
//! clients attach to the logs. A conversation may run more than one turn at once (two tabs, or
//! the chat and a watch), so each has a list.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

use super::turn_log::TurnLog;

struct Running {
    switch: watch::Sender<bool>,
    log: Arc<TurnLog>,
    /// Whose turn it is (a turn speaks as the conversation's owner).
    user_id: String,
}

type Switches = HashMap<String, Vec<Running>>;

#[derive(Clone, Default)]
pub struct RunningTurns {
    switches: Arc<Mutex<Switches>>,
}

impl RunningTurns {
    fn switches(&self) -> MutexGuard<'_, Switches> {
        self.switches.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a turn starting on a conversation, with its event log; its receiver flips
    /// to true on a stop.
    pub fn register(
        &self,
        history_id: &str,
        user_id: &str,
        log: Arc<TurnLog>,
    ) -> (watch::Sender<bool>, watch::Receiver<bool>) {
        let (sender, receiver) = watch::channel(false);
        let running = Running { switch: sender.clone(), log, user_id: user_id.to_string() };
        self.switches().entry(history_id.to_string()).or_default().push(running);
        (sender, receiver)
    }

    /// How many turns of `user_id` are running (waiting on a tool's question included).
    pub fn count_of(&self, user_id: &str) -> usize {
        self.switches().values().flatten().filter(|turn| turn.user_id == user_id).count()
    }

    /// The log of the newest turn streaming on a conversation, for a client to attach to.
    pub fn streaming(&self, history_id: &str) -> Option<Arc<TurnLog>> {
        let switches = self.switches();
        let running = switches.get(history_id)?;
        running.iter().rev().find(|turn| turn.log.is_streaming()).map(|turn| turn.log.clone())
    }

    /// Forgets a finished turn.
    pub fn unregister(&self, history_id: &str, switch: &watch::Sender<bool>) {
        let mut switches = self.switches();
        if let Some(running) = switches.get_mut(history_id) {
            running.retain(|current| !current.switch.same_channel(switch));
            if running.is_empty() {
                switches.remove(history_id);
            }
        }
    }

    /// How many turns are running (waiting on a tool's question included).
    pub fn count(&self) -> usize {
        self.switches().values().map(Vec::len).sum()
    }

    /// Asks every running turn to stop (Palaver is shutting down): each saves what it has.
    pub fn stop_everything(&self) {
        for turn in self.switches().values().flatten() {
            let _ = turn.switch.send(true);
        }
    }

    /// Asks every turn running on a conversation to stop; false when none is running.
    pub fn stop(&self, history_id: &str) -> bool {
        self.stop_where(history_id, |_| true)
    }

    /// Asks the one turn whose stream is `stream_id` to stop (the one a tab shows), leaving
    /// the conversation's other turns running; false when it is not running.
    pub fn stop_stream(&self, history_id: &str, stream_id: &str) -> bool {
        self.stop_where(history_id, |turn| turn.log.is_stream(stream_id))
    }

    fn stop_where(&self, history_id: &str, chosen: impl Fn(&Running) -> bool) -> bool {
        let switches = self.switches();
        let running = switches.get(history_id).map(Vec::as_slice).unwrap_or_default();
        // Every chosen switch is flipped: no short circuit.
        running.iter().filter(|turn| chosen(turn)).filter(|turn| turn.switch.send(true).is_ok()).count() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_reaches_every_turn_of_the_conversation_and_only_those() {
        let running = RunningTurns::default();
        let log = || TurnLog::new("t", None);
        let (first, first_stop) = running.register("h1", "ada", log());
        let (_second, second_stop) = running.register("h1", "ada", log());
        let (_other, other_stop) = running.register("h2", "bob", log());
        assert_eq!((running.count_of("ada"), running.count_of("bob"), running.count()), (2, 1, 3));
        assert!(running.stop("h1"));
        assert!(*first_stop.borrow() && *second_stop.borrow());
        assert!(!*other_stop.borrow());
        running.unregister("h1", &first);
        assert!(running.stop("h1"), "the second turn still runs");
        assert!(!running.stop("h3"));
    }

    #[test]
    fn a_stop_that_names_a_stream_stops_that_turn_only() {
        let running = RunningTurns::default();
        let (_one, one_stop) = running.register("h1", "ada", TurnLog::new("t1", None));
        let (_two, two_stop) = running.register("h1", "ada", TurnLog::new("t2", None));
        assert!(running.stop_stream("h1", "t2"));
        assert!(*two_stop.borrow() && !*one_stop.borrow(), "the other tab's turn goes on");
        assert!(!running.stop_stream("h1", "t9"));
        assert!(!running.stop_stream("h2", "t1"));
    }
}
