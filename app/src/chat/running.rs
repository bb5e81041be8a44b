//! The turns running right now, by conversation: the turn runner registers each turn's stop
//! switch here, and the chat service flips it (a stop, or a delete).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::watch;

#[derive(Clone, Default)]
pub struct RunningTurns {
    switches: Arc<Mutex<HashMap<String, watch::Sender<bool>>>>,
}

impl RunningTurns {
    fn switches(&self) -> MutexGuard<'_, HashMap<String, watch::Sender<bool>>> {
        self.switches.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a turn starting on a conversation; its receiver flips to true on a stop.
    pub fn register(&self, history_id: &str) -> (watch::Sender<bool>, watch::Receiver<bool>) {
        let (sender, receiver) = watch::channel(false);
        self.switches().insert(history_id.to_string(), sender.clone());
        (sender, receiver)
    }

    /// Forgets a finished turn (unless a newer turn on the conversation replaced it).
    pub fn unregister(&self, history_id: &str, switch: &watch::Sender<bool>) {
        let mut switches = self.switches();
        if switches.get(history_id).is_some_and(|current| current.same_channel(switch)) {
            switches.remove(history_id);
        }
    }

    /// Asks the turn running on a conversation to stop; false when none is running.
    pub fn stop(&self, history_id: &str) -> bool {
        self.switches().get(history_id).is_some_and(|stop| stop.send(true).is_ok())
    }
}
