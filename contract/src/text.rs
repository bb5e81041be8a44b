//! Text helpers shared by the contracts and the UI. Lengths here are UTF-16 code units, the unit
//! the spec counts in (a JavaScript string's `length`), so most emoji count as two.

use std::fmt;

/// The length of `text` in UTF-16 code units.
pub fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// Whether `text` is at most `max` UTF-16 units long, counting no further than `max`.
fn fits_utf16(text: &str, max: usize) -> bool {
    // UTF-8 takes at least as many bytes as UTF-16 takes units: most text fits uncounted.
    if text.len() <= max {
        return true;
    }
    let mut units = 0;
    text.chars().all(|ch| {
        units += ch.len_utf16();
        units <= max
    })
}

/// Whether JavaScript's `trim()` drops `ch`: whitespace and U+FEFF.
fn is_trimmed(ch: char) -> bool {
    ch.is_whitespace() || ch == '\u{feff}'
}

/// Trims whitespace at both ends as JavaScript's `trim()` does (which also drops U+FEFF).
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_trimmed)
}

/// JavaScript's `String(n)` for a number: whole numbers print without ".0".
pub fn js_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e21 { format!("{}", value as i64) } else { format!("{value}") }
}

/// JavaScript's `x.toFixed(digits)`: ties round away from zero, on the exact binary value.
pub fn js_to_fixed(value: f64, digits: usize) -> String {
    if !value.is_finite() || value.abs() >= 1e21 {
        return js_number(value);
    }
    // Enough digits to hold the exact expansion of any tie at `digits` places.
    let exact = format!("{:.*}", digits + 60, value.abs());
    let cut = exact.len() - 60;
    let is_tie = exact[cut..].starts_with('5') && exact[cut + 1..].bytes().all(|byte| byte == b'0');
    let rounded = if is_tie {
        let scale = 10f64.powi(digits as i32);
        let kept: f64 = exact[..cut].trim_end_matches('.').parse().unwrap_or(0.0);
        format!("{:.*}", digits, (kept * scale + 1.0).round() / scale)
    } else {
        format!("{:.*}", digits, value.abs())
    };
    let is_zero = rounded.bytes().all(|byte| byte == b'0' || byte == b'.');
    if value < 0.0 && !is_zero { format!("-{rounded}") } else { rounded }
}

/// Whether `text` has something other than whitespace in it.
pub fn is_visible(text: &str) -> bool {
    // Stops at the first visible character (most often the first): trimming would also
    // scan back from the end.
    !text.chars().all(is_trimmed)
}

/// Cuts `text` to at most `max` UTF-16 units, ending in "…" when it had to cut.
///
/// The cut never splits a character (so never an emoji's surrogate pair) and falls on the last
/// word boundary when that boundary lies in the second half of the kept text; a long single
/// word is cut hard. Text that fits is returned unchanged.
pub fn shorten(text: &str, max: usize) -> String {
    let short = shortened(text, max);
    [short.kept, short.tail()].concat()
}

/// [`shorten`]'s result before it is copied: the text kept, and whether "…" follows it.
/// Comparing these compares the shortened texts, so callers that only compare need not allocate.
#[derive(Clone, Copy, Debug)]
pub struct Shortened<'a> {
    kept: &'a str,
    cut: bool,
}

impl Shortened<'_> {
    fn tail(&self) -> &'static str {
        if self.cut { "…" } else { "" }
    }
}

impl PartialEq for Shortened<'_> {
    fn eq(&self, other: &Self) -> bool {
        // "a…" (cut) and a label that is literally "a…" read the same, so compare the texts.
        let text = |shortened: &Self| shortened.kept.bytes().chain(shortened.tail().bytes());
        self.kept.len() + self.tail().len() == other.kept.len() + other.tail().len() && text(self).eq(text(other))
    }
}

impl fmt::Display for Shortened<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kept)?;
        f.write_str(self.tail())
    }
}

/// [`shorten`] without the copy.
pub fn shortened(text: &str, max: usize) -> Shortened<'_> {
    if fits_utf16(text, max) {
        return Shortened { kept: text, cut: false };
    }
    let budget = max.saturating_sub(1);
    // Byte index where the kept text ends: the last whole character within `budget` units.
    let mut units = 0;
    let mut end = 0;
    for (index, ch) in text.char_indices() {
        if units + ch.len_utf16() > budget {
            break;
        }
        units += ch.len_utf16();
        end = index + ch.len_utf8();
    }
    let mut kept = &text[..end];
    let cut_mid_word = text[end..].chars().next().is_some_and(|ch| !ch.is_whitespace());
    if cut_mid_word
        && let Some(space) = kept.rfind(char::is_whitespace)
        && utf16_len(&kept[..space]) >= max / 2
    {
        kept = &kept[..space];
    }
    Shortened { kept: kept.trim_end(), cut: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn to_fixed_rounds_ties_away_from_zero() {
        assert_eq!(js_to_fixed(2.5, 0), "3");
        assert_eq!(js_to_fixed(-2.5, 0), "-3");
        assert_eq!(js_to_fixed(0.125, 2), "0.13");
        assert_eq!(js_to_fixed(1.005, 2), "1.00");
        assert_eq!(js_to_fixed(2.0, 1), "2.0");
        assert_eq!(js_to_fixed(1500.0, 0), "1500");
        assert_eq!(js_to_fixed(-0.0001, 2), "0.00");
    }

    #[test]
    fn fits_unchanged() {
        assert_eq!(shorten("Team", 20), "Team");
        assert_eq!(shorten("  spaced  ", 20), "  spaced  ");
    }

    #[test]
    fn cuts_on_a_word_boundary_in_the_second_half() {
        assert_eq!(shorten("Support basics for small teams", 20), "Support basics for…");
        assert_eq!(shorten("Support with escalation paths", 20), "Support with…");
        assert_eq!(
            shorten("Pick the onboarding checklist for the new support team", 40),
            "Pick the onboarding checklist for the…"
        );
    }

    #[test]
    fn never_splits_an_emoji() {
        assert_eq!(shorten("Go team 🎉🎉🎉🎉🎉🎉🎉 now", 20), "Go team 🎉🎉🎉🎉🎉…");
    }

    #[test]
    fn shortened_texts_compare_as_text() {
        assert_eq!(shortened("Support basics for small teams", 20), shortened("Support basics for…", 20));
        assert_ne!(shortened("Support basics for small teams", 20), shortened("Support basics for", 20));
        assert_eq!(shortened("Team", 20), shortened("Team", 4));
    }

    #[test]
    fn cuts_a_long_word_hard() {
        let long = "t".repeat(80);
        let cut = shorten(&long, 40);
        assert_eq!(cut, format!("{}…", "t".repeat(39)));
        assert_eq!(utf16_len(&cut), 40);
    }
}
