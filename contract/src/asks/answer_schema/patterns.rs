//! The text rules of answers as JSON Schema patterns: each says exactly what the contract's own
//! check accepts (the tests hold them equal), written without look-around or `\s`, `\d`, `\w`,
//! whose meaning differs between regular-expression engines, so a client checks what the server
//! checks whatever engine it runs.

use serde_json::{Value, json};

use super::super::json_schemas::{CALENDAR_DATE_PATTERN, bounded, with};

/// The characters `js_trim` drops: Unicode `White_Space` and U+FEFF.
const TRIMMED: &str = r"\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff";

/// The characters an http URL may not hold anywhere: Unicode `White_Space` and the C0/C1
/// control characters (U+0085 and U+00A0 are in the range 7F–A0).
const NOT_IN_URL: &str = r"\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";

/// Text with at least one character that is not whitespace (`is_visible`).
pub(super) fn visible() -> String {
    format!("[^{TRIMMED}]")
}

/// A string of visible text with at most `max` characters (`Checker::visible_text`).
pub(super) fn visible_text(max: usize) -> Value {
    with(bounded(max), json!({"pattern": visible()}))
}

/// Text that is empty or only whitespace: a form value that counts as unanswered (`is_blank`).
pub(super) fn blank() -> String {
    format!("^[{TRIMMED}]*$")
}

/// A real calendar date, `YYYY-MM-DD` (`is_iso_date`).
pub(super) fn date() -> String {
    format!("^{CALENDAR_DATE_PATTERN}$")
}

const HH_MM: &str = "(?:[01][0-9]|2[0-3]):[0-5][0-9]";

/// A 24-hour time, `HH:mm` (`is_hh_mm`).
pub(super) fn time() -> String {
    format!("^{HH_MM}$")
}

/// A date and time with `Z` or an offset, seconds optional (`is_iso_datetime_with_offset`).
pub(super) fn datetime() -> String {
    format!("^{CALENDAR_DATE_PATTERN}T{HH_MM}(?::[0-5][0-9](?:\\.[0-9]+)?)?(?:Z|[+-]{HH_MM})$")
}

/// An email address by the contract's rule (`is_email`): dot-separated runs of `A-Za-z0-9_'+-`
/// not ending in `'`, then dot-separated host labels and a top-level domain of letters.
pub(super) const EMAIL: &str =
    r"^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$";

/// An absolute http or https URL with a host (`is_http_url`): the host is what follows the
/// authority's last `@`, up to its first `:`, and must not be empty.
pub(super) fn http_url() -> String {
    let authority = format!("(?:[^/?#{NOT_IN_URL}]*@)?[^/?#@:{NOT_IN_URL}][^/?#@{NOT_IN_URL}]*");
    format!("^[Hh][Tt][Tt][Pp][Ss]?://{authority}(?:[/?#][^{NOT_IN_URL}]*)?$")
}

/// 7–15 digits, optionally after a `+`, with only spaces, dots, dashes and parentheses between
/// (`is_phone`).
pub(super) const PHONE: &str = r"^\+?[ ().-]*(?:[0-9][ ().-]*){7,15}$";

