//! A person's notification settings, for all their devices: quiet hours (no push then, one
//! summary after), and the approvals that only open Palaver from a notification (every one, or
//! those of the tools they name) beside the destructive ones, which never answer from it.

mod quiet;
mod store;

use super::message::answerable_buttons;
use crate::db::Pool;
use crate::error::{AppResult, FieldError};
use palaver_contract::asks::SimpleCardButton;
use palaver_wire::conversation::model::{AskEvent, AskOrigin};
use palaver_wire::push::{NotificationSettings, QuietHours};
pub use quiet::Quiet;
use store::SettingsRow;

/// The most tools a person may name.
const TOOLS_MAX: usize = 100;

/// The longest tool name kept (MCP's own limit is 128).
const TOOL_NAME_MAX_CHARS: usize = 128;

/// Settings whose every part was checked.
pub struct CheckedSettings(NotificationSettings);

/// Checks settings as a person sent them: every refusal at once, each at its path. Tool names
/// are trimmed, blanks dropped and repeats kept once.
pub fn check_settings(settings: NotificationSettings) -> Result<CheckedSettings, Vec<FieldError>> {
    let mut refusals = match &settings.quiet_hours {
        Some(hours) => Quiet::check(hours).err().unwrap_or_default(),
        None => Vec::new(),
    };
    let mut tools: Vec<String> = Vec::new();
    for (index, name) in settings.open_only_tools.iter().enumerate() {
        let name = name.trim();
        if name.chars().count() > TOOL_NAME_MAX_CHARS {
            refusals.push(FieldError {
                code: "INVALID_TOOL".into(),
                message: "The tool name is too long to be a tool's.".into(),
                fix: format!("Give tool names of at most {TOOL_NAME_MAX_CHARS} characters."),
                path: format!("openOnlyTools[{index}]"),
            });
        } else if !name.is_empty() && !tools.iter().any(|kept| kept == name) {
            tools.push(name.to_string());
        }
    }
    if tools.len() > TOOLS_MAX {
        refusals.push(FieldError {
            code: "TOO_MANY_TOOLS".into(),
            message: format!("{} tools are named; at most {TOOLS_MAX} may be.", tools.len()),
            fix: "Turn on \"No approvals from a notification\" instead of naming every tool.".into(),
            path: "openOnlyTools".into(),
        });
    }
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let quiet_hours = settings.quiet_hours.map(|hours| QuietHours {
        from: hours.from.trim().to_string(),
        until: hours.until.trim().to_string(),
        time_zone: hours.time_zone.trim().to_string(),
    });
    Ok(CheckedSettings(NotificationSettings { quiet_hours, open_only_tools: tools, ..settings }))
}

/// The person's settings; the defaults when they saved none.
pub(crate) async fn read(pool: &Pool, user_id: &str) -> AppResult<NotificationSettings> {
    let Some(row) = store::settings(pool, user_id).await? else { return Ok(NotificationSettings::default()) };
    let quiet_hours = match (row.quiet_from, row.quiet_until, row.quiet_time_zone) {
        (Some(from), Some(until), Some(time_zone)) => Some(QuietHours { from, until, time_zone }),
        _ => None,
    };
    let open_only_tools = serde_json::from_str(&row.open_only_tools).unwrap_or_else(|err| {
        tracing::error!(%err, user_id, "stored tools whose approvals only open Palaver are not a list; none are used");
        Vec::new()
    });
    Ok(NotificationSettings { quiet_hours, approvals_open_only: row.approvals_open_only == 1, open_only_tools })
}

pub(super) async fn save(pool: &Pool, user_id: &str, checked: &CheckedSettings) -> AppResult<()> {
    let settings = &checked.0;
    let quiet = settings.quiet_hours.as_ref();
    let row = SettingsRow {
        quiet_from: quiet.map(|hours| hours.from.clone()),
        quiet_until: quiet.map(|hours| hours.until.clone()),
        quiet_time_zone: quiet.map(|hours| hours.time_zone.clone()),
        approvals_open_only: i32::from(settings.approvals_open_only),
        open_only_tools: serde_json::to_string(&settings.open_only_tools)?,
    };
    store::save_settings(pool, user_id, &row).await
}

