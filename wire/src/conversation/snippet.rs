//! A search result's snippet: the words around where a message matches, the match marked, so
//! the list shows why a conversation was found.

use serde::{Deserialize, Serialize};

/// The words around a match: `before`, the `matched` text as the message writes it, `after`
/// (an ellipsis where the message was cut).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snippet {
    pub before: String,
    pub matched: String,
    pub after: String,
}

/// How many characters a snippet shows before its match, at most.
const BEFORE: usize = 30;

/// The snippet of `text` around its first match of `needle` (letter case ignored), about
/// `width` characters long, on one line; `None` when it does not match.
pub fn snippet_around(text: &str, needle: &str, width: usize) -> Option<Snippet> {
    let chars: Vec<char> = text.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
    let wanted: Vec<char> = needle.trim().chars().collect();
    if wanted.is_empty() {
        return None;
    }
    let same = |a: &char, b: &char| a == b || a.to_lowercase().eq(b.to_lowercase());
    let start = (0..chars.len()).find(|at| {
        chars.len() - at >= wanted.len() && chars[*at..*at + wanted.len()].iter().zip(&wanted).all(|(a, b)| same(a, b))
    })?;
    let end = start + wanted.len();
    let from = start.saturating_sub(BEFORE);
    // Cut at a space where there is one, so no word is shown in part.
    let from =
        if from == 0 { 0 } else { chars[from..start].iter().position(|c| *c == ' ').map_or(from, |at| from + at + 1) };
    let until = (end + width.saturating_sub(end - from)).min(chars.len());
    let until = if until == chars.len() {
        until
    } else {
        chars[end..until].iter().rposition(|c| *c == ' ').map_or(until, |at| end + at)
    };
    let text_of = |part: &[char]| part.iter().collect::<String>();
    let squeeze = |text: String| text.split(' ').filter(|word| !word.is_empty()).collect::<Vec<_>>().join(" ");
    let before = squeeze(text_of(&chars[from..start]));
    let after = squeeze(text_of(&chars[end..until]));
    let space_before = start > from && chars[start - 1] == ' ';
    let space_after = until > end && chars[end] == ' ';
    Some(Snippet {
        before: format!("{}{before}{}", if from > 0 { "…" } else { "" }, if space_before { " " } else { "" }),
        matched: text_of(&chars[start..end]),
        after: format!("{}{after}{}", if space_after { " " } else { "" }, if until < chars.len() { "…" } else { "" }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(snippet: &Snippet) -> String {
        format!("{}[{}]{}", snippet.before, snippet.matched, snippet.after)
    }

    #[test]
    fn the_match_is_marked_as_the_message_writes_it_with_whole_words_around() {
        let text = "We sailed on Tuesday.\nBoats leave every hour from the north pier, and the last one at ten.";
        let snippet = snippet_around(text, "boats", 60).unwrap();
        assert_eq!(shown(&snippet), "We sailed on Tuesday. [Boats] leave every hour from the north…");
        let long = format!("{} and then the boats came in", "word ".repeat(20));
        assert_eq!(shown(&snippet_around(&long, "boats", 40).unwrap()), "…word word word and then the [boats] came…");
        assert_eq!(shown(&snippet_around("Boats", "BOATS", 60).unwrap()), "[Boats]");
        assert_eq!(shown(&snippet_around("Über alles", "über", 60).unwrap()), "[Über] alles");
        assert_eq!(snippet_around("nothing here", "boats", 60), None);
        assert_eq!(snippet_around("anything", "  ", 60), None);
    }
}
