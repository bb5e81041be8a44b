//! Locales: whether a tag is BCP 47, and which way its text runs. Cards set `lang` and `dir`
//! from this, never `dir="auto"`, which guesses from the first strong character and so turns
//! a right-to-left question whose first answers are numbers or hex colours left to right.

use icu_locale_core::Locale;
use icu_locale_core::subtags::Script;

/// The way a language's text runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextDirection {
    Ltr,
    Rtl,
}

impl TextDirection {
    /// The value of an HTML `dir` attribute.
    pub fn as_str(self) -> &'static str {
        match self {
            TextDirection::Ltr => "ltr",
            TextDirection::Rtl => "rtl",
        }
    }
}

/// The tag, parsed, when it is a well-formed BCP 47 language tag (its syntax; whether the
/// language exists is not checked).
pub fn parse_locale(tag: &str) -> Option<Locale> {
    Locale::try_from_str(tag).ok()
}

/// Scripts written right to left. A short table rather than the full CLDR data (which would add
/// its likely-subtags tables to every page): these cover the living right-to-left scripts.
const RTL_SCRIPTS: &[&str] = &["Adlm", "Arab", "Hebr", "Mand", "Mend", "Nkoo", "Rohg", "Samr", "Syrc", "Thaa", "Yezi"];

/// Languages whose usual script runs right to left, when the tag names no script.
const RTL_LANGUAGES: &[&str] =
    &["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ji", "ks", "mzn", "nqo", "ps", "sd", "syr", "ug", "ur", "yi"];

/// The direction of text in `tag`'s language: its script decides when the tag names one
/// (`az-Arab` runs right to left, `ku-Latn` left to right), else its language.
pub fn text_direction(tag: &str) -> TextDirection {
    let Some(locale) = parse_locale(tag) else { return TextDirection::Ltr };
    let rtl = match locale.id.script {
        Some(script) => RTL_SCRIPTS.iter().any(|rtl| Script::try_from_str(rtl).ok() == Some(script)),
        None => RTL_LANGUAGES.contains(&locale.id.language.as_str()),
    };
    if rtl { TextDirection::Rtl } else { TextDirection::Ltr }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_tags_parse() {
        for tag in ["en", "de-CH", "ar-EG", "zh-Hant-TW", "sr-Latn", "pt-BR", "ar-u-nu-latn", "und"] {
            assert!(parse_locale(tag).is_some(), "{tag}");
        }
        for tag in ["", "en_US", "e", "12", "en-", "-en", "ar EG", "toolonglanguage"] {
            assert!(parse_locale(tag).is_none(), "{tag}");
        }
    }

    #[test]
    fn direction_follows_script_then_language() {
        assert_eq!(text_direction("ar"), TextDirection::Rtl);
        assert_eq!(text_direction("he-IL"), TextDirection::Rtl);
        assert_eq!(text_direction("fa"), TextDirection::Rtl);
        assert_eq!(text_direction("az-Arab"), TextDirection::Rtl);
        assert_eq!(text_direction("ku-Latn"), TextDirection::Ltr);
        assert_eq!(text_direction("ar-Latn"), TextDirection::Ltr);
        assert_eq!(text_direction("de"), TextDirection::Ltr);
        assert_eq!(text_direction("not a tag"), TextDirection::Ltr);
    }
}
