//! A conversation's versions: editing a message or regenerating a reply keeps what followed
//! it as a version of that point (a fork), which the person can show again (`< 2/3 >`). The
//! version shown is the conversation's rows, so everything that reads them (the model's
//! replay, search, the API) sees one line; the others wait in `store`.

pub mod store;

use std::collections::{BTreeMap, HashMap};

use palaver_wire::conversation::model::Branches;
use store::StoredBranch;

/// The forks among the rows shown, by the index of the row each begins with: the rows' turns
/// (`row_turns`, in order, after a row of the turn `turn_before`: "" for none) name the fork
/// before each row.
pub fn branch_points(turn_before: &str, row_turns: &[String], stored: &[StoredBranch]) -> BTreeMap<usize, Branches> {
    let mut forks: HashMap<&str, Branches> = HashMap::new();
    for branch in stored {
        let fork = forks.entry(branch.fork_after.as_str()).or_insert(Branches { shown: 0, count: 0 });
        fork.count += 1;
        if branch.shown {
            fork.shown = usize::try_from(branch.position).unwrap_or_default();
        }
    }
    (0..row_turns.len())
        .filter(|&row| row == 0 || row_turns[row - 1] != row_turns[row])
        .filter(|&row| row > 0 || row_turns[0] != turn_before)
        .filter_map(|row| {
            let fork_after = if row == 0 { turn_before } else { row_turns[row - 1].as_str() };
            forks.get(fork_after).filter(|fork| fork.count > 1).map(|fork| (row, *fork))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(fork_after: &str, position: i64, shown: bool) -> StoredBranch {
        StoredBranch { fork_after: fork_after.into(), position, shown }
    }

    #[test]
    fn a_fork_is_found_at_the_first_row_after_its_turn() {
        let turns = ["a", "a", "b", "b", "c"].map(String::from);
        let points = branch_points("", &turns, &[stored("a", 0, false), stored("a", 1, true), stored("a", 2, false)]);
        assert_eq!(points, BTreeMap::from([(2, Branches { shown: 1, count: 3 })]));
    }

    #[test]
    fn a_fork_at_the_start_and_forks_of_versions_not_shown() {
        let turns = ["x", "y"].map(String::from);
        let stored = [stored("", 0, true), stored("", 1, false), stored("gone", 0, false), stored("gone", 1, true)];
        assert_eq!(branch_points("", &turns, &stored), BTreeMap::from([(0, Branches { shown: 0, count: 2 })]));
    }

    #[test]
    fn rows_read_from_the_middle_find_the_fork_their_first_row_begins() {
        let turns = ["b", "b", "c"].map(String::from);
        let forks = [stored("a", 0, true), stored("a", 1, false), stored("b", 0, false), stored("b", 1, true)];
        let expected = BTreeMap::from([(0, Branches { shown: 0, count: 2 }), (2, Branches { shown: 1, count: 2 })]);
        assert_eq!(branch_points("a", &turns, &forks), expected);
        assert_eq!(branch_points("b", &turns, &forks), BTreeMap::from([(2, Branches { shown: 1, count: 2 })]));
    }

    #[test]
    fn a_fork_with_one_version_is_not_shown_as_one() {
        let turns = ["a", "b"].map(String::from);
        assert!(branch_points("", &turns, &[stored("a", 0, true)]).is_empty());
    }
}