impl CheckedSettings {
    pub fn settings(&self) -> &NotificationSettings {
        &self.0
    }
}

/// The person's quiet hours, when they set any that still hold (a time zone the system no
/// longer knows is logged, and holds nothing back).
pub(super) fn quiet_of(settings: &NotificationSettings, user_id: &str) -> Option<Quiet> {
    let hours = settings.quiet_hours.as_ref()?;
    Quiet::check(hours)
        .inspect_err(|refusals| tracing::warn!(?refusals, user_id, "stored quiet hours no longer hold"))
        .ok()
}

/// The buttons of `ask` a notification or a mail may answer with for a person of `settings`:
/// none for a card only Palaver can answer (see [`answerable_buttons`]) or an approval the
/// person has only open Palaver.
pub(crate) fn buttons_outside<'a>(settings: &NotificationSettings, ask: &'a AskEvent) -> &'a [SimpleCardButton] {
    if opens_only(settings, ask) { &[] } else { answerable_buttons(&ask.simple) }
}

/// Whether the person's settings have `ask` only open Palaver from a notification.
fn opens_only(settings: &NotificationSettings, ask: &AskEvent) -> bool {
    if ask.origin != Some(AskOrigin::Approval) {
        return false;
    }
    settings.approvals_open_only
        || ask.tool_name.as_ref().is_some_and(|tool| settings.open_only_tools.iter().any(|named| named == tool))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_are_kept_trimmed_once_each() {
        let sent = NotificationSettings {
            open_only_tools: vec![" deleteFile ".into(), "".into(), "deleteFile".into(), "send_mail".into()],
            ..NotificationSettings::default()
        };
        assert_eq!(check_settings(sent).ok().unwrap().settings().open_only_tools, ["deleteFile", "send_mail"]);
    }

    fn approval(tool: &str, origin: Option<&str>) -> AskEvent {
        serde_json::from_value(serde_json::json!({
            "toolCallId": "ask_1", "kind": "confirm", "input": {"prompt": "Run it?"},
            "simple": {"toolCallId": "ask_1", "kind": "confirm", "text": "Run it?", "buttons": [], "handoff": false},
            "origin": origin, "toolName": tool,
        }))
        .unwrap()
    }

    #[test]
    fn approvals_only_open_palaver_as_the_person_chose() {
        let named = NotificationSettings { open_only_tools: vec!["send_mail".into()], ..Default::default() };
        assert!(opens_only(&named, &approval("send_mail", Some("approval"))));
        assert!(!opens_only(&named, &approval("create_directory", Some("approval"))), "a tool not named");
        assert!(!opens_only(&named, &approval("send_mail", None)), "the model's own ask is no approval");
        let every = NotificationSettings { approvals_open_only: true, ..Default::default() };
        assert!(opens_only(&every, &approval("create_directory", Some("approval"))));
        assert!(!opens_only(&every, &approval("send_mail", Some("elicitation"))));
        assert!(!opens_only(&NotificationSettings::default(), &approval("send_mail", Some("approval"))));
    }

    #[test]
    fn every_refusal_is_given_at_once() {
        let sent = NotificationSettings {
            quiet_hours: Some(QuietHours { from: "22:00".into(), until: "7".into(), time_zone: "UTC".into() }),
            open_only_tools: vec!["x".repeat(129)],
            ..NotificationSettings::default()
        };
        let paths: Vec<String> = check_settings(sent).err().unwrap().into_iter().map(|refusal| refusal.path).collect();
        assert_eq!(paths, ["quietHours.until", "openOnlyTools[0]"]);
        let many = NotificationSettings {
            open_only_tools: (0..=TOOLS_MAX).map(|index| format!("tool{index}")).collect(),
            ..NotificationSettings::default()
        };
        assert_eq!(check_settings(many).err().unwrap()[0].code, "TOO_MANY_TOOLS");
    }
}
