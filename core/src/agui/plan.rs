//! What a run does, decided from the conversation as stored and what the client sent: the
//! AG-UI interrupt rules.
//!
//! - A resume entry that names the open interrupt answers it; one that names an interrupt
//!   answered before (here, or in the chat, the watch, the API) changes nothing and is said
//!   back (`alreadyAnswered`), so replaying a resume is safe.
//! - Resolving an expired interrupt, or naming one never asked here, is an error; cancelling
//!   an expired one is how a client gets past it, and changes nothing.
//! - While an interrupt is open, a run must address it: a new message instead is an error.
//! - The calls of the client's own tools the last run left open are interrupts too: one
//!   resume answers them all, each with the tool's result (or cancelled: not run); a client
//!   that does not resume may send the results as `role: "tool"` messages instead.
//! - A run with nothing new only syncs: the snapshot, and what is open now.

use ag_ui::outcome::{ResumeEntry, ResumeStatus};
use serde_json::Value;

use palaver_wire::conversation::model::{AskEvent, AskStatus, HistoryRow};
use palaver_wire::error::FieldError;

use super::interrupt::answer_of;
use crate::turn::client_tools::{self, ClientResult};

/// Why a resume that comes with a new message is refused.
const RESUME_ALONE: &str = "Send the resume alone: a new message cannot come with it.";

/// What a call of the client's tool is told when the client cancelled it.
const CANCELLED_CALL: &str = "The app did not run this call: the user cancelled it.";

#[derive(Debug, PartialEq)]
pub enum Plan {
    /// No turn: the snapshot, the open interrupt if any, and the resumed interrupts that were
    /// answered before.
    Sync {
        already: Vec<String>,
    },
    /// A turn on the client's new message(s); `taken`: their ids.
    Prompt {
        text: String,
        taken: Vec<String>,
    },
    /// A turn resumed by the answer to the open interrupt.
    Answer {
        tool_call_id: String,
        answer: Value,
    },
    /// A turn that goes on from the results of the client's calls.
    ToolResults(Vec<ClientResult>),
    Refuse(Refusal),
}

/// A run refused after it started: `RUN_ERROR`'s code and message, and the contract's errors
/// of an answer that did not check.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    pub errors: Vec<FieldError>,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), errors: Vec::new() }
    }
}

/// `tool_messages`: the results the client sent as `role: "tool"` messages, by call id (how
/// clients that do not resume interrupts answer their own tools' calls).
pub fn plan(
    pending: Option<&AskEvent>,
    rows: &[HistoryRow],
    resume: &[ResumeEntry],
    new: Vec<(String, String)>,
    tool_messages: &[(String, Value)],
) -> Plan {
    let mut already = Vec::new();
    let mut answer = None;
    // While an ask is open, the client's calls wait behind it (a step pauses on one or the other).
    let open_calls = if pending.is_none() { client_tools::open_calls(rows) } else { Vec::new() };
    let mut results: Vec<ClientResult> = Vec::new();
    for entry in resume {
        let id = entry.interrupt_id.as_str();
        if open_calls.iter().any(|call| call.id == id) {
            if results.iter().any(|result| result.call_id == id) {
                return Plan::Refuse(named_twice(id));
            }
            let result = match entry.status {
                ResumeStatus::Resolved => entry.payload.clone().unwrap_or(Value::Null),
                ResumeStatus::Cancelled => serde_json::json!({"error": CANCELLED_CALL}),
            };
            results.push(ClientResult { call_id: id.to_string(), result });
            continue;
        }
        if client_tools::answered(rows, id) {
            already.push(id.to_string());
            continue;
        }
        if let Some(ask) = pending.filter(|ask| ask.tool_call_id == id) {
            if answer.is_some() {
                return Plan::Refuse(named_twice(id));
            }
            answer = Some((id.to_string(), answer_of(entry, ask)));
            continue;
        }
        match status_of(rows, id) {
            // AG-UI clients get past an expired interrupt by cancelling it: that is no error.
            Some((AskStatus::Expired, _)) if entry.status == ResumeStatus::Cancelled => already.push(id.to_string()),
            Some((AskStatus::Expired, expired_at)) => {
                let when = expired_at.map(|at| format!(" at {at}")).unwrap_or_default();
                return Plan::Refuse(Refusal::new(
                    "interrupt_expired",
                    format!("Interrupt {id} expired{when} before it was answered; it can no longer be resumed."),
                ));
            }
            Some(_) => already.push(id.to_string()),
            None => {
                return Plan::Refuse(Refusal::new(
                    "unknown_interrupt",
                    format!("This thread has no interrupt {id}: resume one a run of this thread ended with."),
                ));
            }
        }
    }
    if results.is_empty() {
        results = tool_messages
            .iter()
            .filter(|(id, _)| open_calls.iter().any(|call| call.id == id))
            .map(|(id, result)| ClientResult { call_id: id.clone(), result: result.clone() })
            .collect();
    }
    let unanswered: Vec<&str> =
        open_calls.iter().map(|call| call.id).filter(|id| results.iter().all(|result| result.call_id != *id)).collect();
    if !results.is_empty() && !unanswered.is_empty() {
        return Plan::Refuse(Refusal::new(
            "interrupt_pending",
            format!(
                "One resume answers every open call of the app's tools; {} is not answered.",
                unanswered.join(", ")
            ),
        ));
    }
    if !new.is_empty() && !unanswered.is_empty() {
        return Plan::Refuse(Refusal::new(
            "interrupt_pending",
            format!(
                "The app's tool calls {} wait for their results: resume them before sending a new message.",
                unanswered.join(", ")
            ),
        ));
    }
    if !results.is_empty() {
        if !new.is_empty() {
            return Plan::Refuse(Refusal::new("interrupt_pending", RESUME_ALONE));
        }
        return Plan::ToolResults(results);
    }
    if !new.is_empty() {
        if let Some(ask) = pending {
            let message = match answer {
                Some(_) => RESUME_ALONE.to_string(),
                None => format!(
                    "Interrupt {} waits for an answer: resume it (resolved or cancelled) before sending a new message.",
                    ask.tool_call_id
                ),
            };
            return Plan::Refuse(Refusal::new("interrupt_pending", message));
        }
        let (taken, texts): (Vec<String>, Vec<String>) = new.into_iter().unzip();
        return Plan::Prompt { text: texts.join("\n\n"), taken };
    }
    match answer {
        Some((tool_call_id, answer)) => Plan::Answer { tool_call_id, answer },
        None => Plan::Sync { already },
    }
}

fn named_twice(id: &str) -> Refusal {
    Refusal::new("duplicate_resume", format!("The resume names interrupt {id} twice."))
}

/// How the ask of call `id` ended, and when it expired (if it did); `None` when no ask of
/// that id is in the conversation.
fn status_of<'r>(rows: &'r [HistoryRow], id: &str) -> Option<(AskStatus, Option<&'r str>)> {
    rows.iter().find_map(|row| match row {
        HistoryRow::ToolCall { tool_call_id, ask: Some(ask), .. } if tool_call_id == id => {
            Some((ask.status, ask.expired_at.as_deref()))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests;
