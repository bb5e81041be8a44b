//! Paths of this site: the only places a log-in's `next` or a block's `open` route may lead.

/// Whether `path` is a path of this site: one `/` not followed by `/` or `\`, and no `\`,
/// whitespace or control character anywhere. Browsers drop tabs and newlines from a URL and
/// read `\` as `/`, so `/\t/evil.example` and `/\evil.example` both name another host; with
/// those characters ruled out, what is left resolves to the site's own origin.
pub fn is_site_path(path: &str) -> bool {
    let mut chars = path.chars();
    chars.next() == Some('/')
        && !matches!(chars.next(), Some('/' | '\\'))
        && !path.chars().any(|ch| ch == '\\' || ch.is_whitespace() || ch.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_of_this_site() {
        for path in ["/", "/settings", "/?c=abc", "/watch#top", "/a//b", "/a/%5Cb", "/é"] {
            assert!(is_site_path(path), "{path:?}");
        }
    }

    #[test]
    fn paths_that_leave_or_are_not_paths() {
        for path in [
            "",
            "settings",
            "//evil.example/",
            "/\\evil.example/",
            "\\/evil.example/",
            "/\t/evil.example/",
            "/\n/evil.example/",
            "/\r/evil.example",
            " /settings",
            "/settings ",
            "/a\\b",
            "/\u{0}x",
            "/\u{a0}/evil.example",
            "https://evil.example/",
            "javascript:alert(1)",
        ] {
            assert!(!is_site_path(path), "{path:?}");
        }
    }

    proptest::proptest! {
        /// Checked against a WHATWG URL parser: whatever is accepted resolves to the same origin.
        #[test]
        fn accepted_paths_resolve_to_the_same_origin(path in "/[ -~\t\n\r\u{a0}\u{3000}é]{0,12}") {
            let base = url::Url::parse("https://palaver.example/").unwrap();
            if is_site_path(&path) {
                proptest::prop_assert_eq!(base.join(&path).unwrap().origin(), base.origin());
            }
        }
    }
}
