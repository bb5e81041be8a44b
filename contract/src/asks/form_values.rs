//! The form value checker, used for defaults (`is_default`) and for answers alike.

use serde_json::Value;

use super::check::Checker;
use super::errors::{AskErrorCode, Loc, js_number, quote_str};
use super::form_field::{FormField, FormFieldType};
use super::limits::ASK_LIMITS;
use crate::text::{js_trim, utf16_len};

/// Whether a value counts as unanswered: a blank string or an empty list.
pub fn is_blank(value: &Value) -> bool {
    match value {
        Value::String(text) => js_trim(text).is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    }
}

/// The largest whole number a float holds exactly (2^53).
const EXACT_WHOLE_MAX: f64 = 9_007_199_254_740_992.0;

/// A number as JSON: a whole one without a fraction (`12`, not `12.0`), as a person writes it.
pub fn number_value(number: f64) -> Value {
    if number.fract() == 0.0 && number.abs() <= EXACT_WHOLE_MAX {
        // In range and whole: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(number as i64);
    }
    Value::from(number)
}

/// Every whole number in `value` written without a fraction, so an answer a client sent as
/// `12.0` is stored, shown and told to the model as `12`.
pub fn whole_numbers_as_integers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            if let Some(float) = number.as_f64() {
                *value = number_value(float);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers_as_integers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers_as_integers),
        _ => {}
    }
}

fn type_name(field_type: FormFieldType) -> &'static str {
    match field_type {
        FormFieldType::Boolean => "true or false",
        FormFieldType::Date => "a date string",
        FormFieldType::Datetime => "a datetime string",
        FormFieldType::Email => "an email address",
        FormFieldType::Multiselect => "a list of option ids",
        FormFieldType::Number => "a number",
        FormFieldType::Phone => "a phone number",
        FormFieldType::Select => "an option id",
        FormFieldType::Text | FormFieldType::Textarea => "a string",
        FormFieldType::Time => "a time string",
        FormFieldType::Url => "an http or https URL",
    }
}

fn mismatch(ck: &mut Checker, field: &FormField, at: Loc<'_>) {
    let path = at.path();
    let name = type_name(field.field_type);
    ck.push(
        at,
        AskErrorCode::FIELD_TYPE_MISMATCH,
        format!("{path} must be {name} for the {} field \"{}\".", field.field_type.as_str(), field.id),
        format!("Make {path} {name}."),
    );
}

fn not_offered(ck: &mut Checker, field: &FormField, index: usize, id: &str, at: Loc<'_>, is_default: bool) {
    if is_default {
        ck.push(
            at,
            AskErrorCode::DEFAULT_NOT_IN_OPTIONS,
            format!("Default \"{id}\" is not the id of any option of the field."),
            format!("Use an id from fields[{index}].options, or remove it from the default."),
        );
    } else {
        ck.push(
            at,
            AskErrorCode::OPTION_NOT_OFFERED,
            format!("\"{id}\" is not one of the field's options."),
            format!("Use the id of one of the options of the field \"{}\".", field.id),
        );
    }
}

