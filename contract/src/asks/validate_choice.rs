//! `ask_choice` input: its keys, options and the rules between them.

use serde_json::Value;

use super::check::Checker;
use super::errors::{AskErrorCode, Loc};
use super::input::{AskSurface, ChoiceInput, ChoiceOption, SelectMode};
use super::limits::ASK_LIMITS;
use super::validate_common::{repeats, shared};
use crate::text::{js_trim as visible_label, utf16_len};

const CHOICE_KEYS: &[&str] = &[
    "prompt",
    "title",
    "locale",
    "submitLabel",
    "allowDecline",
    "select",
    "options",
    "default",
    "minSelected",
    "maxSelected",
    "allowOther",
    "otherLabel",
];
const COMPACT_CHOICE_KEYS: &[&str] =
    &["prompt", "title", "locale", "submitLabel", "allowDecline", "select", "options", "default"];

fn choice_option(ck: &mut Checker, value: &Value, at: Loc<'_>, compact: bool) -> Option<ChoiceOption> {
    // Read in one pass over the option's keys: a choice may have 50 options.
    let [id, label, description] = ck.fields(value, at, ["id", "label", "description"])?;
    let limits = &ASK_LIMITS.choice;
    let id = ck.present(id, at, "id").and_then(|value| ck.id(value, at.key("id"), "option id"));
    let label_max =
        if compact { ASK_LIMITS.simple_card.button_label_max_length } else { limits.option_label_max_length };
    let label = ck.present(label, at, "label").and_then(|value| ck.visible_text(value, at.key("label"), label_max));
    if compact
        && let Some(label) = &label
        && utf16_len(label) > label_max
    {
        ck.too_long_for_button(at.key("label"), label_max);
    }
    let description = description
        .and_then(|value| ck.visible_text(value, at.key("description"), limits.option_description_max_length));
    Some(ChoiceOption { id: id?, label: label?, description })
}

pub(super) fn choice(ck: &mut Checker, value: &Value, surface: AskSurface) -> Option<ChoiceInput> {
    let compact = surface == AskSurface::Compact;
    let root = Loc::Root;
    let object = ck.object(value, root, if compact { COMPACT_CHOICE_KEYS } else { CHOICE_KEYS })?;
    let limits = &ASK_LIMITS.choice;
    let shared = shared(ck, object, root, true);
    let modes: &[&str] = if compact { &["one"] } else { &["one", "many"] };
    let select = ck.required(object, root, "select").and_then(|value| ck.one_of(value, root.key("select"), modes));
    let options_max = if compact { ASK_LIMITS.simple_card.buttons_max } else { limits.options_max };
    let options_at = root.key("options");
    let options = ck
        .required(object, root, "options")
        .and_then(|value| ck.list(value, options_at, limits.options_min, options_max))
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| choice_option(ck, item, options_at.index(index), compact))
                .collect::<Vec<_>>()
        });
    let default = object
        .get("default")
        .and_then(|value| ck.strings(value, root.key("default"), 0, limits.options_max))
        .map(|ids| ids.into_iter().map(str::to_string).collect());
    let (mut min_selected, mut max_selected, mut allow_other, mut other_label) = (None, None, None, None);
    if !compact {
        min_selected = ck.int(object, root, "minSelected", 0, None);
        max_selected = ck.int(object, root, "maxSelected", 1, None);
        allow_other = ck.boolean(object, root, "allowOther");
        other_label = ck.optional_text(object, root, "otherLabel", limits.option_label_max_length);
    }
    if ck.aborted {
        return None;
    }
    let input = ChoiceInput {
        prompt: shared.prompt?,
        title: shared.title,
        submit_label: shared.submit_label,
        allow_decline: shared.allow_decline,
        locale: shared.locale,
        select: if select? == "one" { SelectMode::One } else { SelectMode::Many },
        options: options?,
        default,
        min_selected,
        max_selected,
        allow_other,
        other_label,
    };
    check_choice(ck, &input, compact);
    Some(input)
}

