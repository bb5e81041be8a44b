//! The catalogs' messages, compiled when Palaver is built (`wire/build/catalogs.rs` reads the
//! Fluent files with Fluent's parser), and the formatter for them: text, variables, and
//! selectors on a count (an exact number first, then the language's plural category) or on a
//! word. The browser's download carries the messages as data and this, not a Fluent runtime.

/// Unicode's first-strong isolate and its end: what sets a value apart in a right-to-left
/// sentence, so a left-to-right name or number keeps its own order.
pub(super) const ISOLATE: (char, char) = ('\u{2068}', '\u{2069}');

/// A piece of a message.
pub(super) enum Part {
    Text(&'static str),
    Var(&'static str),
    /// `{ $var -> [key] … *[other] … }`; `default` is the starred variant's index.
    Select {
        var: &'static str,
        default: usize,
        variants: &'static [(Key, &'static [Part])],
    },
}

/// A selector variant's key.
pub(super) enum Key {
    /// `[0]`: this exact count.
    Count(i64),
    /// `[one]`: a plural category for a count, the word itself for a word.
    Name(&'static str),
}

/// One language's messages, sorted by id.
pub(super) struct Catalog {
    pub tag: &'static str,
    pub messages: &'static [(&'static str, &'static [Part])],
}

/// A catalog is its language: two are equal when their tags are.
impl PartialEq for Catalog {
    fn eq(&self, other: &Self) -> bool {
        self.tag == other.tag
    }
}

impl Eq for Catalog {}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.tag)
    }
}

include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));

/// A message argument: a count (which picks the plural form) or text.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Count(i64),
    Text(String),
}

impl From<usize> for Arg {
    fn from(count: usize) -> Self {
        Arg::Count(i64::try_from(count).unwrap_or(i64::MAX))
    }
}

impl From<i64> for Arg {
    fn from(count: i64) -> Self {
        Arg::Count(count)
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Self {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Self {
        Arg::Text(text.to_string())
    }
}

/// The CLDR cardinal plural category of a whole count in `language` (a catalog language).
pub(super) fn plural_category(language: &str, count: i64) -> &'static str {
    let count = count.unsigned_abs();
    match language {
        "ar" => match count {
            0 => "zero",
            1 => "one",
            2 => "two",
            _ => match count % 100 {
                3..=10 => "few",
                11..=99 => "many",
                _ => "other",
            },
        },
        // English and German.
        _ if count == 1 => "one",
        _ => "other",
    }
}

impl Catalog {
    pub(super) fn message(&self, id: &str) -> Option<&'static [Part]> {
        let found = self.messages.binary_search_by(|(key, _)| key.cmp(&id)).ok()?;
        Some(self.messages[found].1)
    }

    /// `parts` written with `args`; each placeable set apart with Unicode isolates when
    /// `isolate` (a right-to-left catalog) and the pattern has more than it, as Fluent does.
    pub(super) fn write(&self, out: &mut String, parts: &[Part], args: &[(&str, Arg)], isolate: bool) {
        let arg = |name: &str| args.iter().find(|(key, _)| *key == name).map(|(_, value)| value);
        let apart = isolate && parts.len() > 1;
        for part in parts {
            if let Part::Text(text) = part {
                out.push_str(text);
                continue;
            }
            if apart {
                out.push(ISOLATE.0);
            }
            match part {
                Part::Text(_) => {}
                // A missing argument shows as Fluent shows it: its name in braces.
                Part::Var(name) => match arg(name) {
                    Some(Arg::Count(count)) => out.push_str(&count.to_string()),
                    Some(Arg::Text(text)) => out.push_str(text),
                    None => out.push_str(&format!("{{${name}}}")),
                },
                Part::Select { var, default, variants } => {
                    let position = |wanted: &dyn Fn(&Key) -> bool| variants.iter().position(|(key, _)| wanted(key));
                    let chosen = match arg(var) {
                        Some(Arg::Count(count)) => {
                            let category = plural_category(self.tag, *count);
                            position(&|key| matches!(key, Key::Count(exact) if exact == count))
                                .or_else(|| position(&|key| matches!(key, Key::Name(name) if *name == category)))
                        }
                        Some(Arg::Text(text)) => position(&|key| matches!(key, Key::Name(name) if name == text)),
                        None => None,
                    };
                    self.write(out, variants[chosen.unwrap_or(*default)].1, args, isolate);
                }
            }
            if apart {
                out.push(ISOLATE.1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CLDR's integer samples (plurals.xml, cardinal) for each category.
    #[test]
    fn plural_categories_are_cldrs() {
        let range = |from: i64, to: i64| (from..=to).collect::<Vec<_>>();
        let arabic = [
            ("zero", vec![0]),
            ("one", vec![1]),
            ("two", vec![2]),
            ("few", [range(3, 10), range(103, 110), vec![1003]].concat()),
            ("many", [range(11, 26), vec![111, 1011]].concat()),
            ("other", [range(100, 102), range(200, 202), range(300, 302), vec![1000, 10000]].concat()),
        ];
        let germanic = [("one", vec![1]), ("other", [vec![0], range(2, 16), vec![100, 1000, 10000]].concat())];
        for (tag, samples) in [("ar", &arabic[..]), ("de", &germanic[..]), ("en", &germanic[..])] {
            for (category, counts) in samples {
                for count in counts {
                    assert_eq!(plural_category(tag, *count), *category, "{tag} {count}");
                }
            }
        }
    }

    fn catalog(tag: &str) -> &'static Catalog {
        CATALOGS.iter().find(|catalog| catalog.tag == tag).unwrap()
    }

    fn written(tag: &str, id: &str, args: &[(&str, Arg)]) -> String {
        let catalog = catalog(tag);
        let mut out = String::new();
        catalog.write(&mut out, catalog.message(id).unwrap(), args, tag == "ar");
        out
    }

    #[test]
    fn an_exact_count_comes_before_the_plural_category_and_a_missing_value_shows_its_name() {
        let names = ("names", Arg::from("a.txt"));
        assert_eq!(written("en", "files-sent", &[("count", Arg::from(0_usize)), names.clone()]), "You sent 0 files");
        assert_eq!(written("en", "files-sent", &[("count", Arg::from(1_usize)), names]), "You sent 1 file: a.txt");
        assert_eq!(written("en", "you-chose", &[]), "You chose: {$choices}");
    }

    #[test]
    fn every_catalog_is_sorted_by_id_and_has_english_messages() {
        for catalog in CATALOGS {
            assert!(catalog.messages.windows(2).all(|pair| pair[0].0 < pair[1].0), "{}", catalog.tag);
        }
        assert!(catalog("en").message("submit").is_some() && catalog("en").message("no-such-id").is_none());
    }
}
