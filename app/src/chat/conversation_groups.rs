//! The conversation list's groups: the pinned conversations first, then the others by when each
//! was last active in the reader's time zone: Today, Yesterday, Previous 7 days, Previous 30
//! days, Older.

use palaver_wire::conversation::deadline::epoch_ms;
use palaver_wire::conversation::model::HistorySummary;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The reader's clock: now, and their offset from UTC in minutes (east is positive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ReaderClock {
    pub now_ms: i64,
    pub offset_minutes: i64,
}

impl ReaderClock {
    /// The reader's calendar day of a moment, counted from 1970.
    fn day(self, at_ms: i64) -> i64 {
        (at_ms + self.offset_minutes * 60_000).div_euclid(DAY_MS)
    }

    /// The group of a conversation last active at `at_ms`.
    fn group(self, at_ms: i64) -> &'static str {
        match self.day(self.now_ms) - self.day(at_ms) {
            ..=0 => "Today",
            1 => "Yesterday",
            2..=7 => "Previous 7 days",
            8..=30 => "Previous 30 days",
            _ => "Older",
        }
    }
}

/// A heading (none before the reader's clock is known) and its conversations.
pub(super) type Group = (Option<&'static str>, Vec<HistorySummary>);

/// The list (most recently active first) in its groups, in order, each in the list's order: the
/// pinned ones, then the date groups; the others in one group without a heading until the
/// reader's clock is known (the server does not know the reader's day). No group is empty.
pub(super) fn list_groups(list: Vec<HistorySummary>, clock: Option<ReaderClock>) -> Vec<Group> {
    let (pinned, others): (Vec<_>, Vec<_>) = list.into_iter().partition(|conversation| conversation.shelf.pinned);
    let pinned = (!pinned.is_empty()).then_some((Some("Pinned"), pinned));
    pinned.into_iter().chain(date_groups(others, clock)).collect()
}

fn date_groups(list: Vec<HistorySummary>, clock: Option<ReaderClock>) -> Vec<Group> {
    let Some(clock) = clock else {
        return if list.is_empty() { Vec::new() } else { vec![(None, list)] };
    };
    let mut groups: Vec<Group> = Vec::new();
    for conversation in list {
        let group = epoch_ms(&conversation.updated).map_or("Older", |at| clock.group(at));
        match groups.last_mut() {
            Some((Some(last), entries)) if *last == group => entries.push(conversation),
            _ => groups.push((Some(group), vec![conversation])),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updated(iso: &str) -> HistorySummary {
        HistorySummary {
            id: iso.into(),
            title: None,
            created: iso.into(),
            updated: iso.into(),
            first_message: None,
            snippet: None,
            shelf: Default::default(),
        }
    }

    #[test]
    fn conversations_fall_in_the_readers_days() {
        // 6 Dec 2026, 00:30 in Berlin (UTC+1) is still 5 Dec in UTC.
        let clock = ReaderClock { now_ms: epoch_ms("2026-12-05T23:30:00Z").unwrap(), offset_minutes: 60 };
        let list = [
            "2026-12-05T23:10:00Z",
            "2026-12-05T22:50:00Z",
            "2026-12-05T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-20T10:00:00Z",
            "2025-01-01T10:00:00Z",
        ]
        .map(updated)
        .to_vec();
        let groups: Vec<(Option<&str>, usize)> =
            list_groups(list.clone(), Some(clock)).into_iter().map(|(group, entries)| (group, entries.len())).collect();
        assert_eq!(
            groups,
            [
                (Some("Today"), 1),
                (Some("Yesterday"), 2),
                (Some("Previous 7 days"), 1),
                (Some("Previous 30 days"), 1),
                (Some("Older"), 1)
            ]
        );
        assert_eq!(list_groups(list, None).len(), 1, "no headings before the reader's clock is known");
    }

    #[test]
    fn pinned_conversations_come_first_in_their_own_group() {
        let clock = ReaderClock { now_ms: epoch_ms("2026-12-05T12:00:00Z").unwrap(), offset_minutes: 0 };
        let mut list = ["2026-12-05T11:00:00Z", "2026-12-04T11:00:00Z", "2026-11-01T11:00:00Z"].map(updated).to_vec();
        list[2].shelf.pinned = true;
        let groups = list_groups(list.clone(), Some(clock));
        let names: Vec<(Option<&str>, Vec<&str>)> = groups
            .iter()
            .map(|(group, entries)| (*group, entries.iter().map(|entry| entry.id.as_str()).collect()))
            .collect();
        assert_eq!(
            names,
            [
                (Some("Pinned"), vec!["2026-11-01T11:00:00Z"]),
                (Some("Today"), vec!["2026-12-05T11:00:00Z"]),
                (Some("Yesterday"), vec!["2026-12-04T11:00:00Z"]),
            ]
        );
        let before_the_clock: Vec<Option<&str>> = list_groups(list, None).into_iter().map(|(group, _)| group).collect();
        assert_eq!(before_the_clock, [Some("Pinned"), None]);
        assert!(list_groups(Vec::new(), None).is_empty(), "no empty group");
    }
}
