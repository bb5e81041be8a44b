//! `palaver asks check|card|answer`: the ask contract on the command line, for native-client
//! developers and black-box tests. Each reads one JSON request on stdin.

use clap::Subcommand;
use serde::Deserialize;
use serde_json::{Value, json};

use palaver_contract::asks::{
    ASK_LIMITS, AskKind, AskSurface, kind_offered_on, parse_ask_input, to_simple_card, validate_ask_input,
    validate_ask_response,
};

#[derive(Clone, Copy, Debug, Subcommand)]
pub enum AsksCommand {
    /// Check an ask: reads {"kind", "input", "surface"?}, prints {"errors": [...]}.
    Check,
    /// Derive an ask's simple card: reads {"kind", "input", "toolCallId"}, prints the card.
    Card,
    /// Check an answer: reads {"kind", "input", "response", "maxFileSizeBytes"?}, prints {"errors": [...]}.
    Answer,
}

/// What a run prints and how it exits: 0 valid, 1 invalid, 2 unreadable input.
#[derive(Debug, PartialEq)]
pub struct Outcome {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    pub(crate) fn printed(valid: bool, value: &Value) -> Self {
        let stdout = serde_json::to_string_pretty(value).unwrap_or_default() + "\n";
        Outcome { code: if valid { 0 } else { 1 }, stdout, stderr: String::new() }
    }

    pub(crate) fn unreadable(reason: impl Into<String>) -> Self {
        Outcome { code: 2, stdout: String::new(), stderr: reason.into() + "\n" }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Request {
    kind: String,
    input: Value,
    surface: Option<String>,
    tool_call_id: Option<String>,
    response: Option<Value>,
    max_file_size_bytes: Option<u64>,
}

fn parse_request(command: AsksCommand, text: &str) -> Result<(Request, AskKind, AskSurface), String> {
    let request: Request =
        serde_json::from_str(text).map_err(|err| format!("The request is not readable JSON: {err}"))?;
    let kind = AskKind::parse(&request.kind).ok_or_else(|| format!("Unknown ask kind \"{}\".", request.kind))?;
    let surface = match &request.surface {
        None => AskSurface::Full,
        Some(name) => AskSurface::parse(name).ok_or_else(|| format!("Unknown ask surface \"{name}\"."))?,
    };
    kind_offered_on(kind, surface)?;
    let needs = match command {
        AsksCommand::Check => None,
        AsksCommand::Card => request.tool_call_id.is_none().then_some("toolCallId"),
        AsksCommand::Answer => request.response.is_none().then_some("response"),
    };
    if let Some(field) = needs {
        return Err(format!("The request needs \"{field}\"."));
    }
    Ok((request, kind, surface))
}

/// [`run`] on raw stdin bytes, which must be UTF-8.
pub fn run_bytes(command: AsksCommand, stdin: &[u8]) -> Outcome {
    match std::str::from_utf8(stdin) {
        Ok(text) => run(command, text),
        Err(_) => Outcome::unreadable("The request is not UTF-8 text."),
    }
}

pub fn run(command: AsksCommand, stdin: &str) -> Outcome {
    let (request, kind, surface) = match parse_request(command, stdin) {
        Ok(parsed) => parsed,
        Err(reason) => return Outcome::unreadable(reason),
    };
    match command {
        AsksCommand::Check => {
            let errors = validate_ask_input(kind, &request.input, surface);
            Outcome::printed(errors.is_empty(), &json!({ "errors": errors }))
        }
        AsksCommand::Card => match parse_ask_input(kind, &request.input, surface) {
            Ok(ask) => Outcome::printed(
                true,
                &json!(to_simple_card(&ask, request.tool_call_id.as_deref().unwrap_or_default())),
            ),
            Err(errors) => Outcome::printed(false, &json!({ "errors": errors })),
        },
        AsksCommand::Answer => match parse_ask_input(kind, &request.input, surface) {
            Ok(ask) => {
                let cap = request.max_file_size_bytes.unwrap_or(ASK_LIMITS.files.default_max_file_size_bytes);
                let errors = validate_ask_response(&ask, request.response.as_ref().unwrap_or(&Value::Null), cap);
                Outcome::printed(errors.is_empty(), &json!({ "errors": errors }))
            }
            Err(errors) => Outcome::unreadable(format!(
                "The ask input is not a valid {} ask ({} errors); see `palaver asks check`.",
                kind.as_str(),
                errors.len()
            )),
        },
    }
}