/// Checks one value (or default) of `field`, the field at `index` of the form.
pub fn check_form_value(
    ck: &mut Checker,
    field: &FormField,
    index: usize,
    value: &Value,
    at: Loc<'_>,
    is_default: bool,
) {
    let offered = |id: &str| field.options().iter().any(|option| option.id == id);
    match field.field_type {
        FormFieldType::Boolean => {
            if !value.is_boolean() {
                mismatch(ck, field, at);
            }
        }
        FormFieldType::Number => check_number(ck, field, value, at),
        FormFieldType::Select => match value.as_str() {
            None => mismatch(ck, field, at),
            Some(id) if !offered(id) => not_offered(ck, field, index, id, at, is_default),
            Some(_) => {}
        },
        FormFieldType::Multiselect => {
            let ids: Option<Vec<&str>> = value.as_array().and_then(|items| items.iter().map(Value::as_str).collect());
            let Some(ids) = ids else {
                return mismatch(ck, field, at);
            };
            if ids.len() > ASK_LIMITS.choice.options_max {
                ck.too_many(at, ASK_LIMITS.choice.options_max);
            }
            for (position, id) in ids.iter().enumerate() {
                let item = at.index(position);
                if let Some(first) = ids[..position].iter().position(|earlier| earlier == id) {
                    let path = at.path();
                    ck.push(
                        item,
                        AskErrorCode::DUPLICATE_ID,
                        format!("\"{id}\" is already listed at {path}[{first}]."),
                        format!("List each option id in {path} once."),
                    );
                } else if !offered(id) {
                    not_offered(ck, field, index, id, item, is_default);
                }
            }
        }
        FormFieldType::Date | FormFieldType::Time | FormFieldType::Datetime => {
            let Some(text) = value.as_str() else {
                return mismatch(ck, field, at);
            };
            let (valid, format, example) = match field.field_type {
                FormFieldType::Date => (is_iso_date(text), "YYYY-MM-DD", "2026-10-01"),
                FormFieldType::Time => (is_hh_mm(text), "HH:mm (24-hour)", "09:30"),
                _ => (
                    is_iso_datetime_with_offset(text),
                    "an ISO 8601 date and time with Z or an offset such as +02:00 (seconds optional)",
                    "2026-10-01T09:30:00Z",
                ),
            };
            if !valid {
                let path = at.path();
                ck.push(
                    at,
                    AskErrorCode::INVALID_DATE,
                    format!("{path} {} is not a real {} in {format}.", quote_str(text), field.field_type.as_str()),
                    format!("Write {path} as {format}, such as \"{example}\"."),
                );
            }
        }
        FormFieldType::Text
        | FormFieldType::Textarea
        | FormFieldType::Email
        | FormFieldType::Url
        | FormFieldType::Phone => {
            let Some(text) = value.as_str() else {
                return mismatch(ck, field, at);
            };
            check_text(ck, field, text, at, is_default);
        }
    }
}

fn check_number(ck: &mut Checker, field: &FormField, value: &Value, at: Loc<'_>) {
    let Some(number) = value.as_f64() else {
        return mismatch(ck, field, at);
    };
    // Printed only for an error: most values are in range.
    let printed = || (at.path(), js_number(number));
    if field.integer == Some(true) && number.fract() != 0.0 {
        let (path, shown) = printed();
        ck.push(
            at,
            AskErrorCode::FIELD_TYPE_MISMATCH,
            format!("{path} is {shown}, but the field takes whole numbers only."),
            format!("Make {path} a whole number."),
        );
    } else if let Some(min) = field.min.filter(|min| number < *min) {
        let (path, shown) = printed();
        ck.push(
            at,
            AskErrorCode::OUT_OF_RANGE,
            format!("{path} is {shown}, below the field's min of {}.", js_number(min)),
            format!("Make {path} at least {}.", js_number(min)),
        );
    } else if let Some(max) = field.max.filter(|max| number > *max) {
        let (path, shown) = printed();
        ck.push(
            at,
            AskErrorCode::OUT_OF_RANGE,
            format!("{path} is {shown}, above the field's max of {}.", js_number(max)),
            format!("Make {path} at most {}.", js_number(max)),
        );
    }
}

