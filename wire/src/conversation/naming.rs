//! A conversation's name as people read it, and the rules for a title.

/// A conversation's one name, wherever it is shown (the list, the inbox, the tab, the export):
/// its title, else its first message's words (a conversation whose turn only asked has no
/// title yet), else "New conversation".
pub fn conversation_name(title: Option<&str>, first_message: Option<&str>) -> String {
    let title = title.map(str::trim).filter(|title| !title.is_empty()).map(str::to_string);
    title.or_else(|| first_message.and_then(words_title)).unwrap_or_else(|| "New conversation".to_string())
}

/// Longest title a turn sets, in UTF-16 units.
pub const SET_TITLE_MAX_LENGTH: usize = 60;

/// A message's words on one line, as a title (`None` for a message of no words).
pub fn words_title(text: &str) -> Option<String> {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!words.is_empty()).then(|| palaver_contract::text::shorten(&words, SET_TITLE_MAX_LENGTH))
}

/// Longest title a person may give a conversation, in UTF-16 units.
pub const TITLE_MAX_LENGTH: usize = 200;

/// A title as a person typed it, trimmed; or why it cannot be one.
pub fn check_title(title: &str) -> Result<String, String> {
    let title = title.trim();
    if title.is_empty() {
        return Err("A title cannot be empty.".into());
    }
    if palaver_contract::text::utf16_len(title) > TITLE_MAX_LENGTH {
        return Err(format!("A title can be at most {TITLE_MAX_LENGTH} characters long."));
    }
    if title.chars().any(char::is_control) {
        return Err("A title is one line: no line breaks, tabs or control characters.".into());
    }
    Ok(title.to_string())
}
