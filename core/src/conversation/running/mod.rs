//! The turns running right now, by conversation: the turn runner registers each turn's stop
//! switch and event log here; the chat service flips the switches (a stop, or a delete), and
//! clients attach to the logs. A conversation may have more than one turn at once (two tabs, or
//! the chat and a watch), so each has a list, in the order they began: each waits for those
//! before it (`wait_for_earlier`), so one writes at a time.

pub mod store;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{broadcast, watch};

use super::leases::LeaseHealth;
use super::store as histories;
use super::store::RunningTurnRow;
use super::stream_mirror;
use super::turn_log::TurnLog;
use crate::db::{Pool, new_id};
use crate::error::{AppError, AppResult};
use crate::signals::{Channel, Signal, Signals};

struct Running {
    /// This registration's row in `running_turns`.
    key: String,
    /// Flipped when the turn is unregistered: its stream's writer finishes.
    finished: watch::Sender<bool>,
    switch: watch::Sender<bool>,
    log: Arc<TurnLog>,
    /// Whose turn it is (a turn speaks as the conversation's owner).
    user_id: String,
}

type Switches = HashMap<String, Vec<Running>>;

/// A turn's place among its user's running turns, held from its admission until it is
/// registered (or released): its row in `running_turns` counts already.
#[must_use = "a reservation is registered or released"]
pub struct Reservation {
    pub key: String,
}

/// A registered turn: its stop switch (flipped to true on a stop), and its row's key.
pub struct Registration {
    pub switch: watch::Sender<bool>,
    pub stop: watch::Receiver<bool>,
    pub key: String,
}

/// What `running_turns` says of a turn another instance may hold: that instance, and whether
/// its lease still runs.
pub struct Holder {
    pub instance_id: String,
    pub leased: bool,
}

/// How often a turn queued behind an earlier one looks whether it has ended.
const EARLIER_TURN_POLL: Duration = Duration::from_millis(50);

type Gates = HashMap<String, Arc<tokio::sync::Mutex<()>>>;

/// A conversation's admission, held; its gate is forgotten once nobody waits at it.
pub struct Admission {
    admissions: Arc<Mutex<Gates>>,
    history_id: String,
    gate: Arc<tokio::sync::Mutex<()>>,
    held: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for Admission {
    fn drop(&mut self) {
        drop(self.held.take());
        let mut gates = lock(&self.admissions);
        // The map's and this one: nobody else holds or waits for the gate.
        if Arc::strong_count(&self.gate) == 2 {
            gates.remove(&self.history_id);
        }
    }
}

/// A running turn's lease unless configured.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(15);

/// The turns running on this instance, in memory, and on every instance, in `running_turns`.
#[derive(Clone)]
pub struct RunningTurns {
    switches: Arc<Mutex<Switches>>,
    /// Conversations a turn is being admitted to (`admit`).
    admissions: Arc<Mutex<Gates>>,
    pool: Pool,
    signals: Signals,
    /// This instance's id in `running_turns`.
    instance_id: Arc<str>,
    lease: Duration,
    /// Set once Palaver shuts down: the turns it stops are cut off, not stopped by the user.
    shutting_down: Arc<std::sync::atomic::AtomicBool>,
    /// The keys of the turns admitted here and not registered yet (their rows hold their place).
    reserved: Arc<Mutex<HashSet<String>>>,
    /// The keys of turns that ended here whose rows could not be removed: they do not count.
    ended: Arc<Mutex<HashSet<String>>>,
    /// Whether this instance renews its turns' leases.
    leases: LeaseHealth,
}

impl RunningTurns {
    /// The running turns of an instance whose leases last `lease` (renewed every third of it).
    /// It hears the Stops that other instances signal for its turns.
    pub fn new(pool: Pool, signals: Signals, lease: Duration) -> Self {
        let running = Self {
            switches: Arc::default(),
            admissions: Arc::default(),
            pool,
            signals: signals.clone(),
            instance_id: new_id().into(),
            lease: lease.max(Duration::from_secs(1)),
            shutting_down: Arc::default(),
            reserved: Arc::default(),
            ended: Arc::default(),
            leases: LeaseHealth::default(),
        };
        tokio::spawn(keep_up(running.without_signals(), signals.subscribe()));
        running
    }

