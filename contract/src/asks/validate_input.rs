//! `validate_ask_input`: an `ask_<kind>` call against its schema and rules.

use serde_json::{Map, Value};

use super::check::Checker;
use super::errors::{AskError, AskErrorCode, Loc, finalize};
use super::form_values::check_form_value;
use super::input::{
    ASK_FILE_ACCEPT, Ask, AskKind, AskSurface, ChoiceInput, ChoiceOption, ConfirmInput, FORM_FIELD_TYPES, FileAccept,
    FilesInput, FormField, FormFieldType, FormInput, FormOption, MarkdownInput, SelectMode,
};
use super::limits::ASK_LIMITS;
use crate::text::{js_trim as visible_label, utf16_len};

/// The fields every ask shares.
struct Shared {
    prompt: Option<String>,
    title: Option<String>,
    submit_label: Option<String>,
    allow_decline: Option<bool>,
}

fn shared(ck: &mut Checker, object: &Map<String, Value>, at: Loc<'_>, with_submit_label: bool) -> Shared {
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
    }
}

/// Checks an ask input for a kind on a surface. Kinds the compact surface does not offer are
/// checked with their full rules; [`kind_offered_on`] tells whether a surface offers a kind.
pub fn parse_ask_input(kind: AskKind, input: &Value, surface: AskSurface) -> Result<Ask, Vec<AskError>> {
    let mut ck = Checker::default();
    let ask = match kind {
        AskKind::Choice => choice(&mut ck, input, surface).map(Ask::Choice),
        AskKind::Confirm => confirm(&mut ck, input).map(Ask::Confirm),
        AskKind::Markdown => markdown(&mut ck, input).map(Ask::Markdown),
        AskKind::Form => form(&mut ck, input).map(Ask::Form),
        AskKind::Files => files(&mut ck, input).map(Ask::Files),
    };
    match ask {
        Some(ask) if ck.errors.is_empty() => Ok(ask),
        _ => Err(finalize(ck.errors)),
    }
}

/// The errors of an ask input, sorted; empty when it is valid (`validateAskInput`).
pub fn validate_ask_input(kind: AskKind, input: &Value, surface: AskSurface) -> Vec<AskError> {
    parse_ask_input(kind, input, surface).err().unwrap_or_default()
}

/// Whether `surface` offers `kind`, with the reference's message when it does not.
pub fn kind_offered_on(kind: AskKind, surface: AskSurface) -> Result<(), String> {
    if surface == AskSurface::Compact && !kind.is_compact() {
        return Err(format!("The compact surface does not offer ask kind \"{}\".", kind.as_str()));
    }
    Ok(())
}

