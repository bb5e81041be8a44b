//! When a running turn's draft is stored next, and what it holds: the rows as far as the turn
//! got, and the task a call of it follows.

use std::time::{Duration, Instant};

use super::pending::held_call::HeldCall;
use palaver_wire::conversation::model::HistoryRow;

/// How far behind the stream a stored draft may be.
const DRAFT_EVERY: Duration = Duration::from_secs(1);

/// When a turn's draft was last stored, and whether the turn has gone on since.
#[derive(Default)]
pub struct DraftClock {
    written: Option<Instant>,
    /// The rows of the draft last stored: a draft that would store them again is not written.
    rows: Vec<HistoryRow>,
    /// The task a running call follows (its MCP server runs it as one), and the one last stored.
    task: Option<HeldCall>,
    written_task: Option<HeldCall>,
    /// The task ended since the draft last stored it.
    task_ended: bool,
    behind: bool,
    /// A sweeper saved the draft (it took the turn for dead): no more drafts are written, and
    /// the turn's save replaces what it stored, or says the reply was cut off.
    lost: bool,
}

impl DraftClock {
    /// The draft of `rows` (and of the task followed now) was just stored.
    pub fn written_now(&mut self, rows: Vec<HistoryRow>) {
        (self.written, self.rows, self.behind) = (Some(Instant::now()), rows, false);
        self.written_task = self.task.clone();
    }

    /// Whether the stored draft holds `rows` (and the task followed now) already.
    pub fn holds(&self, rows: &[HistoryRow]) -> bool {
        self.written.is_some() && self.rows == rows && self.task == self.written_task
    }

    /// The draft was removed with the rows saved in its place; the next one is new.
    pub fn restart(&mut self) {
        (self.written, self.rows, self.written_task) = (None, Vec::new(), None);
    }

    /// A draft is stored: the turn saves its rows in its place.
    pub fn stored(&self) -> bool {
        self.written.is_some()
    }

    pub fn mark_taken(&mut self) {
        (self.lost, self.behind) = (true, false);
    }

    /// The turn's draft was saved by a sweeper: it writes no more of them.
    pub fn is_taken(&self) -> bool {
        self.lost
    }

    /// The turn went on: the draft is behind.
    pub fn changed(&mut self) {
        self.behind = !self.lost;
    }

    /// When the draft should be stored next: `None` while it is up to date.
    pub fn due(&self) -> Option<Instant> {
        self.behind.then(|| self.written.map_or_else(Instant::now, |written| written + DRAFT_EVERY))
    }

    /// A call follows `task` now (or no task any more): stored with the next draft.
    pub fn follow(&mut self, task: Option<HeldCall>) {
        if self.task != task {
            self.task_ended |= task.is_none();
            self.task = task;
            self.changed();
        }
    }

    /// Whether a task ended since this was last asked (it is asked once the call's result row
    /// is in the turn's rows).
    pub fn take_task_ended(&mut self) -> bool {
        std::mem::take(&mut self.task_ended)
    }

    /// The task a running call follows.
    pub fn task(&self) -> Option<&HeldCall> {
        self.task.as_ref()
    }
}