    /// This registry for the task that serves it: holding the signals would keep it alive.
    fn without_signals(&self) -> Housekeeper {
        Housekeeper {
            switches: Arc::downgrade(&self.switches),
            pool: self.pool.clone(),
            instance_id: self.instance_id.clone(),
            lease: self.lease,
            ended: self.ended.clone(),
            leases: self.leases.clone(),
        }
    }

    /// This instance's id in `running_turns`.
    pub fn instance_id(&self) -> &str {
        &self.instance_id
    }

    /// Whether other instances may run turns on this database.
    pub fn other_instances(&self) -> bool {
        self.signals.cross_instances()
    }

    /// The signals this registry shares with the other instances.
    pub fn signals(&self) -> &Signals {
        &self.signals
    }

    /// Whether this instance renews its turns' leases, for `/health`.
    pub fn lease_health(&self) -> &LeaseHealth {
        &self.leases
    }

    fn switches(&self) -> MutexGuard<'_, Switches> {
        lock(&self.switches)
    }

    pub fn lease_seconds(&self) -> i64 {
        crate::db::seconds(self.lease)
    }

    /// Admits one more turn of `user_id` unless `cap` of theirs run already, on any instance
    /// (a tool's question waiting included): the count and the row that holds the new turn's
    /// place are one step, under a lock on the user, so racing prompts cannot all pass.
    pub async fn reserve(&self, user_id: &str, cap: usize) -> AppResult<Reservation> {
        let key = new_id();
        let ended: Vec<String> = lock(&self.ended).iter().cloned().collect();
        let place = store::TurnPlace { key: &key, user_id, instance_id: &self.instance_id, ended: &ended };
        lock(&self.reserved).insert(key.clone());
        match store::reserve_running_turn(&self.pool, &place, self.lease_seconds(), cap).await {
            Ok(true) => Ok(Reservation { key }),
            refused => {
                lock(&self.reserved).remove(&key);
                refused?;
                Err(AppError::TooManyRequests {
                    message: format!(
                        "{cap} replies of yours are running already. Wait for one to finish, or stop one."
                    ),
                    retry_after_secs: 5,
                }
                .into())
            }
        }
    }

    /// Gives back a place a turn was admitted to and did not take (its request was refused).
    pub async fn release(&self, reservation: Reservation) {
        lock(&self.reserved).remove(&reservation.key);
        if let Err(err) = histories::remove_running_turn(&self.pool, &reservation.key).await {
            tracing::warn!(?err, "an unused turn's place stays until its lease ends");
        }
    }

    /// Registers a turn starting on a conversation in the place it was admitted to, with its
    /// event log.
    pub async fn register(
        &self,
        reservation: Reservation,
        history_id: &str,
        user_id: &str,
        log: Arc<TurnLog>,
    ) -> Registration {
        let (sender, receiver) = watch::channel(false);
        let Reservation { key } = reservation;
        let prompt = log.prompt();
        let row = RunningTurnRow {
            key: &key,
            history_id,
            user_id,
            stream_id: &log.stream_id(),
            prompt: prompt.as_deref(),
            instance_id: &self.instance_id,
        };
        // Without its conversation, a Stop sent to another instance misses the turn; it still runs here.
        if let Err(err) = store::place_running_turn(&self.pool, &row, self.lease_seconds()).await {
            tracing::warn!(?err, history = history_id, "a running turn was not recorded for other instances");
        }
        let (finished, writer_finished) = watch::channel(false);
        if self.signals.cross_instances() {
            let writer = stream_mirror::write(
                self.pool.clone(),
                self.signals.clone(),
                key.clone(),
                log.clone(),
                writer_finished,
            );
            tokio::spawn(writer);
        }
        let running = Running { key: key.clone(), finished, switch: sender.clone(), log, user_id: user_id.to_string() };
        self.switches().entry(history_id.to_string()).or_default().push(running);
        lock(&self.reserved).remove(&key);
        Registration { switch: sender, stop: receiver, key }
    }

    /// Whether the turn admitted as `key` may still run: here, or on another instance whose
    /// lease on it runs (`holder`). With one instance, nothing this instance does not hold runs;
    /// a turn without its row (forgotten when its lease lapsed) runs nowhere.
    pub fn may_still_run(&self, key: &str, holder: Option<&Holder>) -> bool {
        if lock(&self.reserved).contains(key) || self.switches().values().flatten().any(|turn| turn.key == key) {
            return true;
        }
        holder.is_some_and(|holder| {
            self.signals.cross_instances() && holder.instance_id != *self.instance_id && holder.leased
        })
    }