const CHOICE_KEYS: &[&str] = &[
    "prompt",
    "title",
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
    &["prompt", "title", "submitLabel", "allowDecline", "select", "options", "default"];

fn choice_option(ck: &mut Checker, value: &Value, at: Loc<'_>, compact: bool) -> Option<ChoiceOption> {
    let object = ck.object(value, at, &["id", "label", "description"])?;
    let limits = &ASK_LIMITS.choice;
    let id = ck.required(object, at, "id").and_then(|value| ck.id(value, at.key("id"), "option id"));
    let label_max =
        if compact { ASK_LIMITS.simple_card.button_label_max_length } else { limits.option_label_max_length };
    let label = ck.required(object, at, "label").and_then(|value| ck.visible_text(value, at.key("label"), label_max));
    if compact
        && let Some(label) = &label
        && utf16_len(label) > label_max
    {
        ck.too_long_for_button(at.key("label"), label_max);
    }
    let description = ck.optional_text(object, at, "description", limits.option_description_max_length);
    Some(ChoiceOption { id: id?, label: label?, description })
}

fn choice(ck: &mut Checker, value: &Value, surface: AskSurface) -> Option<ChoiceInput> {
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
    let default = object.get("default").and_then(|value| ck.strings(value, root.key("default"), 0, limits.options_max));
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

/// The first index at which each later repeat of an id appears: `(repeat index, first index)`.
fn repeats<'s>(ids: impl Iterator<Item = &'s str>) -> Vec<(usize, usize)> {
    let ids: Vec<&str> = ids.collect();
    (0..ids.len())
        .filter_map(|index| ids[..index].iter().position(|earlier| *earlier == ids[index]).map(|first| (index, first)))
        .collect()
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

fn confirm(ck: &mut Checker, value: &Value) -> Option<ConfirmInput> {
    let root = Loc::Root;
    let object =
        ck.object(value, root, &["prompt", "title", "confirmLabel", "denyLabel", "destructive", "allowDecline"])?;
    let shared = shared(ck, object, root, false);
    let max = ASK_LIMITS.confirm.label_max_length;
    let confirm_label = ck.optional_text(object, root, "confirmLabel", max);
    let deny_label = ck.optional_text(object, root, "denyLabel", max);
    let destructive = ck.boolean(object, root, "destructive");
    if ck.aborted {
        return None;
    }
    let input = ConfirmInput {
        prompt: shared.prompt?,
        title: shared.title,
        confirm_label,
        deny_label,
        destructive,
        allow_decline: shared.allow_decline,
    };
    for (key, label) in [("confirmLabel", &input.confirm_label), ("denyLabel", &input.deny_label)] {
        if label.as_deref().is_some_and(|label| utf16_len(label) > max) {
            let at = if key == "confirmLabel" { root.key("confirmLabel") } else { root.key("denyLabel") };
            ck.too_long_for_button(at, max);
        }
    }
    let (approve, deny) = input.button_labels();
    if visible_label(approve) == visible_label(deny) {
        let note = if approve != deny { ", ignoring spaces at either end" } else { "" };
        if input.deny_label.is_none() {
            ck.push(
                root.key("confirmLabel"),
                AskErrorCode::DUPLICATE_LABEL,
                format!("confirmLabel \"{approve}\" is the same as the deny button's label{note}."),
                format!("Give confirmLabel a label other than \"{deny}\", the deny button's label."),
            );
        } else {
            ck.push(
                root.key("denyLabel"),
                AskErrorCode::DUPLICATE_LABEL,
                format!("denyLabel \"{deny}\" is the same as the approve button's label{note}."),
                format!("Give denyLabel a label other than \"{approve}\", the approve button's label."),
            );
        }
    }
    Some(input)
}

fn markdown(ck: &mut Checker, value: &Value) -> Option<MarkdownInput> {
    let root = Loc::Root;
    let object = ck.object(
        value,
        root,
        &["prompt", "title", "submitLabel", "allowDecline", "initial", "placeholder", "minLength", "maxLength"],
    )?;
    let limits = &ASK_LIMITS.markdown;
    let cap = i64::try_from(limits.max_length).unwrap_or(i64::MAX);
    let shared = shared(ck, object, root, true);
    let initial = object.get("initial").and_then(|value| ck.string(value, root.key("initial"))).map(|initial| {
        if initial.chars().count() > limits.max_length || utf16_len(initial) > limits.max_length {
            ck.too_long(root.key("initial"), limits.max_length);
        }
        initial.to_string()
    });
    let placeholder = ck.optional_text(object, root, "placeholder", limits.placeholder_max_length);
    let min_length = ck.int(object, root, "minLength", 0, Some(cap));
    let max_length = ck.int(object, root, "maxLength", 1, Some(cap));
    if ck.aborted {
        return None;
    }
    let input = MarkdownInput {
        prompt: shared.prompt?,
        title: shared.title,
        submit_label: shared.submit_label,
        allow_decline: shared.allow_decline,
        initial,
        placeholder,
        min_length,
        max_length,
    };
    let bounds = input.length_bounds();
    if bounds.min > bounds.max {
        let limit = match input.max_length {
            Some(max) => format!("maxLength ({max})"),
            None => format!("the {cap}-character cap"),
        };
        ck.push(
            root.key("minLength"),
            AskErrorCode::RANGE_INVALID,
            format!("minLength ({}) is more than {limit}.", bounds.min),
            "Lower minLength, or raise maxLength.",
        );
    }
    Some(input)
}

const FIELD_KEYS: &[&str] = &["id", "type", "label", "helperText", "required", "default"];

/// The longest string value a field accepts (`formTextMaxLength`).
fn form_option(ck: &mut Checker, value: &Value, at: Loc<'_>) -> Option<FormOption> {
    let object = ck.object(value, at, &["id", "label"])?;
    let id = ck.required(object, at, "id").and_then(|value| ck.id(value, at.key("id"), "option id"));
    let label = ck
        .required(object, at, "label")
        .and_then(|value| ck.visible_text(value, at.key("label"), ASK_LIMITS.choice.option_label_max_length));
    Some(FormOption { id: id?, label: label? })
}

fn form_field(ck: &mut Checker, value: &Value, at: Loc<'_>) -> Option<FormField> {
    let Value::Object(object) = value else {
        ck.invalid_type(at, super::check::Expected::Object, value);
        return None;
    };
    // `type` picks the field's schema; without a known type nothing else can be checked.
    let type_names: Vec<&str> = FORM_FIELD_TYPES.iter().map(|kind| kind.as_str()).collect();
    let field_type = ck.required(object, at, "type").and_then(|value| ck.one_of(value, at.key("type"), &type_names))?;
    let field_type = FormFieldType::parse(field_type)?;
    let allowed: Vec<&str> = FIELD_KEYS.iter().chain(field_type.extra_keys()).copied().collect();
    ck.object(value, at, &allowed);
    let limits = &ASK_LIMITS.form;
    let id = ck.required(object, at, "id").and_then(|value| ck.id(value, at.key("id"), "field id"));
    let label = ck
        .required(object, at, "label")
        .and_then(|value| ck.visible_text(value, at.key("label"), limits.label_max_length));
    let helper_text = ck.optional_text(object, at, "helperText", limits.helper_text_max_length);
    let required = ck.boolean(object, at, "required");
    let default = object.get("default").and_then(|value| {
        let at = at.key("default");
        let fits = match field_type {
            FormFieldType::Number => value.is_number().then_some(()).ok_or(super::check::Expected::Number),
            FormFieldType::Boolean => value.is_boolean().then_some(()).ok_or(super::check::Expected::Boolean),
            FormFieldType::Multiselect => {
                return ck.strings(value, at, 0, usize::MAX).map(|_| value.clone());
            }
            _ => value.is_string().then_some(()).ok_or(super::check::Expected::String),
        };
        match fits {
            Ok(()) => Some(value.clone()),
            Err(expected) => {
                ck.invalid_type(at, expected, value);
                None
            }
        }
    });
    let mut field = FormField {
        id: id.unwrap_or_default(),
        field_type,
        label: label.unwrap_or_default(),
        helper_text,
        required,
        default,
        min_length: None,
        max_length: None,
        min: None,
        max: None,
        integer: None,
        options: None,
    };
    match field_type {
        FormFieldType::Text | FormFieldType::Textarea => {
            let cap =
                if field_type == FormFieldType::Textarea { limits.textarea_max_length } else { limits.text_max_length };
            let cap = i64::try_from(cap).unwrap_or(i64::MAX);
            field.max_length = ck.int(object, at, "maxLength", 1, Some(cap));
            field.min_length = ck.int(object, at, "minLength", 0, Some(cap));
        }
        FormFieldType::Number => {
            field.min = ck.number(object, at, "min");
            field.max = ck.number(object, at, "max");
            field.integer = ck.boolean(object, at, "integer");
        }
        FormFieldType::Select | FormFieldType::Multiselect => {
            let options_at = at.key("options");
            let choice = &ASK_LIMITS.choice;
            field.options = ck
                .required(object, at, "options")
                .and_then(|value| ck.list(value, options_at, choice.options_min, choice.options_max))
                .map(|items| {
                    items
                        .iter()
                        .enumerate()
                        .filter_map(|(index, item)| form_option(ck, item, options_at.index(index)))
                        .collect()
                });
        }
        _ => {}
    }
    Some(field)
}

fn form(ck: &mut Checker, value: &Value) -> Option<FormInput> {
    let root = Loc::Root;
    let object = ck.object(value, root, &["prompt", "title", "submitLabel", "allowDecline", "fields"])?;
    let shared = shared(ck, object, root, true);
    let limits = &ASK_LIMITS.form;
    let fields_at = root.key("fields");
    let fields = ck
        .required(object, root, "fields")
        .and_then(|value| ck.list(value, fields_at, limits.fields_min, limits.fields_max))
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| form_field(ck, item, fields_at.index(index)))
                .collect::<Vec<_>>()
        });
    if ck.aborted {
        return None;
    }
    let input = FormInput {
        prompt: shared.prompt?,
        title: shared.title,
        submit_label: shared.submit_label,
        allow_decline: shared.allow_decline,
        fields: fields?,
    };
    for (index, first) in repeats(input.fields.iter().map(|field| field.id.as_str())) {
        let field = fields_at.index(index);
        ck.push(
            field.key("id"),
            AskErrorCode::DUPLICATE_ID,
            format!("Field id \"{}\" is already used by fields[{first}].", input.fields[index].id),
            "Give every field a unique id.",
        );
    }
    for (index, field) in input.fields.iter().enumerate() {
        let at = fields_at.index(index);
        if let Some(min) = field.min_length {
            let max = field.text_max_length() as i64;
            if min > max {
                ck.push(
                    at.key("minLength"),
                    AskErrorCode::RANGE_INVALID,
                    format!("minLength ({min}) is more than maxLength ({max})."),
                    "Lower minLength, or raise maxLength.",
                );
            }
        }
        if let (Some(min), Some(max)) = (field.min, field.max)
            && min > max
        {
            ck.push(
                at.key("min"),
                AskErrorCode::RANGE_INVALID,
                format!(
                    "min ({}) is more than max ({}).",
                    super::errors::js_number(min),
                    super::errors::js_number(max)
                ),
                "Lower min, or raise max.",
            );
        }
        let options_at = at.key("options");
        for (option_index, first) in repeats(field.options().iter().map(|option| option.id.as_str())) {
            let option = options_at.index(option_index);
            ck.push(
                option.key("id"),
                AskErrorCode::DUPLICATE_ID,
                format!(
                    "Option id \"{}\" is already used by fields[{index}].options[{first}].",
                    field.options()[option_index].id
                ),
                "Give every option of the field a unique id.",
            );
        }
        if let Some(default) = &field.default {
            check_form_value(ck, field, index, default, at.key("default"), true);
        }
    }
    Some(input)
}

