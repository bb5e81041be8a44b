//! `validate_ask_input`: an `ask_<kind>` call against its schema and rules.

use serde_json::Value;

use super::ask::Ask;
use super::check::Checker;
use super::errors::{AskError, AskErrorCode, Loc, finalize};
use super::input::{ASK_FILE_ACCEPT, AskKind, AskSurface, ConfirmInput, FileAccept, FilesInput, MarkdownInput};
use super::limits::ASK_LIMITS;
use super::validate_choice::choice;
use super::validate_common::{repeats, shared};
use super::validate_form::form;
use super::validate_questions::{questions, unmint};
use crate::text::{js_trim as visible_label, utf16_len};

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
        AskKind::Questions => questions(&mut ck, input, surface).map(Ask::Questions),
    };
    match ask {
        Some(ask) if ck.errors.is_empty() => Ok(ask),
        _ => Err(finalize(ck.errors)),
    }
}

/// Reads back an ask as it was stored and sent ([`Ask::stored_input`]): a question set with
/// the ids Palaver minted, any other kind as the model wrote it.
pub fn parse_stored_ask(kind: AskKind, stored: &Value) -> Result<Ask, Vec<AskError>> {
    match kind {
        AskKind::Questions => parse_ask_input(kind, &unmint(stored).map_err(|error| vec![error])?, AskSurface::Full),
        _ => parse_ask_input(kind, stored, AskSurface::Full),
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

fn confirm(ck: &mut Checker, value: &Value) -> Option<ConfirmInput> {
    let root = Loc::Root;
    let object = ck.object(
        value,
        root,
        &["prompt", "title", "locale", "confirmLabel", "denyLabel", "destructive", "allowDecline"],
    )?;
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
        locale: shared.locale,
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
        &[
            "prompt",
            "title",
            "locale",
            "submitLabel",
            "allowDecline",
            "initial",
            "placeholder",
            "minLength",
            "maxLength",
        ],
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
        locale: shared.locale,
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

fn files(ck: &mut Checker, value: &Value) -> Option<FilesInput> {
    let root = Loc::Root;
    let object = ck.object(
        value,
        root,
        &["prompt", "title", "locale", "submitLabel", "allowDecline", "accept", "minFiles", "maxFiles"],
    )?;
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
        locale: shared.locale,
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