    /// How many turns of `user_id` are running, on any instance (waiting on a tool's question
    /// included; a turn that ended here whose row stayed is not counted).
    pub async fn count_of(&self, user_id: &str) -> AppResult<usize> {
        let ended: Vec<String> = lock(&self.ended).iter().cloned().collect();
        store::running_turns_of(&self.pool, user_id, &ended).await
    }

    /// Whether a turn runs on a conversation, here or on another instance (one waiting on a
    /// tool's question included).
    pub async fn is_running(&self, history_id: &str) -> bool {
        if self.switches().get(history_id).is_some_and(|turns| !turns.is_empty()) {
            return true;
        }
        histories::runs_elsewhere(&self.pool, history_id, None, &self.instance_id).await.unwrap_or_else(|err| {
            tracing::warn!(?err, history = history_id, "could not look for the turn on other instances");
            false
        })
    }

    /// Admits one turn at a time to a conversation: held from before a turn takes the pending
    /// ask until it is registered. On this instance only.
    pub async fn admit(&self, history_id: &str) -> Admission {
        let gate = lock(&self.admissions).entry(history_id.to_string()).or_default().clone();
        let held = gate.clone().lock_owned().await;
        Admission { admissions: self.admissions.clone(), history_id: history_id.to_string(), gate, held: Some(held) }
    }

    /// Whether a turn begun on the conversation before the one registered as `key` (by the
    /// keys' order, which is the order of time on every instance) still runs, here or on
    /// another instance, or is not saved yet (a dead instance's, until a sweeper saves its draft).
    pub async fn runs_earlier(&self, history_id: &str, key: &str) -> bool {
        let here =
            self.switches().get(history_id).is_some_and(|turns| turns.iter().any(|turn| turn.key.as_str() < key));
        // With one instance, nothing this instance does not hold runs (a dead process's rows
        // are no turn), but its draft waits for the sweeper all the same.
        here || store::unsaved_before(&self.pool, history_id, key, self.signals.cross_instances()).await.unwrap_or_else(
            |err| {
                tracing::warn!(?err, history = history_id, "could not look for earlier turns");
                // Waiting a little longer loses nothing; going ahead could store out of order.
                true
            },
        )
    }

    /// Waits until no turn begun on the conversation before the one registered as `key` runs
    /// ([`Self::runs_earlier`]): turns of one conversation store their rows in the order they
    /// began, and each model call sees the replies before it. It gives up when `stop` is
    /// flipped.
    pub async fn wait_for_earlier(&self, history_id: &str, key: &str, stop: &mut watch::Receiver<bool>) {
        while self.runs_earlier(history_id, key).await && !*stop.borrow() {
            tokio::select! {
                _ = stop.changed() => {}
                () = tokio::time::sleep(EARLIER_TURN_POLL) => {}
            }
        }
    }

    /// The log of the oldest turn streaming on a conversation (the one writing now: those after
    /// it wait for it), for a client to attach to: the turn's own when it runs here, else a
    /// replica of one running on another instance.
    pub async fn streaming(&self, history_id: &str) -> Option<Arc<TurnLog>> {
        let here = self
            .switches()
            .get(history_id)
            .and_then(|running| running.iter().find(|turn| turn.log.is_streaming()).map(|turn| turn.log.clone()));
        if here.is_some() || !self.signals.cross_instances() {
            return here;
        }
        match histories::stream_elsewhere(&self.pool, history_id, &self.instance_id).await {
            Ok(Some((stream_id, prompt))) => {
                Some(stream_mirror::follow(self.pool.clone(), &self.signals, stream_id, prompt).await)
            }
            Ok(None) => None,
            Err(err) => {
                tracing::warn!(?err, history = history_id, "could not look for the turn on other instances");
                None
            }
        }
    }

    /// Forgets a finished turn.
    pub async fn unregister(&self, history_id: &str, switch: &watch::Sender<bool>) {
        let key = {
            let mut switches = self.switches();
            let Some(running) = switches.get_mut(history_id) else { return };
            let key = running.iter().find(|current| current.switch.same_channel(switch)).map(|turn| {
                turn.finished.send_replace(true);
                turn.key.clone()
            });
            running.retain(|current| !current.switch.same_channel(switch));
            if running.is_empty() {
                switches.remove(history_id);
            }
            key
        };
        if let Some(key) = key
            && let Err(err) = histories::remove_running_turn(&self.pool, &key).await
        {
            // The housekeeper tries again; its lease runs out meanwhile, and it does not count.
            tracing::warn!(?err, history = history_id, "a finished turn's row stays for now");
            lock(&self.ended).insert(key);
        }
    }