fn files(ck: &mut Checker, value: &Value) -> Option<FilesInput> {
    let root = Loc::Root;
    let object =
        ck.object(value, root, &["prompt", "title", "submitLabel", "allowDecline", "accept", "minFiles", "maxFiles"])?;
    let shared = shared(ck, object, root, true);
    let limits = &ASK_LIMITS.files;
    let accept_at = root.key("accept");
    let names: Vec<&str> = ASK_FILE_ACCEPT.iter().map(|accept| accept.as_str()).collect();
    let accept = ck
        .required(object, root, "accept")
        .and_then(|value| ck.list(value, accept_at, 1, ASK_FILE_ACCEPT.len()))
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(index, item)| ck.one_of(item, accept_at.index(index), &names).and_then(FileAccept::parse))
                .collect::<Vec<_>>()
        });
    let (min, max) = (limits.min_files as i64, limits.max_files as i64);
    let min_files = ck.int(object, root, "minFiles", min, Some(max));
    let max_files = ck.int(object, root, "maxFiles", min, Some(max));
    if ck.aborted {
        return None;
    }
    let input = FilesInput {
        prompt: shared.prompt?,
        title: shared.title,
        submit_label: shared.submit_label,
        allow_decline: shared.allow_decline,
        accept: accept?,
        min_files,
        max_files,
    };
    for (index, first) in repeats(input.accept.iter().map(|accept| accept.as_str())) {
        ck.push(
            accept_at.index(index),
            AskErrorCode::DUPLICATE_ID,
            format!("\"{}\" is already listed at accept[{first}].", input.accept[index].as_str()),
            "List each accept value once.",
        );
    }
    let bounds = input.count_bounds();
    if bounds.min > bounds.max {
        let limit = match input.max_files {
            Some(max) => format!("maxFiles ({max})"),
            None => format!("the {}-file cap", limits.max_files),
        };
        ck.push(
            root.key("minFiles"),
            AskErrorCode::RANGE_INVALID,
            format!("minFiles ({}) is more than {limit}.", bounds.min),
            "Lower minFiles, or raise maxFiles.",
        );
    }
    Some(input)
}