/// A base64 `data:` URL whose media type is `mime_type` (`parse_ask_data_url`, then the
/// media-type check): the type is read without case and spaces around it, parameters may
/// follow it, and the payload is whole base64 quads.
pub(super) fn data_url_of(mime_type: &str) -> String {
    let spaces = r"[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*";
    let any_case: String = mime_type
        .chars()
        .map(|ch| match ch {
            'a'..='z' => format!("[{}{ch}]", ch.to_ascii_uppercase()),
            '.' | '+' => format!("\\{ch}"),
            _ => ch.to_string(),
        })
        .collect();
    let quad = "[A-Za-z0-9+/]";
    format!(
        "^data:{spaces}{any_case}{spaces}(?:;[^,]*)?;[Bb][Aa][Ss][Ee]64,(?:{quad}{{4}})*(?:{quad}{{2}}==|{quad}{{3}}=)?$"
    )
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::super::super::files::parse_ask_data_url;
    use super::super::super::form_values::{
        is_email, is_hh_mm, is_http_url, is_iso_date, is_iso_datetime_with_offset, is_phone,
    };
    use super::*;
    use crate::text::is_visible;

    /// Whether `text` matches `pattern` as a JSON Schema validator reads it.
    fn matches(pattern: &str, text: &str) -> bool {
        jsonschema::draft7::new(&json!({"type": "string", "pattern": pattern}))
            .unwrap_or_else(|err| panic!("pattern {pattern} does not compile: {err}"))
            .is_valid(&json!(text))
    }

    fn holds_equal(pattern: &str, check: impl Fn(&str) -> bool, samples: impl IntoIterator<Item = String>) {
        let validator = jsonschema::draft7::new(&json!({"type": "string", "pattern": pattern})).unwrap();
        for sample in samples {
            assert_eq!(validator.is_valid(&json!(sample)), check(&sample), "{pattern} on {sample:?}");
        }
    }

    #[test]
    fn blank_and_visible_agree_with_js_trim_on_every_character() {
        let characters = (0..=0x2_ffff_u32).filter_map(char::from_u32);
        let samples: Vec<String> = characters.flat_map(|ch| [ch.to_string(), format!(" {ch} ")]).collect();
        holds_equal(&visible(), is_visible, samples.iter().cloned());
        holds_equal(&blank(), |text| !is_visible(text), samples);
        assert!(matches(&blank(), ""));
        assert!(!matches(&visible(), ""));
    }

    #[test]
    fn dates_and_times_agree_with_the_contract() {
        let mut dates = Vec::new();
        for year in ["0000", "1900", "2000", "2023", "2024", "2100", "2400", "9999"] {
            for month in 0..=13 {
                for day in 0..=32 {
                    dates.push(format!("{year}-{month:02}-{day:02}"));
                }
            }
        }
        dates.extend(["2026-1-01", "2026-10-01 ", "x2026-10-01", "26-10-01", "2026/10/01"].map(String::from));
        holds_equal(&date(), is_iso_date, dates);
        let mut times: Vec<String> = (0..=25).flat_map(|h| (0..=61).map(move |m| format!("{h:02}:{m:02}"))).collect();
        times.extend(["9:30", "09:3", "09:30:00", "0930", "09:30 "].map(String::from));
        holds_equal(&time(), is_hh_mm, times);
        let mut datetimes = Vec::new();
        for date in ["2024-02-29", "2026-02-29", "2026-10-01"] {
            for clock in ["09:30", "23:59:59", "09:30:00.123", "24:00", "09:60", "09:30:60", "09:30:00.", "09:30:5"] {
                for zone in ["Z", "+02:00", "-05:30", "+24:00", "+02:60", "", "z", "+0200", "Z+01:00"] {
                    datetimes.push(format!("{date}T{clock}{zone}"));
                }
            }
        }
        datetimes.extend(["2026-10-01 09:30Z", "2026-10-01t09:30Z", "T09:30Z", "2026-10-01T+01:00"].map(String::from));
        holds_equal(&datetime(), is_iso_datetime_with_offset, datetimes);
    }

    #[test]
    fn emails_urls_and_phones_agree_on_known_cases() {
        let emails = [
            "ada@example.com",
            "a.b+tag@mail.example.co",
            "a..b@example.com",
            "ada@example",
            ".a@x.io",
            "a.@x.io",
            "a'@x.io",
            "a'b@x.io",
            "a@-x.io",
            "a@x-.io",
            "a@x.i",
            "a@b@x.io",
            " ada@example.com",
            "a@x.io1",
        ];
        holds_equal(EMAIL, is_email, emails.map(String::from));
        let urls = [
            "https://example.com/path?q=1",
            "HTTP://example.com",
            "javascript:alert(1)",
            "ftp://example.com",
            "https://",
            "https://user@host",
            "https://a@:80",
            "https://@host",
            "https://h:80/x y",
            "http://h#f",
            "https://a@b@c/d",
            "https://:80",
            "http://ex\u{85}ample.com",
            "https://ex\u{a0}.com",
            "https://é.com",
        ];
        holds_equal(&http_url(), is_http_url, urls.map(String::from));
        let phones = [
            "+14155552671",
            "(415) 555-2671",
            "call me",
            "12345",
            "++14155552671",
            " +1415555267",
            "1234567890123456",
            "123456789012345",
            "+1 (415) 555.2671",
        ];
        holds_equal(PHONE, is_phone, phones.map(String::from));
    }

    fn data_url_fits(url: &str, mime_type: &str) -> bool {
        parse_ask_data_url(url).is_some_and(|parsed| parsed.media_type == mime_type)
    }

    #[test]
    fn data_urls_agree_on_known_cases() {
        let urls = [
            "data:image/png;base64,iVBORw0K",
            "data: IMAGE/PNG ;base64,AAAA",
            "data:image/png;charset=x;BASE64,AA==",
            "data:image/png;base64,AAA=",
            "data:image/png;base64,A===",
            "data:image/png;base64,AAAAA",
            "data:image/png,AAAA",
            "data:image/jpeg;base64,AAAA",
            "data:image/png;base64,",
            "data:image/png;base64,A=A=",
            "DATA:image/png;base64,AAAA",
            "data:image/png;base64,AA AA",
            "data:image/pngx;base64,AAAA",
            "data:text/plain;a,b;base64,AAAA",
        ];
        for mime_type in ["image/png", "application/json", "text/plain"] {
            holds_equal(&data_url_of(mime_type), |url| data_url_fits(url, mime_type), urls.map(String::from));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn emails_agree(text in "[aZ9_'+.@-]{0,6}(@[a9.-]{0,6}[a-c.]{0,3})?") {
            prop_assert_eq!(matches(EMAIL, &text), is_email(&text), "{:?}", text);
        }

        #[test]
        fn urls_agree(text in "(https?|HtTp)://[a@:/?# \u{7f}é]{0,8}") {
            prop_assert_eq!(matches(&http_url(), &text), is_http_url(&text), "{:?}", text);
        }

        #[test]
        fn phones_agree(text in r"\+?[0-9 ().+x-]{0,18}") {
            prop_assert_eq!(matches(PHONE, &text), is_phone(&text), "{:?}", text);
        }

        #[test]
        fn data_urls_agree(
            text in "data:( |\t)?(image|IMAGE|iMaGe|application)/(png|PNG|json|jpeg)( )?(;[a-z=]{0,3})?;(base64|BaSe64|x),[A-Za-z0-9+/= ]{0,9}"
        ) {
            for mime_type in ["image/png", "application/json"] {
                prop_assert_eq!(matches(&data_url_of(mime_type), &text), data_url_fits(&text, mime_type), "{:?}", text);
            }
        }
    }
}
