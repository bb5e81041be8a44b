//! Whether this instance keeps its running turns' leases: when it cannot renew them (its
//! database is out of reach), another instance may take its turns for dead once they lapse.
//! It says so once in its log when that starts and when it ends, and `/health` shows it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// The renewals' state, shared by the housekeeper that renews and `/health` that reports.
#[derive(Clone, Default)]
pub struct LeaseHealth {
    /// Since when renewals fail.
    failing_since: Arc<Mutex<Option<SystemTime>>>,
}

impl LeaseHealth {
    /// Records one round of renewals of `turns` leases (`failed`: some were not renewed; the
    /// database error is logged where it happened).
    pub(super) fn record(&self, failed: bool, turns: usize) {
        let mut failing_since = self.failing_since.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match (failed, *failing_since) {
            (true, None) => {
                tracing::error!(
                    turns,
                    "cannot renew the running turns' leases: another instance may take them for dead once they lapse"
                );
                *failing_since = Some(SystemTime::now());
            }
            (false, Some(since)) => {
                let seconds = since.elapsed().unwrap_or_default().as_secs();
                tracing::warn!(seconds, "the running turns' leases are renewed again");
                *failing_since = None;
            }
            _ => {}
        }
    }

    /// How long renewals have failed, while they do.
    pub fn failing_for(&self) -> Option<Duration> {
        let failing_since = *self.failing_since.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        failing_since.map(|since| since.elapsed().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failing_renewal_is_reported_until_one_succeeds() {
        let health = LeaseHealth::default();
        assert!(health.failing_for().is_none());
        health.record(true, 2);
        health.record(true, 2);
        assert!(health.failing_for().is_some());
        health.record(false, 2);
        assert!(health.failing_for().is_none());
    }
}
