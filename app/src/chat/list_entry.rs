//! The conversation list follows the live events one entry at a time: a turn that ended moves
//! its conversation to the top, a rename retitles it, and only what one entry cannot show (a
//! conversation new to the list or to its first words, deleted, pinned, archived or shared)
//! reads the list again.

use palaver_wire::conversation::model::HistorySummary;
use palaver_wire::live::{HistoryChange, LiveEvent};

/// What an event did to the list's first page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ListChange {
    /// The entry it names changed in place.
    Entry,
    /// The list must be read again to show it.
    ReadAgain,
    /// It says nothing the list shows.
    Nothing,
}

/// Applies `event` to the list's first page (`list`, most recently active first), at `now_ms`.
pub(super) fn follow_event(list: &mut Vec<HistorySummary>, event: &LiveEvent, now_ms: i64) -> ListChange {
    match event {
        LiveEvent::TurnDone(done) => match list.iter().position(|entry| entry.id == done.history_id) {
            // A conversation's first turn gives its entry the words it is named by.
            Some(at) if list[at].title.is_none() && list[at].first_message.is_none() => ListChange::ReadAgain,
            Some(at) => {
                let mut entry = list.remove(at);
                entry.updated = iso_moment(now_ms);
                list.insert(0, entry);
                ListChange::Entry
            }
            None => ListChange::ReadAgain,
        },
        LiveEvent::HistoryChanged(changed) if changed.change == HistoryChange::Renamed => {
            match list.iter_mut().find(|entry| entry.id == changed.history_id) {
                Some(entry) => {
                    entry.title.clone_from(&changed.title);
                    ListChange::Entry
                }
                None => ListChange::Nothing,
            }
        }
        LiveEvent::HistoryChanged(_) | LiveEvent::Resync(_) => ListChange::ReadAgain,
        _ => ListChange::Nothing,
    }
}

/// A moment as the server writes one: ISO 8601 UTC with milliseconds.
fn iso_moment(epoch_ms: i64) -> String {
    let (days, ms) = (epoch_ms.div_euclid(86_400_000), epoch_ms.rem_euclid(86_400_000));
    // The civil date of a day count (Howard Hinnant's days_from_civil, inverted).
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (hours, minutes, seconds, millis) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1_000 % 60, ms % 1_000);
    format!("{year:04}-{month:02}-{day:02}T{hours:02}:{minutes:02}:{seconds:02}.{millis:03}Z")
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_wire::conversation::deadline::epoch_ms;
    use palaver_wire::live::{HistoryChanged, HistoryRef, TurnDone};

    fn entry(id: &str) -> HistorySummary {
        HistorySummary {
            id: id.into(),
            title: Some(format!("Conversation {id}")),
            created: "2026-01-01T00:00:00.000Z".into(),
            updated: "2026-01-01T00:00:00.000Z".into(),
            first_message: None,
            snippet: None,
            shelf: Default::default(),
        }
    }

    fn ids(list: &[HistorySummary]) -> Vec<&str> {
        list.iter().map(|entry| entry.id.as_str()).collect()
    }

    #[test]
    fn a_finished_turn_moves_its_entry_to_the_top_and_a_rename_retitles_it() {
        let mut list = vec![entry("a"), entry("b"), entry("c")];
        let now = epoch_ms("2026-12-06T17:39:33.250Z").unwrap();
        let done = LiveEvent::TurnDone(TurnDone { history_id: "c".into(), pending_ask: None });
        assert_eq!(follow_event(&mut list, &done, now), ListChange::Entry);
        assert_eq!(ids(&list), ["c", "a", "b"]);
        assert_eq!(list[0].updated, "2026-12-06T17:39:33.250Z");
        let renamed = LiveEvent::HistoryChanged(HistoryChanged {
            history_id: "a".into(),
            change: HistoryChange::Renamed,
            title: Some("Plans".into()),
        });
        assert_eq!(follow_event(&mut list, &renamed, now), ListChange::Entry);
        assert_eq!(list[1].title.as_deref(), Some("Plans"));
    }

    #[test]
    fn what_one_entry_cannot_show_reads_the_list_again() {
        let mut list = vec![entry("a")];
        let elsewhere = LiveEvent::TurnDone(TurnDone { history_id: "z".into(), pending_ask: None });
        assert_eq!(follow_event(&mut list, &elsewhere, 0), ListChange::ReadAgain);
        let created = LiveEvent::HistoryChanged(HistoryChanged {
            history_id: "n".into(),
            change: HistoryChange::Created,
            title: None,
        });
        assert_eq!(follow_event(&mut list, &created, 0), ListChange::ReadAgain);
        let unnamed = HistorySummary { title: None, ..entry("u") };
        let mut named_later = vec![unnamed];
        let first_turn = LiveEvent::TurnDone(TurnDone { history_id: "u".into(), pending_ask: None });
        assert_eq!(follow_event(&mut named_later, &first_turn, 0), ListChange::ReadAgain);
        let started = LiveEvent::TurnStarted(HistoryRef { history_id: "a".into() });
        assert_eq!(follow_event(&mut list, &started, 0), ListChange::Nothing);
        assert_eq!(ids(&list), ["a"]);
    }

    #[test]
    fn moments_are_written_as_the_server_writes_them() {
        for moment in ["1970-01-01T00:00:00.000Z", "2000-02-29T23:59:59.999Z", "2026-12-31T12:00:00.001Z"] {
            assert_eq!(iso_moment(epoch_ms(moment).unwrap()), moment);
        }
    }
}
