//! Palaver's own words on ask cards, their summaries and the watch, from the Fluent catalogs in
//! `wire/locales/` (English, Arabic, German), compiled in when Palaver is built. A card speaks
//! the ask's language when the catalog has it, else the reader's (their browser's
//! Accept-Language), else English. The reader's language is decided once, by the server: the
//! page carries it, so the browser hydrates the very words the server wrote.

mod answer_problems;
mod format;
mod names;

pub use answer_problems::answer_problem;
pub use format::Arg;
use format::{CATALOGS, Catalog};
pub use names::{humanised, tool_words};
use palaver_contract::locale::{TextDirection, parse_locale, text_direction};

/// The attribute the page's `<body>` carries the reader's language in.
pub const READER_LANGUAGE_ATTRIBUTE: &str = "data-reader-language";

/// The words of one catalog language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    catalog: &'static Catalog,
}

/// The catalog of a language subtag (`de` of `de-CH`), if there is one.
fn catalog_of(language: &str) -> Option<&'static Catalog> {
    CATALOGS.iter().find(|catalog| catalog.tag.eq_ignore_ascii_case(language))
}

impl Default for Words {
    fn default() -> Self {
        Words { catalog: catalog_of("en").expect("the English catalog is built in") }
    }
}

impl Words {
    /// The reader's words from an Accept-Language header: its first language the catalogs
    /// have, in the header's order (English when they have none).
    pub fn from_accept_language(header: &str) -> Words {
        header
            .split(',')
            .filter_map(|range| range.split(';').next())
            .filter_map(|tag| tag.trim().split(['-', '_']).next())
            .find_map(catalog_of)
            .map(|catalog| Words { catalog })
            .unwrap_or_default()
    }

    /// The words for one language tag, if the catalog has its language.
    pub fn for_tag(tag: &str) -> Option<Words> {
        let locale = parse_locale(tag)?;
        catalog_of(locale.id.language.as_str()).map(|catalog| Words { catalog })
    }

    /// The words of a card for an ask written in `locale`: that language's when the catalog has
    /// it, else the reader's.
    pub fn for_ask(locale: Option<&str>, reader: &Words) -> Words {
        locale.and_then(Words::for_tag).unwrap_or_else(|| reader.clone())
    }

    fn is_rtl(&self) -> bool {
        text_direction(self.catalog.tag) == TextDirection::Rtl
    }

    /// `text` isolated (FSI…PDI) in a right-to-left catalog, so a left-to-right label such as
    /// `#b49c54` keeps its own order inside a sentence; as it is in a left-to-right one.
    pub fn isolate(&self, text: &str) -> String {
        let (start, end) = format::ISOLATE;
        if self.is_rtl() { format!("{start}{text}{end}") } else { text.to_string() }
    }

    /// The BCP 47 tag of this catalog language.
    pub fn tag(&self) -> String {
        self.catalog.tag.to_string()
    }

    /// The message `id`.
    pub fn get(&self, id: &str) -> String {
        self.with(id, &[])
    }

    /// The message `id` with its arguments (counts pick the plural form), from the English
    /// catalog when this one lacks it; values are isolated in a right-to-left catalog (a
    /// left-to-right name or number inside a right-to-left sentence keeps its order).
    pub fn with(&self, id: &str, args: &[(&'static str, Arg)]) -> String {
        let english = Words::default().catalog;
        let Some((catalog, parts)) =
            [self.catalog, english].into_iter().find_map(|catalog| catalog.message(id).map(|parts| (catalog, parts)))
        else {
            return id.to_string();
        };
        let mut out = String::new();
        catalog.write(&mut out, parts, args, Words { catalog }.is_rtl());
        out
    }

    /// `id` with one text argument.
    pub fn with_text(&self, id: &str, name: &'static str, text: impl Into<String>) -> String {
        self.with(id, &[(name, Arg::Text(text.into()))])
    }

    /// `id` with one count argument.
    pub fn with_count(&self, id: &str, name: &'static str, count: usize) -> String {
        self.with(id, &[(name, Arg::from(count))])
    }
}

/// How a card is set for its ask's language: `lang` when the ask names one, and `dir` always
/// (the ask's direction, else the page's left to right), never `auto`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardLanguage {
    pub lang: Option<String>,
    pub dir: &'static str,
}

impl CardLanguage {
    pub fn of(locale: Option<&str>) -> CardLanguage {
        CardLanguage {
            lang: locale.map(str::to_string),
            dir: locale.map_or(TextDirection::Ltr, text_direction).as_str(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_gets_their_first_language_the_catalog_has() {
        assert_eq!(Words::from_accept_language("de-CH,de;q=0.9,en;q=0.8").tag(), "de");
        assert_eq!(Words::from_accept_language("ja,ar-EG;q=0.7").tag(), "ar");
        assert_eq!(Words::from_accept_language("ja, ko").tag(), "en");
        assert_eq!(Words::from_accept_language("").tag(), "en");
    }

    #[test]
    fn an_ask_in_a_catalog_language_speaks_it_and_any_other_falls_back_to_the_reader() {
        let reader = Words::from_accept_language("de");
        assert_eq!(Words::for_ask(Some("ar-u-nu-latn"), &reader).tag(), "ar");
        assert_eq!(Words::for_ask(Some("en-GB"), &reader).tag(), "en");
        assert_eq!(Words::for_ask(Some("fa"), &reader).tag(), "de");
        assert_eq!(Words::for_ask(None, &reader).tag(), "de");
    }

    #[test]
    fn every_catalog_has_every_message_and_plurals_follow_the_language() {
        let english = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/locales/en/cards.ftl")).unwrap();
        let ids: Vec<&str> = english
            .lines()
            .filter(|line| !line.starts_with([' ', '#']) && line.contains(" = "))
            .filter_map(|line| line.split(" = ").next())
            .collect();
        assert!(ids.len() > 40);
        for tag in ["ar", "de"] {
            let path = format!("{}/locales/{tag}/cards.ftl", env!("CARGO_MANIFEST_DIR"));
            let catalog = std::fs::read_to_string(path).unwrap();
            for id in &ids {
                assert!(catalog.lines().any(|line| line.starts_with(&format!("{id} = "))), "{tag} lacks {id}");
            }
        }
        let german = Words::for_tag("de").unwrap();
        assert_eq!(german.with_count("expires-in-minutes", "minutes", 1), "Läuft in 1 Minute ab");
        assert_eq!(german.with_count("expires-in-minutes", "minutes", 5), "Läuft in 5 Minuten ab");
        let arabic = Words::for_tag("ar").unwrap();
        assert_eq!(arabic.with_count("expires-in-minutes", "minutes", 2), "ينتهي خلال دقيقتين");
        // Right to left: a value is isolated, so a Latin label keeps its place.
        assert_eq!(arabic.with_text("you-chose", "choices", "Team"), "اخترت: \u{2068}Team\u{2069}");
        assert_eq!(Words::default().with_text("you-chose", "choices", "Team"), "You chose: Team");
    }

    #[test]
    fn a_card_takes_its_direction_from_the_ask_never_auto() {
        assert_eq!(CardLanguage::of(Some("he")), CardLanguage { lang: Some("he".into()), dir: "rtl" });
        assert_eq!(CardLanguage::of(Some("de")).dir, "ltr");
        assert_eq!(CardLanguage::of(None), CardLanguage { lang: None, dir: "ltr" });
    }
}