fn check_text(ck: &mut Checker, field: &FormField, text: &str, at: Loc<'_>, is_default: bool) {
    let max = field.text_max_length();
    let length = utf16_len(text);
    let trimmed = utf16_len(js_trim(text));
    let before = ck.errors.len();
    // The path is printed only for an error: most values are fine.
    if length > max {
        let path = at.path();
        let unit = if max == 1 { "character" } else { "characters" };
        ck.push(
            at,
            AskErrorCode::TOO_LONG,
            format!("{path} is {length} characters, but the field allows at most {max}."),
            format!("Shorten {path} to {max} {unit} or fewer."),
        );
    }
    if trimmed == 0 && is_default {
        let path = at.path();
        ck.push(
            at,
            AskErrorCode::TOO_SHORT,
            format!("{path} must contain visible text."),
            format!("Write at least one visible character in {path}, or remove it."),
        );
    } else if let Some(min) = field.min_length.and_then(|min| usize::try_from(min).ok()).filter(|min| trimmed < *min) {
        let path = at.path();
        ck.push(
            at,
            AskErrorCode::TOO_SHORT,
            format!("{path} is {trimmed} characters, but the field needs at least {min}."),
            format!("Write at least {min} characters in {path}."),
        );
    }
    if ck.errors.len() > before || trimmed == 0 {
        return;
    }
    let (valid, problem) = match field.field_type {
        FormFieldType::Email => (is_email(text), "is not a valid email address"),
        FormFieldType::Url => (is_http_url(text), "is not an http or https URL"),
        FormFieldType::Phone => (is_phone(text), "is not a valid phone number"),
        _ => return,
    };
    if !valid {
        let path = at.path();
        let fix = if field.field_type == FormFieldType::Phone {
            format!(
                "Make {path} 7-15 digits, optionally starting with \"+\", with only spaces, dots, dashes, or parentheses between them."
            )
        } else {
            format!("Make {path} {}.", type_name(field.field_type))
        };
        ck.push(at, AskErrorCode::FIELD_TYPE_MISMATCH, format!("{path} {} {problem}.", quote_str(text)), fix);
    }
}

