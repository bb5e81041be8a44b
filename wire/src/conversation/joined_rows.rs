//! The windows of a conversation the chat has read, joined into one view: rows read before a
//! window go in front of it, and the rows a turn added replace its end.

use super::model::HistoryView;
use super::window::RowWindow;

impl HistoryView {
    /// Puts the rows of `earlier` (the window that ends where this one begins) in front of these.
    /// False, changing nothing, when it does not end there.
    pub fn join_earlier(&mut self, earlier: HistoryView) -> bool {
        let (Some(mine), Some(theirs)) = (self.window.as_mut(), earlier.window) else { return false };
        if theirs.first_row + earlier.rows.len() != mine.first_row || earlier.id != self.id {
            return false;
        }
        *mine = RowWindow { first_row: theirs.first_row, earlier: theirs.earlier, latest: mine.latest };
        self.rows.splice(0..0, earlier.rows);
        self.row_times.splice(0..0, earlier.row_times);
        self.ratings.extend(earlier.ratings);
        self.branches.extend(earlier.branches);
        true
    }

    /// Takes in `later`, read from this window's `latest`: its rows replace these from where
    /// they begin, and what belongs to the whole conversation (its title, the ask it waits on,
    /// whether a turn runs…) is as `later` was read. False, changing nothing, when `later` does
    /// not begin within these rows (the conversation changed further back: read it anew).
    pub fn join_later(&mut self, mut later: HistoryView) -> bool {
        let (Some(mine), Some(theirs)) = (self.window, later.window) else { return false };
        let Some(kept) = theirs.first_row.checked_sub(mine.first_row).filter(|kept| *kept <= self.rows.len()) else {
            return false;
        };
        if later.id != self.id {
            return false;
        }
        let mut rows = std::mem::take(&mut self.rows);
        let mut row_times = std::mem::take(&mut self.row_times);
        let mut ratings = std::mem::take(&mut self.ratings);
        let mut branches = std::mem::take(&mut self.branches);
        rows.truncate(kept);
        row_times.truncate(kept);
        ratings.retain(|row, _| *row < theirs.first_row);
        branches.retain(|row, _| *row < theirs.first_row);
        rows.append(&mut later.rows);
        row_times.append(&mut later.row_times);
        ratings.append(&mut later.ratings);
        branches.append(&mut later.branches);
        *self = HistoryView {
            rows,
            row_times,
            ratings,
            branches,
            window: Some(RowWindow { first_row: mine.first_row, earlier: mine.earlier, latest: theirs.latest }),
            ..later
        };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversation::model::{HistoryRow, Rating};

    fn window(first_row: usize, texts: &[&str], latest: i64) -> HistoryView {
        HistoryView {
            id: "h".into(),
            rows: texts
                .iter()
                .map(|text| HistoryRow::User { text: (*text).into(), attachments: Vec::new(), from_app: None })
                .collect(),
            row_times: texts.iter().map(|text| format!("at {text}")).collect(),
            ratings: [(first_row, Rating::Up)].into_iter().collect(),
            window: Some(RowWindow { first_row, earlier: (first_row > 0).then_some(first_row as i64), latest }),
            ..HistoryView::default()
        }
    }

    fn texts(view: &HistoryView) -> Vec<String> {
        view.rows
            .iter()
            .map(|row| match row {
                HistoryRow::User { text, .. } => text.clone(),
                _ => String::new(),
            })
            .collect()
    }

    #[test]
    fn an_earlier_window_goes_in_front_only_where_it_ends() {
        let mut view = window(2, &["c", "d"], 3);
        assert!(!view.join_earlier(window(0, &["a"], 0)), "a gap between them");
        assert!(view.join_earlier(window(0, &["a", "b"], 1)));
        assert_eq!(texts(&view), ["a", "b", "c", "d"]);
        assert_eq!(view.row_times, ["at a", "at b", "at c", "at d"]);
        assert_eq!(view.ratings.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(view.window, Some(RowWindow { first_row: 0, earlier: None, latest: 3 }));
    }

    #[test]
    fn a_later_read_replaces_the_rows_from_where_it_begins() {
        let mut view = window(2, &["c", "d", "e"], 3);
        let mut later = window(3, &["d", "e2", "f"], 5);
        later.title = Some("Renamed".into());
        later.ratings.clear();
        assert!(view.join_later(later));
        assert_eq!(texts(&view), ["c", "d", "e2", "f"]);
        assert_eq!(view.row_times.len(), 4);
        assert_eq!(view.title.as_deref(), Some("Renamed"));
        assert_eq!(view.ratings.keys().copied().collect::<Vec<_>>(), [2]);
        assert_eq!(view.window, Some(RowWindow { first_row: 2, earlier: Some(2), latest: 5 }));
        assert!(!view.join_later(window(9, &["z"], 9)), "rows missing in between: read anew");
        assert!(!view.join_later(window(1, &["b"], 1)), "it begins before these rows");
        assert_eq!(texts(&view), ["c", "d", "e2", "f"]);
    }
}
