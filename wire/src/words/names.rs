//! Identifiers as a person reads them: a tool's title when it has one, else its name made into
//! words (`scheduleReminder` → "Schedule reminder", `files__write_file` → "Write file").

/// The separator between an MCP server's name and its tool's in a tool name Palaver offers.
const SERVER_SEPARATOR: &str = "__";

/// An identifier in words: camelCase, snake_case and kebab-case split into lower-case words,
/// the first capitalised. Acronyms stay whole (`sendHTTPRequest` → "Send HTTP request").
pub fn humanised(identifier: &str) -> String {
    let chars: Vec<char> = identifier.chars().collect();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for (index, &c) in chars.iter().enumerate() {
        if matches!(c, '_' | '-' | ' ' | '.') {
            words.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            continue;
        }
        let previous = index.checked_sub(1).map(|i| chars[i]);
        let next = chars.get(index + 1);
        // A word starts at an upper-case letter after a lower-case one or a digit
        // ("scheduleReminder"), or at the last capital of an acronym ("HTTPRequest").
        let starts = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if starts && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    words.extend((!word.is_empty()).then_some(word));
    let mut text = words
        .iter()
        .map(|word| {
            let acronym = word.chars().count() > 1 && word.chars().all(|c| !c.is_lowercase());
            if acronym { word.clone() } else { word.to_lowercase() }
        })
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(first) = text.chars().next() {
        text.replace_range(..first.len_utf8(), &first.to_uppercase().to_string());
    }
    text
}

/// A tool as a person reads it: its title, else its name in words without the MCP server's
/// prefix (the server is shown on a line of its own).
pub fn tool_words(name: &str, title: Option<&str>) -> String {
    match title.map(str::trim).filter(|title| !title.is_empty()) {
        Some(title) => title.to_string(),
        None => {
            let tool = name.split_once(SERVER_SEPARATOR).map_or(name, |(_, tool)| tool);
            let words = humanised(tool);
            if words.is_empty() { name.to_string() } else { words }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_read_as_words() {
        assert_eq!(humanised("scheduleReminder"), "Schedule reminder");
        assert_eq!(humanised("deleteCompletedTodos"), "Delete completed todos");
        assert_eq!(humanised("write_file"), "Write file");
        assert_eq!(humanised("due-date"), "Due date");
        assert_eq!(humanised("sendHTTPRequest"), "Send HTTP request");
        assert_eq!(humanised("time"), "Time");
        assert_eq!(humanised("__"), "");
    }

    #[test]
    fn a_tool_reads_as_its_title_else_its_name_without_the_server() {
        assert_eq!(tool_words("files__write_file", None), "Write file");
        assert_eq!(tool_words("files__write_file", Some("Write a file")), "Write a file");
        assert_eq!(tool_words("scheduleReminder", Some("  ")), "Schedule reminder");
        assert_eq!(tool_words("___", None), "___");
    }
}