    /// Whether Palaver is shutting down (its turns are being stopped).
    pub fn shutting_down(&self) -> bool {
        self.shutting_down.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// How many turns are running here (waiting on a tool's question included).
    pub fn count(&self) -> usize {
        self.switches().values().map(Vec::len).sum()
    }

    /// Asks every turn running here to stop (Palaver is shutting down): each saves what it has,
    /// cut off.
    pub fn stop_everything(&self) {
        self.shutting_down.store(true, std::sync::atomic::Ordering::SeqCst);
        for turn in self.switches().values().flatten() {
            let _ = turn.switch.send(true);
        }
    }

    /// Asks every turn running on a conversation to stop, here or on another instance; false
    /// when none is running.
    pub async fn stop(&self, history_id: &str) -> bool {
        let here = stop_where(&self.switches, history_id, |_| true);
        here | self.stop_elsewhere(history_id, None).await
    }

    /// Asks the one turn whose stream is `stream_id` to stop (the one a tab shows), leaving
    /// the conversation's other turns running; false when it is not running.
    pub async fn stop_stream(&self, history_id: &str, stream_id: &str) -> bool {
        let here = stop_where(&self.switches, history_id, |turn| turn.log.is_stream(stream_id));
        here | self.stop_elsewhere(history_id, Some(stream_id)).await
    }

    /// Signals the Stop to the instance that runs the turn, when another one does.
    async fn stop_elsewhere(&self, history_id: &str, stream_id: Option<&str>) -> bool {
        match histories::runs_elsewhere(&self.pool, history_id, stream_id, &self.instance_id).await {
            Ok(true) => {
                let payload =
                    stream_id.map_or_else(|| history_id.to_owned(), |stream| format!("{history_id} {stream}"));
                self.signals.send(Channel::Stop, &payload).await.is_ok()
            }
            Ok(false) => false,
            Err(err) => {
                tracing::warn!(?err, history = history_id, "could not look for the turn on other instances");
                false
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Flips every chosen switch of a conversation (no short circuit); whether any was flipped.
fn stop_where(switches: &Mutex<Switches>, history_id: &str, chosen: impl Fn(&Running) -> bool) -> bool {
    let switches = lock(switches);
    let running = switches.get(history_id).map(Vec::as_slice).unwrap_or_default();
    running.iter().filter(|turn| chosen(turn)).filter(|turn| turn.switch.send(true).is_ok()).count() > 0
}

/// What the registry's task needs: it ends once the registry is gone.
struct Housekeeper {
    /// The registry's turns, by conversation.
    switches: std::sync::Weak<Mutex<Switches>>,
    pool: Pool,
    instance_id: Arc<str>,
    lease: Duration,
    ended: Arc<Mutex<HashSet<String>>>,
    leases: LeaseHealth,
}

impl Housekeeper {
    /// Renews the lease of each turn running here (only those), and forgets lapsed ones.
    async fn renew(&self, lease_seconds: i64) {
        let held: Vec<(String, String, String, String, Option<String>)> = match self.switches.upgrade() {
            Some(switches) => lock(&switches)
                .iter()
                .flat_map(|(history_id, turns)| {
                    turns.iter().map(move |turn| {
                        let (stream, prompt) = (turn.log.stream_id(), turn.log.prompt());
                        (turn.key.clone(), history_id.clone(), turn.user_id.clone(), stream, prompt)
                    })
                })
                .collect(),
            None => return,
        };
        let mut failed = false;
        for (key, history_id, user_id, stream_id, prompt) in &held {
            let row = RunningTurnRow {
                key,
                history_id,
                user_id,
                stream_id,
                prompt: prompt.as_deref(),
                instance_id: &self.instance_id,
            };
            failed |= store::place_running_turn(&self.pool, &row, lease_seconds).await.is_err();
        }
        self.leases.record(failed, held.len());
        let ended: Vec<String> = lock(&self.ended).iter().cloned().collect();
        for key in ended {
            if histories::remove_running_turn(&self.pool, &key).await.is_ok() {
                lock(&self.ended).remove(&key);
            }
        }
        match histories::forget_lapsed(&self.pool).await {
            Ok(0) => {}
            Ok(lapsed) => tracing::info!(lapsed, "forgot the turns of an instance that stopped renewing them"),
            Err(err) => tracing::warn!(?err, "lapsed turns were not forgotten"),
        }
    }
}

/// Renews this instance's leases and forgets lapsed ones; carries out the Stops other
/// instances signal.
async fn keep_up(housekeeper: Housekeeper, mut signals: broadcast::Receiver<Signal>) {
    let mut renew = tokio::time::interval(housekeeper.lease / 3);
    let lease_seconds = crate::db::seconds(housekeeper.lease);
    loop {
        if housekeeper.switches.strong_count() == 0 || housekeeper.pool.is_closed() {
            return;
        }
        let signal = tokio::select! {
            signal = signals.recv() => signal,
            _ = renew.tick() => {
                housekeeper.renew(lease_seconds).await;
                continue;
            }
        };
        let Some(switches) = housekeeper.switches.upgrade() else { return };
        match signal {
            Ok(Signal { channel: Channel::Stop, payload }) => {
                let (history_id, stream_id) =
                    payload.split_once(' ').map_or((payload.as_str(), None), |(h, s)| (h, Some(s)));
                stop_where(&switches, history_id, |turn| stream_id.is_none_or(|stream| turn.log.is_stream(stream)));
            }
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A turn admitted and registered on `history_id`.
    async fn register(running: &RunningTurns, history_id: &str, user_id: &str, log: Arc<TurnLog>) -> Registration {
        let reservation = running.reserve(user_id, 100).await.unwrap();
        running.register(reservation, history_id, user_id, log).await
    }

    async fn registry(dir: &tempfile::TempDir) -> RunningTurns {
        let pool = crate::db::connect(&crate::db::scratch_url(dir.path()).await.unwrap()).await.unwrap();
        RunningTurns::new(pool, Signals::local(), Duration::from_secs(15))
    }

    #[tokio::test]
    async fn racing_reservations_take_exactly_the_cap_and_a_refused_one_leaves_no_place() {
        let dir = tempfile::tempdir().unwrap();
        let running = registry(&dir).await;
        // A real user: on PostgreSQL her row is the lock admissions take turns on.
        let role = palaver_wire::accounts::Role::User;
        let ada = crate::accounts::store::create_user(&running.pool, "ada", "hash", role).await.unwrap().id;
        let reservations = (0..64).map(|_| {
            let (running, ada) = (running.clone(), ada.clone());
            tokio::spawn(async move { running.reserve(&ada, 8).await })
        });
        let mut taken = 0;
        for reservation in reservations.collect::<Vec<_>>() {
            match reservation.await.unwrap().map_err(crate::error::Error::into_kind) {
                Ok(_) => taken += 1,
                Err(AppError::TooManyRequests { .. }) => {}
                Err(other) => panic!("a reservation failed otherwise: {other:?}"),
            }
        }
        assert_eq!(taken, 8);
        assert_eq!(running.count_of(&ada).await.unwrap(), 8, "no refused reservation holds a place");
    }

    #[tokio::test]
    async fn one_turn_at_a_time_is_admitted_to_a_conversation_and_its_gate_goes_after() {
        let dir = tempfile::tempdir().unwrap();
        let running = registry(&dir).await;
        let first = running.admit("h1").await;
        let other = running.admit("h2").await;
        let second = tokio::spawn({
            let running = running.clone();
            async move { running.admit("h1").await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!second.is_finished(), "the second waits for the first");
        drop(first);
        drop(second.await.unwrap());
        drop(other);
        assert!(lock(&running.admissions).is_empty(), "no gate is kept for a conversation nobody enters");
    }

    #[tokio::test]
    async fn a_turn_waits_for_the_turns_begun_before_it_and_not_for_later_ones() {
        let dir = tempfile::tempdir().unwrap();
        let running = registry(&dir).await;
        let log = || TurnLog::new("t", None);
        let first = register(&running, "h1", "ada", log()).await;
        let second = register(&running, "h1", "ada", log()).await;
        assert!(running.runs_earlier("h1", &second.key).await);
        assert!(!running.runs_earlier("h1", &first.key).await, "the first waits for nobody");
        running.unregister("h1", &first.switch).await;
        let mut stop = second.stop.clone();
        running.wait_for_earlier("h1", &second.key, &mut stop).await;
        assert!(!running.runs_earlier("h1", &second.key).await, "nothing before it now");
    }

    #[tokio::test]
    async fn a_stop_reaches_every_turn_of_the_conversation_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        let running = registry(&dir).await;
        let log = || TurnLog::new("t", None);
        let Registration { switch: first, stop: first_stop, .. } = register(&running, "h1", "ada", log()).await;
        let second_stop = register(&running, "h1", "ada", log()).await.stop;
        let other_stop = register(&running, "h2", "bob", log()).await.stop;
        assert_eq!(
            (running.count_of("ada").await.unwrap(), running.count_of("bob").await.unwrap(), running.count()),
            (2, 1, 3)
        );
        assert!(running.stop("h1").await);
        assert!(*first_stop.borrow() && *second_stop.borrow());
        assert!(!*other_stop.borrow());
        running.unregister("h1", &first).await;
        assert_eq!(running.count_of("ada").await.unwrap(), 1, "its row went with it");
        assert!(running.stop("h1").await, "the second turn still runs");
        assert!(!running.stop("h3").await);
    }

    #[tokio::test]
    async fn a_stop_that_names_a_stream_stops_that_turn_only() {
        let dir = tempfile::tempdir().unwrap();
        let running = registry(&dir).await;
        let one_stop = register(&running, "h1", "ada", TurnLog::new("t1", None)).await.stop;
        let two_stop = register(&running, "h1", "ada", TurnLog::new("t2", None)).await.stop;
        assert!(running.stop_stream("h1", "t2").await);
        assert!(*two_stop.borrow() && !*one_stop.borrow(), "the other tab's turn goes on");
        assert!(!running.stop_stream("h1", "t9").await);
        assert!(!running.stop_stream("h2", "t1").await);
    }

    #[tokio::test]
    async fn a_stop_sent_to_one_instance_reaches_the_turn_on_another() {
        let dir = tempfile::tempdir().unwrap();
        let here = registry(&dir).await;
        let signals = here.signals.clone();
        // A second instance on the same database, hearing the same signals.
        let there = RunningTurns::new(here.pool.clone(), signals, Duration::from_secs(15));
        let stopped = register(&there, "h1", "ada", TurnLog::new("t1", None)).await.stop;
        assert_eq!(here.count_of("ada").await.unwrap(), 1, "counted on every instance");
        assert!(here.stop("h1").await, "found on the other instance");
        let mut stopped = stopped;
        tokio::time::timeout(Duration::from_secs(5), stopped.wait_for(|stop| *stop)).await.unwrap().unwrap();
    }

    #[tokio::test]
    async fn the_turns_of_an_instance_that_stopped_renewing_them_no_longer_count() {
        let dir = tempfile::tempdir().unwrap();
        let here = registry(&dir).await;
        let gone = RunningTurns::new(here.pool.clone(), Signals::local(), Duration::from_secs(1));
        let _turn = register(&gone, "h1", "ada", TurnLog::new("t1", None)).await;
        let pool = gone.pool.clone();
        drop(gone);
        assert_eq!(here.count_of("ada").await.unwrap(), 1);
        tokio::time::sleep(Duration::from_millis(1200)).await;
        assert_eq!(here.count_of("ada").await.unwrap(), 0, "its lease ran out");
        assert!(!here.stop("h1").await);
        assert_eq!(histories::forget_lapsed(&pool).await.unwrap(), 1, "and its row is forgotten");
    }

    #[tokio::test]
    async fn a_finished_turn_whose_row_stayed_no_longer_counts_here() {
        let dir = tempfile::tempdir().unwrap();
        let here = registry(&dir).await;
        let turn = register(&here, "h1", "ada", TurnLog::new("t1", None)).await;
        assert_eq!(here.count_of("ada").await.unwrap(), 1);
        // The row could not be removed (the database was busy): it stays until its lease ends.
        sqlx::query("ALTER TABLE running_turns RENAME TO running_turns_kept").execute(&here.pool).await.unwrap();
        here.unregister("h1", &turn.switch).await;
        sqlx::query("ALTER TABLE running_turns_kept RENAME TO running_turns").execute(&here.pool).await.unwrap();
        let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM running_turns").fetch_one(&here.pool).await.unwrap();
        assert_eq!(rows, 1, "the row stayed");
        assert_eq!(here.count_of("ada").await.unwrap(), 0, "a turn that ended here is not counted");
    }
}
