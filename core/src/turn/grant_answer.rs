//! The grant an approval's answer may ask for beside it (Palaver's addition to the envelope):
//! checked against the approval it comes with before anything is stored.

use serde_json::Value;

use super::store::StoredPendingAsk;
use crate::error::{AppError, AppResult, FieldError};
use palaver_wire::grants::{ArgumentKind, GrantRequest, GrantScope, LIFETIME_SECONDS, covers_call};

/// Takes `grant` off an approval's answer (Palaver's addition beside the envelope): only on an
/// approval that offers grants, only with an answer that approves, and only a grant that
/// covers the very call approved.
pub(super) fn split_grant(pending: &StoredPendingAsk, response: &Value) -> AppResult<(Value, Option<GrantRequest>)> {
    let Some(grant) = response.get("grant") else { return Ok((response.clone(), None)) };
    let refuse = |code: &str, path: &str, message: &str, fix: &str| AppError::InvalidAnswer {
        fields: vec![FieldError { code: code.into(), fix: fix.into(), message: message.into(), path: path.into() }],
    };
    let parsed = match grant {
        Value::String(scope) => {
            GrantScope::parse(scope).map(|scope| GrantRequest { scope, lifetime_seconds: None, arguments: None })
        }
        other => serde_json::from_value::<GrantRequest>(other.clone()).ok(),
    };
    let Some(request) = parsed else {
        return Err(refuse(
            "GRANT_UNKNOWN",
            "grant",
            "grant must be \"turn\", \"conversation\" or \"always\", or {scope, lifetimeSeconds?, arguments?}.",
            "Send grant: \"conversation\" (or an object with that scope), or leave it out to allow this call once.",
        )
        .into());
    };
    if !pending.ask.grantable {
        return Err(refuse(
            "GRANT_NOT_OFFERED",
            "grant",
            "This approval cannot allow later calls: it is destructive, or its tool never offers grants.",
            "Leave grant out: this call is approved once.",
        )
        .into());
    }
    if response["action"] != "accept" || response["content"]["confirmed"] != true {
        return Err(refuse(
            "GRANT_NEEDS_APPROVAL",
            "grant",
            "A grant comes with an approval, not with a denial.",
            "Send {action: \"accept\", content: {confirmed: true}} with the grant, or leave grant out.",
        )
        .into());
    }
    if let Some(seconds) = request.lifetime_seconds.filter(|seconds| !LIFETIME_SECONDS.contains(seconds)) {
        return Err(refuse(
            "GRANT_LIFETIME",
            "grant.lifetimeSeconds",
            &format!("A grant lasts from a minute to thirty days, not {seconds} seconds."),
            "Send lifetimeSeconds from 60 to 2592000, or leave it out for a grant that lasts until revoked.",
        )
        .into());
    }
    if let Some(patterns) = &request.arguments {
        let arguments = pending.ask.arguments.as_deref().unwrap_or_default();
        for (key, pattern) in patterns {
            let Some(argument) = arguments.iter().find(|argument| &argument.key == key) else {
                return Err(refuse(
                    "GRANT_ARGUMENT_UNKNOWN",
                    &format!("grant.arguments.{key}"),
                    &format!("The call has no argument “{key}”."),
                    "Give patterns only for the call's own arguments.",
                )
                .into());
            };
            if let Err(why) = pattern.fits(argument.kind.unwrap_or(ArgumentKind::Text)) {
                return Err(refuse(
                    "GRANT_PATTERN",
                    &format!("grant.arguments.{key}"),
                    &why,
                    "Change the pattern, or allow exactly this value.",
                )
                .into());
            }
        }
        let input = pending.guarded_call().map(|call| call.input.clone()).unwrap_or_default();
        if !covers_call(patterns, &input) {
            return Err(refuse(
                "GRANT_MISSES_CALL",
                "grant.arguments",
                "The grant does not cover the call you are approving: every argument needs a pattern that covers its value.",
                "Widen the patterns to include this call's arguments, or allow it once.",
            )
            .into());
        }
    }
    let mut response = response.clone();
    if let Some(object) = response.as_object_mut() {
        object.remove("grant");
    }
    Ok((response, Some(request)))
}
