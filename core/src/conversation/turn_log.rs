//! A running turn's events, kept while it runs so a client can attach to it: after a reload, a
//! dropped connection, or from another tab. Events have ids `<stream>.<n>` (`n` counts from 0
//! within the stream); a turn that waited on a tool's question starts a new stream when the
//! answer resumes it.

use std::sync::{Arc, Mutex, MutexGuard};

use futures::StreamExt;
use tokio::sync::watch;

use palaver_wire::conversation::model::TurnEvent;

struct LogState {
    stream_id: String,
    prompt: Option<String>,
    events: Vec<TurnEvent>,
    /// The stream sent its `{done}`.
    ended: bool,
}

pub struct TurnLog {
    state: Mutex<LogState>,
    /// Bumped on every change, so attached clients wake.
    changed: watch::Sender<u64>,
}

/// Where an attached client starts: the stream, its prompt, and the first event it lacks.
pub struct Attached {
    pub log: Arc<TurnLog>,
    pub stream_id: String,
    pub prompt: Option<String>,
    pub next: usize,
    pub changed: watch::Receiver<u64>,
}

impl TurnLog {
    pub fn new(stream_id: &str, prompt: Option<String>) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(LogState { stream_id: stream_id.to_string(), prompt, events: Vec::new(), ended: false }),
            changed: watch::channel(0).0,
        })
    }

    fn state(&self) -> MutexGuard<'_, LogState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn bump(&self) {
        self.changed.send_modify(|version| *version += 1);
    }

    pub fn push(&self, event: &TurnEvent) {
        {
            let mut state = self.state();
            state.ended |= matches!(event, TurnEvent::Done { .. });
            state.events.push(event.clone());
        }
        self.bump();
    }

    /// Ends the stream without a `{done}` (its turn was lost with the instance that ran it):
    /// attached clients are let go.
    pub fn end(&self) {
        self.state().ended = true;
        self.bump();
    }

    /// Wakes on every change.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// A new stream of the same turn (the answer to a tool's question resumed it).
    pub fn restart(&self, stream_id: &str) {
        {
            let mut state = self.state();
            (state.stream_id, state.prompt, state.ended) = (stream_id.to_string(), None, false);
            state.events.clear();
        }
        self.bump();
    }

    /// The turn's current stream.
    pub fn stream_id(&self) -> String {
        self.state().stream_id.clone()
    }

    /// The prompt the current stream answers (none for a stream an answer resumed).
    pub fn prompt(&self) -> Option<String> {
        self.state().prompt.clone()
    }

    /// Whether `stream_id` is this turn's current stream.
    pub fn is_stream(&self, stream_id: &str) -> bool {
        self.state().stream_id == stream_id
    }

    pub fn is_streaming(&self) -> bool {
        !self.state().ended
    }

    /// Attaches a client that saw `last_seen` (an event id), or nothing: then from the start.
    /// `None` once the stream has ended.
    pub fn attach(self: &Arc<Self>, last_seen: Option<&str>) -> Option<Attached> {
        let state = self.state();
        if state.ended {
            return None;
        }
        let next = last_seen
            .and_then(|id| id.rsplit_once('.'))
            .filter(|(stream, _)| *stream == state.stream_id)
            .and_then(|(_, n)| n.parse::<usize>().ok())
            // Not capped at the events here: a replica of a turn on another instance may not
            // have caught up with what its client saw there.
            .map_or(0, |n| n + 1);
        Some(Attached {
            log: self.clone(),
            stream_id: state.stream_id.clone(),
            prompt: state.prompt.clone(),
            next,
            changed: self.changed.subscribe(),
        })
    }

    /// The events from `from` on, and whether the stream has ended (`None`: the turn moved on
    /// to another stream, which this client is not on).
    pub fn since(&self, stream_id: &str, from: usize) -> Option<(Vec<TurnEvent>, bool)> {
        let state = self.state();
        (state.stream_id == stream_id).then(|| (state.events.get(from..).unwrap_or_default().to_vec(), state.ended))
    }
}

impl Attached {
    /// The events from where the client starts, each with its number in the stream, as they
    /// come; the stream ends with the turn's (or when the turn moves on to another stream).
    pub fn events(self) -> impl futures::Stream<Item = (usize, TurnEvent)> + Send + 'static {
        futures::stream::unfold((self, false), |(mut attached, finished)| async move {
            loop {
                if finished {
                    return None;
                }
                // Taken before reading, so a change between the read and the wait is not missed.
                attached.changed.borrow_and_update();
                let (events, ended) = attached.log.since(&attached.stream_id, attached.next)?;
                if !events.is_empty() {
                    let first = attached.next;
                    attached.next += events.len();
                    let numbered: Vec<(usize, TurnEvent)> = (first..).zip(events).collect();
                    return Some((futures::stream::iter(numbered), (attached, ended)));
                }
                if ended || attached.changed.changed().await.is_err() {
                    return None;
                }
            }
        })
        .flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(text: &str) -> TurnEvent {
        TurnEvent::Text { text: text.into() }
    }

    #[test]
    fn a_client_attaches_where_it_left_off_and_not_after_the_end() {
        let log = TurnLog::new("t1", Some("hi".into()));
        log.push(&text("a"));
        log.push(&text("b"));
        assert_eq!(log.attach(None).unwrap().next, 0, "from the start");
        assert_eq!(log.attach(Some("t1.0")).unwrap().next, 1, "after the one it saw");
        assert_eq!(log.attach(Some("t0.1")).unwrap().next, 0, "another stream's id: from the start");
        let attached = log.attach(Some("t1.1")).unwrap();
        assert_eq!(log.since(&attached.stream_id, attached.next).unwrap(), (vec![], false));
        log.push(&TurnEvent::Done { done: true, history_id: "h".into(), title: None, pending_ask: None });
        assert!(log.since("t1", 2).unwrap().1, "the stream has ended");
        assert!(log.attach(None).is_none(), "an ended stream has nothing to attach to");
        log.restart("t2");
        assert!(log.since("t1", 0).is_none());
        assert_eq!(log.attach(None).unwrap().prompt, None);
    }
}
