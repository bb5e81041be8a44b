//! What every ask input's check shares: the common fields, and finding repeated ids.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::check::Checker;
use super::errors::{AskErrorCode, Loc};
use super::limits::ASK_LIMITS;

/// The fields every ask shares.
pub(super) struct Shared {
    pub(super) prompt: Option<String>,
    pub(super) title: Option<String>,
    pub(super) submit_label: Option<String>,
    pub(super) allow_decline: Option<bool>,
    pub(super) locale: Option<String>,
}

pub(super) fn shared(ck: &mut Checker, object: &Map<String, Value>, at: Loc<'_>, with_submit_label: bool) -> Shared {
    let prompt = ck
        .required(object, at, "prompt")
        .and_then(|value| ck.visible_text(value, at.key("prompt"), ASK_LIMITS.prompt_max_length));
    Shared {
        prompt,
        title: ck.optional_text(object, at, "title", ASK_LIMITS.title_max_length),
        submit_label: if with_submit_label {
            ck.optional_text(object, at, "submitLabel", ASK_LIMITS.submit_label_max_length)
        } else {
            None
        },
        allow_decline: ck.boolean(object, at, "allowDecline"),
        locale: object.get("locale").and_then(|value| locale(ck, value, at.key("locale"))),
    }
}

/// A BCP 47 language tag (Palaver's addition to every ask).
fn locale(ck: &mut Checker, value: &Value, at: Loc<'_>) -> Option<String> {
    let tag = ck.string(value, at)?;
    let max = ASK_LIMITS.locale_max_length;
    if tag.chars().count() > max {
        ck.too_long(at, max);
    } else if crate::locale::parse_locale(tag).is_none() {
        ck.push(
            at,
            AskErrorCode::INVALID_FORMAT,
            format!("locale {} is not a BCP 47 language tag.", super::errors::quote_str(tag)),
            "Use the tag of the language the ask is written in, such as \"en\", \"de-CH\" or \"ar\".",
        );
    }
    Some(tag.to_string())
}

/// The first index at which each later repeat of an id appears: `(repeat index, first index)`.
pub(super) fn repeats<'s>(ids: impl Iterator<Item = &'s str> + Clone) -> Vec<(usize, usize)> {
    // Comparing every pair is cheapest for the few ids most lists hold, and copies none of
    // them; a long list (up to 50 options) remembers where each id first appeared instead.
    if ids.clone().nth(16).is_none() {
        return ids
            .clone()
            .enumerate()
            .filter_map(|(index, id)| {
                ids.clone().take(index).position(|earlier| earlier == id).map(|first| (index, first))
            })
            .collect();
    }
    let mut first_at = HashMap::with_capacity(ids.size_hint().0);
    ids.enumerate()
        .filter_map(|(index, id)| {
            let first = *first_at.entry(id).or_insert(index);
            (first != index).then_some((index, first))
        })
        .collect()
}
