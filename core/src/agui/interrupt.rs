//! Palaver's asks as AG-UI interrupts, and a resume entry as the answer it gives.

use ag_ui::JsonObject;
use ag_ui::outcome::{Interrupt, ResumeEntry, ResumeStatus};
use serde_json::{Value, json};

use crate::turn::client_tools::OpenCall;
use palaver_contract::asks::answer_schema::answer_schema_with_patterns;
use palaver_contract::asks::{Ask, parse_stored_ask};
use palaver_wire::conversation::model::{AskEvent, AskOrigin};

/// The interrupt a pending ask ends a run with. Its id is the ask's tool call id (the id an
/// answer names everywhere); the call it is about is the ask's own, or an approval's guarded call.
pub fn interrupt(ask: &AskEvent) -> Interrupt {
    let reason = match ask.origin {
        Some(AskOrigin::Approval) => "confirmation",
        _ => "input_required",
    };
    let mut palaver = json!({"kind": ask.kind, "input": ask.input, "simple": ask.simple});
    for (key, value) in [
        ("origin", ask.origin.map(|origin| json!(origin.as_str()))),
        ("toolName", ask.tool_name.as_ref().map(|name| json!(name))),
        ("toolTitle", ask.tool_title.as_ref().map(|title| json!(title))),
        ("server", ask.server.as_ref().map(|server| json!(server))),
        ("arguments", ask.arguments.as_ref().map(|arguments| json!(arguments))),
        ("url", ask.url.as_ref().map(|url| json!(url))),
    ] {
        if let Some(value) = value {
            palaver[key] = value;
        }
    }
    Interrupt {
        id: ask.tool_call_id.clone(),
        reason: reason.into(),
        message: Some(ask.simple.text.clone()),
        tool_call_id: Some(ask.guarded_call_id.as_deref().unwrap_or(&ask.tool_call_id).into()),
        response_schema: parsed(ask)
            .map(|parsed| answer_schema_with_patterns(&parsed, &ask.field_patterns))
            .and_then(into_object),
        expires_at: ask.expires_at.clone(),
        metadata: into_object(json!({"palaver": palaver})),
        subagent_run_id: None,
    }
}

/// The interrupt an open call of the client's own tool is: the app runs it, and the resume's
/// payload is its result (cancelled: it did not run).
pub fn client_call(call: &OpenCall<'_>) -> Interrupt {
    Interrupt {
        id: call.id.to_string(),
        reason: "tool_call".into(),
        message: Some(format!("The app runs its tool {}.", call.name)),
        tool_call_id: Some(call.id.into()),
        response_schema: None,
        expires_at: None,
        metadata: into_object(json!({"palaver": {"toolName": call.name, "arguments": call.args}})),
        subagent_run_id: None,
    }
}

fn parsed(ask: &AskEvent) -> Option<Ask> {
    parse_stored_ask(ask.kind, &ask.input).ok()
}

fn into_object(value: Value) -> Option<JsonObject> {
    match value {
        Value::Object(object) => Some(object),
        _ => None,
    }
}

/// The answer a resume entry gives the ask: a resolved entry's payload is Palaver's answer
/// envelope (`{"action": "accept", "content": …}` or `{"action": "decline"}`); a cancelled
/// entry is a Skip — a decline, or for a confirm that cannot be declined (an approval), its
/// "no".
pub fn answer_of(entry: &ResumeEntry, ask: &AskEvent) -> Value {
    match entry.status {
        ResumeStatus::Resolved => entry.payload.clone().unwrap_or(Value::Null),
        ResumeStatus::Cancelled => match parsed(ask) {
            Some(ask @ Ask::Confirm(_)) if !ask.allows_decline() => {
                json!({"action": "accept", "content": {"confirmed": false}})
            }
            _ => json!({"action": "decline"}),
        },
    }
}
