//! What a push says: the notification for an ask (its conversation's title, the question, the
//! time left, and for a simple card of at most two buttons those buttons, each carrying its
//! capability from `crate::answer_links`).

use palaver_contract::asks::{ButtonStyle, SimpleCard, SimpleCardButton};
use palaver_wire::conversation::model::AskEvent;
use palaver_wire::push::{AskNotification, NotificationAction};

/// The most buttons a notification offers (what browsers show).
const ACTIONS_MAX: usize = 2;

/// The buttons a notification may answer with: a card that hands off (its answer needs the
/// full card), has more than two buttons, or a destructive one (an approval of a call that
/// deletes or cannot be undone) offers none, and only opens the conversation.
pub fn answerable_buttons(card: &SimpleCard) -> &[SimpleCardButton] {
    let answerable = !card.handoff
        && card.buttons.len() <= ACTIONS_MAX
        && !card.buttons.iter().any(|button| button.style == ButtonStyle::Destructive);
    if answerable { &card.buttons } else { &[] }
}

/// How long is left to answer, as a sentence; `None` without a deadline or past it.
pub fn time_left(seconds: Option<i64>) -> Option<String> {
    let seconds = seconds.filter(|seconds| *seconds > 0)?;
    let (count, unit) = match seconds {
        ..60 => return Some("Less than a minute left to answer.".into()),
        60..3600 => (seconds / 60, "minute"),
        3600..172_800 => (seconds / 3600, "hour"),
        _ => (seconds / 86_400, "day"),
    };
    let plural = if count == 1 { "" } else { "s" };
    Some(format!("{count} {unit}{plural} left to answer."))
}

/// The question of an ask as a person reads it outside Palaver (a notification, a mail): the
/// card's title, then its text.
pub fn question_of(ask: &AskEvent) -> String {
    match &ask.simple.title {
        Some(card_title) => format!("{card_title}: {}", ask.simple.text),
        None => ask.simple.text.clone(),
    }
}

/// The notification for `ask` in the conversation `history_id`.
pub fn ask_notification(
    ask: &AskEvent,
    history_id: &str,
    title: Option<&str>,
    seconds_left: Option<i64>,
    actions: Vec<NotificationAction>,
) -> AskNotification {
    let title = title.map(str::trim).filter(|title| !title.is_empty()).unwrap_or("Palaver has a question for you");
    let question = question_of(ask);
    let body = match time_left(seconds_left) {
        Some(left) => format!("{question}\n{left}"),
        None => question,
    };
    AskNotification {
        tag: ask.tool_call_id.clone(),
        title: title.to_string(),
        body,
        // An approval routed to someone else is answered from their inbox: the conversation
        // is not theirs to open.
        url: if ask.routed.is_some() { "/".to_string() } else { format!("/?c={history_id}") },
        actions,
        expires_at: ask.expires_at.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palaver_contract::asks::{AskKind, AskResponse};
    use serde_json::json;

    fn card(styles: &[ButtonStyle], handoff: bool) -> SimpleCard {
        let buttons = styles
            .iter()
            .enumerate()
            .map(|(index, style)| SimpleCardButton {
                id: format!("b{index}"),
                label: format!("Button {index}"),
                style: *style,
                response: AskResponse::accept(json!({"confirmed": true})),
            })
            .collect();
        SimpleCard {
            tool_call_id: "ask_1".into(),
            kind: AskKind::Confirm,
            title: None,
            text: "Send it?".into(),
            buttons,
            handoff,
        }
    }

    #[test]
    fn only_small_safe_cards_answer_from_a_notification() {
        assert_eq!(answerable_buttons(&card(&[ButtonStyle::Primary, ButtonStyle::Cancel], false)).len(), 2);
        assert!(answerable_buttons(&card(&[ButtonStyle::Destructive, ButtonStyle::Cancel], false)).is_empty());
        assert!(answerable_buttons(&card(&[ButtonStyle::Primary; 3], false)).is_empty());
        assert!(answerable_buttons(&card(&[ButtonStyle::Cancel], true)).is_empty());
    }

    #[test]
    fn time_left_reads_as_a_sentence() {
        assert_eq!(time_left(None), None);
        assert_eq!(time_left(Some(-5)), None);
        assert_eq!(time_left(Some(30)).unwrap(), "Less than a minute left to answer.");
        assert_eq!(time_left(Some(61)).unwrap(), "1 minute left to answer.");
        assert_eq!(time_left(Some(3599)).unwrap(), "59 minutes left to answer.");
        assert_eq!(time_left(Some(86_400)).unwrap(), "24 hours left to answer.");
        assert_eq!(time_left(Some(3 * 86_400)).unwrap(), "3 days left to answer.");
    }
}