fn check_choice(ck: &mut Checker, input: &ChoiceInput, compact: bool) {
    let root = Loc::Root;
    let options_at = root.key("options");
    for (index, first) in repeats(input.options.iter().map(|option| option.id.as_str())) {
        let option = options_at.index(index);
        ck.push(
            option.key("id"),
            AskErrorCode::DUPLICATE_ID,
            format!("Option id \"{}\" is already used by options[{first}].", input.options[index].id),
            "Give every option a unique id.",
        );
    }
    let default = input.default.as_deref().unwrap_or_default();
    let default_at = root.key("default");
    match input.select {
        SelectMode::One => {
            for (key, value) in [("minSelected", input.min_selected), ("maxSelected", input.max_selected)] {
                if let Some(value) = value.filter(|value| *value != 1) {
                    let at = match key {
                        "minSelected" => root.key("minSelected"),
                        _ => root.key("maxSelected"),
                    };
                    ck.push(
                        at,
                        AskErrorCode::RANGE_INVALID,
                        format!("select \"one\" picks exactly one option, so {key} must be 1, not {value}."),
                        format!("Remove {key}, or use select \"many\"."),
                    );
                }
            }
            if input.allow_other == Some(true) {
                ck.push(
                    root.key("allowOther"),
                    AskErrorCode::OTHER_NOT_ALLOWED,
                    "allowOther needs select \"many\".",
                    "Use select \"many\" (with maxSelected 1 for a single pick), or remove allowOther.",
                );
            }
            if default.len() > 1 {
                ck.push(
                    default_at,
                    AskErrorCode::SELECTION_COUNT,
                    format!("default lists {} option ids, but select \"one\" allows one.", default.len()),
                    "Keep one option id in default, or remove default.",
                );
            }
        }
        SelectMode::Many => {
            let choices = input.options.len() + usize::from(input.allow_other == Some(true));
            let choices_i64 = i64::try_from(choices).unwrap_or(i64::MAX);
            if let Some(max) = input.max_selected.filter(|max| *max > choices_i64) {
                let noun = if choices == 1 { "choice" } else { "choices" };
                ck.push(
                    root.key("maxSelected"),
                    AskErrorCode::RANGE_INVALID,
                    format!("maxSelected is {max}, but the ask offers {choices} {noun}."),
                    format!("Set maxSelected to {choices} or fewer, or add options."),
                );
            }
            let bounds = input.selection_bounds();
            let min = input.min_selected.unwrap_or(1);
            if min > bounds.max.min(choices_i64) {
                let limit = match input.max_selected {
                    Some(max) => format!("maxSelected ({max})"),
                    None => format!("the {choices} choices the ask offers"),
                };
                ck.push(
                    root.key("minSelected"),
                    AskErrorCode::RANGE_INVALID,
                    format!("minSelected ({min}) is more than {limit}."),
                    "Lower minSelected, or raise maxSelected and add options.",
                );
            }
            if i64::try_from(default.len()).unwrap_or(i64::MAX) > bounds.max {
                ck.push(
                    default_at,
                    AskErrorCode::SELECTION_COUNT,
                    format!("default lists {} option ids, but the ask allows at most {}.", default.len(), bounds.max),
                    format!("Keep at most {} option ids in default.", bounds.max),
                );
            }
            for (index, first) in repeats(default.iter().map(String::as_str)) {
                ck.push(
                    default_at.index(index),
                    AskErrorCode::DUPLICATE_ID,
                    format!("Default \"{}\" is already listed at default[{first}].", default[index]),
                    "List each option id in default once.",
                );
            }
        }
    }
    if input.other_label.is_some() && input.allow_other != Some(true) {
        ck.push(
            root.key("otherLabel"),
            AskErrorCode::OTHER_NOT_ALLOWED,
            "otherLabel is set, but allowOther is not true.",
            "Set allowOther to true, or remove otherLabel.",
        );
    }
    let repeated: Vec<usize> = match input.select {
        SelectMode::Many => repeats(default.iter().map(String::as_str)).into_iter().map(|(index, _)| index).collect(),
        SelectMode::One => Vec::new(),
    };
    for (index, id) in default.iter().enumerate() {
        if !repeated.contains(&index) && !input.options.iter().any(|option| &option.id == id) {
            ck.push(
                default_at.index(index),
                AskErrorCode::DEFAULT_NOT_IN_OPTIONS,
                format!("Default \"{id}\" is not the id of any option."),
                "Use an id from options, or remove it from default.",
            );
        }
    }
    if compact {
        let labels: Vec<&str> = input.options.iter().map(|option| visible_label(&option.label)).collect();
        for (index, first) in repeats(labels.iter().copied()) {
            let note = if input.options[index].label != input.options[first].label {
                ", ignoring spaces at either end"
            } else {
                ""
            };
            let option = options_at.index(index);
            ck.push(
                option.key("label"),
                AskErrorCode::DUPLICATE_LABEL,
                format!("Option label \"{}\" is already used by options[{first}]{note}.", input.options[index].label),
                "Give every option a different label.",
            );
        }
    }
}