fn digits(text: &str, count: usize) -> Option<u32> {
    (text.len() == count && text.bytes().all(|byte| byte.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => 29,
        2 => 28,
        _ => 31,
    }
}

/// A real calendar date as `YYYY-MM-DD`.
pub fn is_iso_date(text: &str) -> bool {
    let mut parts = text.split('-');
    let (Some(year), Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    match (digits(year, 4), digits(month, 2), digits(day, 2)) {
        (Some(year), Some(month), Some(day)) => {
            (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
        }
        _ => false,
    }
}

/// A 24-hour time as `HH:mm`.
pub fn is_hh_mm(text: &str) -> bool {
    match text.split_once(':') {
        Some((hours, minutes)) => {
            digits(hours, 2).is_some_and(|hours| hours < 24) && digits(minutes, 2).is_some_and(|minutes| minutes < 60)
        }
        None => false,
    }
}

/// `HH:mm`, optionally with `:ss` and a fraction of a second.
fn is_time_with_optional_seconds(text: &str) -> bool {
    if text.len() <= 5 {
        return is_hh_mm(text);
    }
    // A sixth byte inside a character is not a time either (and must not be cut there).
    let Some((hh_mm, rest)) = text.split_at_checked(5) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(':') else {
        return false;
    };
    let (seconds, fraction) = match rest.split_once('.') {
        Some((seconds, fraction)) => (seconds, Some(fraction)),
        None => (rest, None),
    };
    is_hh_mm(hh_mm)
        && digits(seconds, 2).is_some_and(|seconds| seconds < 60)
        && fraction.is_none_or(|fraction| !fraction.is_empty() && fraction.bytes().all(|byte| byte.is_ascii_digit()))
}

/// An ISO 8601 date and time that names its zone: `Z` or `±HH:mm`; seconds optional.
pub fn is_iso_datetime_with_offset(text: &str) -> bool {
    let Some((date, time)) = text.split_once('T') else {
        return false;
    };
    let (clock, zone_ok) = if let Some(clock) = time.strip_suffix('Z') {
        (clock, true)
    } else if time.len() > 6 && matches!(time.as_bytes()[time.len() - 6], b'+' | b'-') {
        let (clock, offset) = time.split_at(time.len() - 6);
        (clock, is_hh_mm(&offset[1..]))
    } else {
        (time, false)
    };
    zone_ok && is_iso_date(date) && is_time_with_optional_seconds(clock)
}

/// An email address, by the reference's rule: a local part of letters, digits and `_'+-.`
/// (not starting with a dot, no two dots in a row, not ending with `'` or `.`), then a domain
/// of dot-separated labels ending in a top-level domain of at least two letters.
pub fn is_email(text: &str) -> bool {
    let Some((local, domain)) = text.rsplit_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && !local.starts_with('.')
        && !text.contains("..")
        && local.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"_'+-.".contains(&byte))
        && local.bytes().last().is_some_and(|byte| byte.is_ascii_alphanumeric() || b"_+-".contains(&byte));
    let labels: Vec<&str> = domain.split('.').collect();
    let Some((tld, hosts)) = labels.split_last() else {
        return false;
    };
    let domain_ok = !hosts.is_empty()
        && hosts.iter().all(|label| {
            label.bytes().next().is_some_and(|byte| byte.is_ascii_alphanumeric())
                && label.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'-')
        })
        && tld.len() >= 2
        && tld.bytes().all(|byte| byte.is_ascii_alphabetic());
    local_ok && domain_ok
}

/// An absolute `http` or `https` URL with a host.
pub fn is_http_url(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")) else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host.split(':').next().unwrap_or_default();
    !host.is_empty() && !text.chars().any(|ch| ch.is_whitespace() || ch.is_control())
}

/// 7–15 digits, optionally after a `+`, with only spaces, dots, dashes and parentheses between.
pub fn is_phone(text: &str) -> bool {
    let body = text.strip_prefix('+').unwrap_or(text);
    let limits = &ASK_LIMITS.form;
    let digit_count = body.bytes().filter(u8::is_ascii_digit).count();
    !body.is_empty()
        && body.bytes().all(|byte| byte.is_ascii_digit() || b" ().-".contains(&byte))
        && (limits.phone_digits_min..=limits.phone_digits_max).contains(&digit_count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_written_without_a_fraction() {
        assert_eq!(number_value(12.0).to_string(), "12");
        assert_eq!(number_value(-3.0).to_string(), "-3");
        assert_eq!(number_value(2.5).to_string(), "2.5");
        assert!(number_value(1e300).is_f64(), "too large to be exact: stays a float");
        let mut answer: Value =
            serde_json::from_str(r#"{"content": {"values": {"seats": 12.0, "ratio": 0.5, "list": [3.0]}}}"#).unwrap();
        whole_numbers_as_integers(&mut answer);
        assert_eq!(answer.to_string(), r#"{"content":{"values":{"list":[3],"ratio":0.5,"seats":12}}}"#);
    }

    #[test]
    fn dates_and_times() {
        assert!(is_iso_date("2026-10-01"));
        assert!(is_iso_date("2024-02-29"));
        assert!(!is_iso_date("2026-02-29"));
        assert!(!is_iso_date("2026-02-30"));
        assert!(!is_iso_date("2026-1-01"));
        assert!(is_hh_mm("09:30"));
        assert!(is_hh_mm("23:59"));
        assert!(!is_hh_mm("9:30am"));
        assert!(!is_hh_mm("24:00"));
        assert!(is_iso_datetime_with_offset("2026-10-01T09:30Z"));
        assert!(is_iso_datetime_with_offset("2026-10-01T09:30:00+02:00"));
        assert!(is_iso_datetime_with_offset("2026-10-01T09:30:00.123-05:30"));
        assert!(!is_iso_datetime_with_offset("2026-10-01T09:30:00"));
        assert!(!is_iso_datetime_with_offset("2026-10-01 09:30Z"));
        // Found by the fuzzer: the sixth byte of the clock inside a character.
        assert!(!is_iso_datetime_with_offset("2026-11-01T1e:3о00Z"));
        assert!(!is_iso_datetime_with_offset("2026-11-01T09:3о:00Z"));
    }

    #[test]
    fn emails_urls_phones() {
        assert!(is_email("ada@example.com"));
        assert!(is_email("a.b+tag@mail.example.co"));
        assert!(!is_email("not-an-email"));
        assert!(!is_email("a..b@example.com"));
        assert!(!is_email("ada@example"));
        assert!(is_http_url("https://example.com/path?q=1"));
        assert!(is_http_url("HTTP://example.com"));
        assert!(!is_http_url("javascript:alert(1)"));
        assert!(!is_http_url("ftp://example.com"));
        assert!(!is_http_url("https://"));
        assert!(is_phone("+14155552671"));
        assert!(is_phone("(415) 555-2671"));
        assert!(!is_phone("call me"));
        assert!(!is_phone("12345"));
    }
}
